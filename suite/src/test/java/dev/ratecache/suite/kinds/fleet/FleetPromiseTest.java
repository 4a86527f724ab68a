package dev.ratecache.suite.kinds.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.matrix.FleetFigures;
import dev.ratecache.suite.report.Check;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-client promise on a fleet: held, broken (naming the key and the second), and across runs. */
class FleetPromiseTest {
    private static final long SECOND = 1_700_000_000_000L; // 22:13:20.000 UTC
    private static final Check CHECK = new Check(FleetPromise.text("fleet/x"), "fleet/x", null, "<=", 1);

    private static FleetFigures figures(FleetFigures.KeyWindow... windows) {
        return new FleetFigures("free-noisy", 24, 100, 50, 10, 24, SECOND, 0, null, List.of(windows));
    }

    @Test
    void heldWhenNoKeysSecondHoldsMoreThanRatePlusBurstWhollyInsideIt() {
        Check.Outcome o = FleetPromise.evaluate(CHECK, List.of(figures(
                new FleetFigures.KeyWindow("free-noisy", "free", 24, 24, 2, SECOND),
                new FleetFigures.KeyWindow("free-1", "free", 24, 10, 0, SECOND))));

        assertThat(o.passed()).isTrue();
        assertThat(o.detail()).startsWith("held; closest, key free-noisy (tier free, rate + burst 24): 24 admitted in"
                + " the second from 22:13:20.000 UTC").contains("2 more started in it and ended after it");
    }

    @Test
    void brokenNamesTheKeyAndTheSecondOfTheWorstRun() {
        Check.Outcome o = FleetPromise.evaluate(CHECK, List.of(
                figures(new FleetFigures.KeyWindow("free-noisy", "free", 24, 30, 0, SECOND)),
                figures(new FleetFigures.KeyWindow("free-noisy", "free", 24, 40, 1, SECOND + 1500))));

        assertThat(o.passed()).isFalse();
        assertThat(o.detail()).startsWith("broken by key free-noisy (tier free, rate + burst 24): 40 admitted in the"
                + " second from 22:13:21.500 UTC in run 2");
    }

    @Test
    void aRunWithoutAdmissionsHasNothingToJudge() {
        assertThat(FleetPromise.evaluate(CHECK, List.of()).passed()).isFalse();
    }
}
