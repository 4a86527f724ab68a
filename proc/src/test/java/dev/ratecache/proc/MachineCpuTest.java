package dev.ratecache.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MachineCpuTest {

    @Test
    void theBusyShareIsNormalPriorityAndStolenTimeOverAllOfIt() {
        MachineCpu.Reading start = MachineCpu.parse("cpu  1000 500 200 8000 100 0 50 0 0 0").orElseThrow();
        // 200 jiffies on two cores: 120 user, 30 system, 10 softirq, 20 steal busy; 20 niced and 0 idle are not.
        MachineCpu.Reading end = MachineCpu.parse("cpu  1120 520 230 8000 100 0 60 20 0 0").orElseThrow();

        assertThat(end.busyPctSince(start).orElseThrow()).isEqualTo(100.0 * 180 / 200, within(1e-9));
    }

    @Test
    void anOldKernelsShorterLineStillReads() {
        MachineCpu.Reading start = MachineCpu.parse("cpu 10 0 10 80").orElseThrow();
        MachineCpu.Reading end = MachineCpu.parse("cpu 60 0 10 130").orElseThrow();

        assertThat(end.busyPctSince(start).orElseThrow()).isEqualTo(50.0, within(1e-9));
    }

    @Test
    void aPerCoreLineIsNotTheMachine() {
        assertThat(MachineCpu.parse("cpu0 60461 3615 9169 146719 96 0 404 39 0 0")).isEmpty();
    }

    @Test
    void noTimePassedHasNoShare() {
        MachineCpu.Reading r = MachineCpu.parse("cpu 10 0 10 80").orElseThrow();

        assertThat(r.busyPctSince(r)).isEmpty();
    }
}
