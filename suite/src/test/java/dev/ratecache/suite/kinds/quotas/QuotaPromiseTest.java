package dev.ratecache.suite.kinds.quotas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.report.Check;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The quota's promise over a cell's figures: N a window by Redis's count, and sliding's bound on any stretch. */
class QuotaPromiseTest {
    private static final long T0 = 1_795_752_000_000L;
    private static final Check CHECK = new Check(QuotaPromise.text("quotas/sliding"), "quotas/sliding", null, "<=", 1);

    private static QuotaFigures figures(String mode, long mostInWindow, QuotaFigures.Window... windows) {
        var key = new QuotaFigures.KeyFigures("early-1", 100, 0, 0, 0, List.of(windows), mostInWindow, Map.of(),
                new QuotaFigures.Predicted(0, 0, -1));
        return new QuotaFigures(mode, 10, 60_000, T0, List.of(key), 0, 0, 0);
    }

    @Test
    void aKeyAdmittedItsQuotaAndNoMoreHoldsIt() {
        Check.Outcome o = QuotaPromise.evaluate(CHECK, List.of(figures("sliding", 19,
                new QuotaFigures.Window(T0, 10, 5, T0 + 1, 0, 0))));

        assertThat(o.passed()).isTrue();
        assertThat(o.detail()).startsWith("held; fullest, key early-1: 10 admitted in the window from")
                .contains("(quota 10)", "19 in its fullest 60-s stretch (sliding's bound 19)");
    }

    @Test
    void oneMoreInAWindowBreaksIt() {
        Check.Outcome o = QuotaPromise.evaluate(CHECK, List.of(figures("fixed", 11,
                new QuotaFigures.Window(T0, 11, 5, T0 + 1, 0, 0))));

        assertThat(o.passed()).isFalse();
        assertThat(o.detail()).startsWith("broken by key early-1: 11 admitted");
    }

    @Test
    void slidingsEstimateBreaksItPastTwiceTheQuotaLessOneInAStretch() {
        Check.Outcome o = QuotaPromise.evaluate(CHECK, List.of(figures("sliding", 20,
                new QuotaFigures.Window(T0, 10, 0, -1, 0, 0), new QuotaFigures.Window(T0 + 60_000, 10, 0, -1, 0, 0))));

        assertThat(o.passed()).isFalse();
    }

    @Test
    void whatTheEdgesAdmittedAloneWhileRedisFailedIsHeldToItsOwnShare() {
        Check.Outcome held = QuotaPromise.evaluate(CHECK, List.of(figures("fixed", 14,
                new QuotaFigures.Window(T0, 14, 0, -1, 0, 4))));
        Check.Outcome broken = QuotaPromise.evaluate(CHECK, List.of(figures("fixed", 25,
                new QuotaFigures.Window(T0, 25, 0, -1, 0, 11))));

        assertThat(held.passed()).isTrue();
        assertThat(held.detail()).contains("at most 4 in a window admitted by the edges alone while Redis failed");
        assertThat(broken.passed()).isFalse();
    }

    @Test
    void aRunWithNoDecisionsCannotBeJudged() {
        Check.Outcome o = QuotaPromise.evaluate(CHECK, java.util.Arrays.asList((QuotaFigures) null));

        assertThat(o.passed()).isFalse();
        assertThat(o.detail()).contains("logged no request their quota decided");
    }
}
