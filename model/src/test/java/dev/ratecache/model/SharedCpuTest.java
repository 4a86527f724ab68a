package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.model.SharedCpu.Process;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The machine's cores shared by every process a request costs CPU in, against cases solved by hand. */
class SharedCpuTest {

    @Test
    void oneCoreOneConnectionIsServedAtTheDemandsPace() {
        SharedCpu.Prediction p = new SharedCpu(1, List.of(new Process("server", 0.001, 1)), 0).closed(1, 0);

        assertThat(p.throughputPerSec()).isCloseTo(1000, within(1e-6));
        assertThat(p.responseSec()).isCloseTo(0.001, within(1e-9));
        assertThat(p.cpuUtilisation()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void twoCoresServeTwoConnectionsAtOnceAndQueueTheThird() {
        SharedCpu jvm = new SharedCpu(2, List.of(new Process("origin", 0.001, 2)), 0);

        // N = 2: each on a core of its own, no wait. N = 4: two cores busy all the time, each request
        // waits for one other (R = N / X = 4 / 2000).
        assertThat(jvm.closed(2, 0).throughputPerSec()).isCloseTo(2000, within(1e-6));
        assertThat(jvm.closed(2, 0).responseSec()).isCloseTo(0.001, within(1e-9));
        assertThat(jvm.closed(4, 0).throughputPerSec()).isCloseTo(2000, within(1e-6));
        assertThat(jvm.closed(4, 0).responseSec()).isCloseTo(0.002, within(1e-9));
        assertThat(jvm.closed(4, 0).bottleneck()).isEqualTo(SharedCpu.CPU);
    }

    @Test
    void aSingleThreadedProcessBoundsTheRateBeforeTheCoresAreAllBusy() {
        // nginx's one worker at 20 us a HIT and wrk's one thread at 10 us: the cores could do
        // 2 / 30 us = 66,667 a second, but the worker is busy all the time at 1 / 20 us = 50,000.
        SharedCpu hit = new SharedCpu(2, List.of(new Process("front", 20e-6, 1), new Process("wrk", 10e-6, 1)), 0);

        SharedCpu.Prediction p = hit.closed(50, 0);

        assertThat(p.throughputPerSec()).isCloseTo(50_000, within(1e-6));
        assertThat(p.bottleneck()).isEqualTo("front");
        assertThat(p.responseSec()).isCloseTo(50 / 50_000.0, within(1e-12));
        assertThat(p.cpuUtilisation()).isCloseTo(0.75, within(1e-9));
        assertThat(hit.saturationPerSec()).isCloseTo(50_000, within(1e-6));
    }

    @Test
    void theOriginsDelayIsADelayStationWorkedByHand() {
        // One core, 10 ms of CPU and 90 ms of sleep. N = 1: X = 1 / 0.1 s = 10. N = 2 by MVA: the
        // core's queue at N = 1 is X·R = 10 · 0.01 = 0.1, so R_cpu(2) = 0.01 · 1.1 = 0.011,
        // R(2) = 0.101 and X(2) = 2 / 0.101.
        SharedCpu slow = new SharedCpu(1, List.of(new Process("origin", 0.010, 1)), 0.090);

        assertThat(slow.closed(1, 0).throughputPerSec()).isCloseTo(10, within(1e-9));
        assertThat(slow.closed(2, 0).throughputPerSec()).isCloseTo(2 / 0.101, within(1e-9));
        assertThat(slow.closed(2, 0).responseSec()).isCloseTo(0.101, within(1e-9));
    }

    @Test
    void anOpenLoadIsServedAtItsRateUntilTheFirstThingSaturates() {
        SharedCpu miss = new SharedCpu(2, List.of(new Process("front", 100e-6, 1), new Process("back", 200e-6, 1),
                new Process("origin", 300e-6, 2)), 0);

        // All cores at 2 / 600 us = 3,333 a second; the back's one worker alone at 5,000: the CPU first.
        assertThat(miss.open(1000).throughputPerSec()).isEqualTo(1000);
        assertThat(miss.open(1000).cpuUtilisation()).isCloseTo(0.3, within(1e-9));
        assertThat(miss.open(10_000).throughputPerSec()).isCloseTo(2 / 600e-6, within(1e-6));
        assertThat(miss.bottleneck()).isEqualTo(SharedCpu.CPU);
        assertThat(new SharedCpu(4, miss.processes(), 0).bottleneck()).isEqualTo("back");
    }

    @Test
    void refusesWhatIsNoMachine() {
        assertThatThrownBy(() -> new SharedCpu(0, List.of(new Process("a", 1, 1)), 0))
                .hasMessageContaining("at least one core");
        assertThatThrownBy(() -> new SharedCpu(1, List.of(new Process("a", 0, 1)), 0))
                .hasMessageContaining("nothing to predict from");
        assertThatThrownBy(() -> new Process("a", 1, 0)).hasMessageContaining("at least one thread");
        assertThatThrownBy(() -> new SharedCpu(1, List.of(new Process("a", 1, 1), new Process("a", 1, 1)), 0))
                .hasMessageContaining("two processes named a");
    }
}
