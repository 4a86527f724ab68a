package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.Sample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fault's figures from the client's samples: when a reload's new limit took hold, the requests
 * a fault failed, and those of them lost in flight (no HTTP response at all).
 */
class FaultFiguresTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final Fault RELOAD = new Fault(Fault.Kind.RELOAD, 2, 10);
    private static final Fault KILL = new Fault(Fault.Kind.WORKER_KILL, 2, 0);

    /** {@code perSecond} admitted and as many refused each second in [fromMs, toMs), evenly spaced. */
    private static List<Sample> flood(long fromMs, long toMs, int perSecond) {
        List<Sample> samples = new ArrayList<>();
        long gap = 1000 / perSecond;
        for (long t = fromMs; t < toMs; t += gap) {
            samples.add(Sample.of(t, 5, "200", true));
            samples.add(Sample.of(t + 1, 1, "429", false));
        }
        return samples;
    }

    @Test
    void aReloadsNewLimitHoldsFromTheFirstWindowNoLaterWindowBreaks() {
        List<Sample> samples = new ArrayList<>(flood(T0, T0 + 3000, 40));
        // Signal at T0 + 3 s; the old workers admit at the old rate for another half second.
        samples.addAll(flood(T0 + 3000, T0 + 3500, 40));
        samples.addAll(flood(T0 + 3500, T0 + 7000, 10));
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(RELOAD, T0 + 3000, T0 + 3010, 0, 0, null),
                samples, 15);

        assertThat(f.failed()).isZero();
        assertThat(f.beforePeak()).isEqualTo(40);
        // The window from +0.5 s holds 10; the one from +0.4 s still 4 of the old limit's and 10 more.
        assertThat(f.effectMs()).isBetween(200L, 500L);
        assertThat(f.afterPeak()).isLessThanOrEqualTo(15);
        assertThat(f.terminalLine()).contains("0 failed requests", "the new limit held from " + f.effectMs() + " ms");
    }

    @Test
    void aLimitThatNeverChangedNeverHolds() {
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(RELOAD, T0 + 3000, T0 + 3010, 0, 0, null),
                flood(T0, T0 + 7000, 40), 15);

        assertThat(f.effectMs()).isNull();
        assertThat(f.terminalLine()).contains("the new limit never held");
    }

    @Test
    void aReloadTooCloseToTheTrafficsEndIsNotMeasured() {
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(RELOAD, T0 + 2500, T0 + 2510, 0, 0, null),
                flood(T0, T0 + 3000, 40), 15);

        assertThat(f.error()).isEqualTo("the traffic ended less than a second after the signal");
        assertThat(f.effectMs()).isNull();
    }

    @Test
    void lostInFlightAreTheFailuresWithNoHttpResponseNotRejectionsNorErrorStatuses() {
        List<Sample> samples = new ArrayList<>(flood(T0, T0 + 4000, 20));
        samples.add(Sample.of(T0 + 2000, 3, "Non HTTP response code: org.apache.http.NoHttpResponseException", false));
        samples.add(Sample.of(T0 + 2001, 3, "Non HTTP response code: java.net.SocketException", false));
        samples.add(Sample.of(T0 + 2002, 3, "502", false));
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(KILL, T0 + 2000, T0 + 2040, 41, 42, null),
                samples, 0);

        assertThat(f.failed()).isEqualTo(3);
        assertThat(f.lost()).isEqualTo(2);
        assertThat(f.respawnMs()).isEqualTo(40);
        assertThat(f.terminalLine()).isEqualTo(
                "worker kill: the master started another in 40 ms; 2 requests lost in flight (3 failed in all)");
    }

    @Test
    void aWorkerNobodyStartedAgainIsSaid() {
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(KILL, T0 + 2000, 0, 41, 0, null),
                flood(T0, T0 + 4000, 20), 0);

        assertThat(f.respawned()).isFalse();
        assertThat(f.terminalLine()).contains("NO WORKER STARTED");
    }

    @Test
    void aFaultThatNeverFiredSaysWhy() {
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(KILL, 0, 0, 0, 0, "the traffic ended first"),
                flood(T0, T0 + 1000, 20), 0);

        assertThat(f.fired()).isFalse();
        assertThat(f.terminalLine()).isEqualTo("fault worker-kill did not happen: the traffic ended first");
    }
}
