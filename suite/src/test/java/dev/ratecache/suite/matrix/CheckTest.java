package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.report.Check;
import dev.ratecache.suite.report.JUnitXml;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --assert checks: their form, and their verdicts against measured cells. */
class CheckTest {
    private static final List<Cell> CELLS = Matrix.reference(Plan.REFERENCE);
    private static final Cell SERVER_CACHE = CELLS.get(1);

    private static CellResult measured(Cell cell, double rejectedPct) {
        long rejected = Math.round(rejectedPct * 10);
        JtlSummary jtl = new JtlSummary(1000, rejected, 0, 0, 99.5, 12, 1, 200, 10, 20, 30, 40, 10_000);
        CellMeasurement m = new CellMeasurement(jtl, 3.0, 99.0, new CellMeasurement.Cpu(1.0, 1.0, 1.0, 1.0), 11);
        return new CellResult(cell, List.of(m), null, Path.of("."), Path.of("."));
    }

    @Test
    void checkPassesWhenTheMedianMeetsIt() {
        Check check = Check.parse("stress/server-cache.rejected_pct == 0", CELLS);
        assertThat(check.evaluate(List.of(measured(SERVER_CACHE, 0))).passed()).isTrue();
    }

    @Test
    void checkFailsWithTheMeasuredValue() {
        Check check = Check.parse("stress/server-cache.rejected_pct < 5", CELLS);
        Check.Outcome outcome = check.evaluate(List.of(measured(SERVER_CACHE, 54)));
        assertThat(outcome.passed()).isFalse();
        assertThat(outcome.detail()).isEqualTo("measured rejected_pct = 54.000 %");
    }

    @Test
    void checkOnAFailedCellFails() {
        Check check = Check.parse("stress/server-cache.throughput > 1", CELLS);
        CellResult failed = new CellResult(SERVER_CACHE, List.of(), "nginx did not start", Path.of("x.log"), Path.of("."));
        assertThat(check.evaluate(List.of(failed)).detail()).contains("failed: nginx did not start");
    }

    @Test
    void cellNamesWithDotsParse() {
        List<Cell> full = Matrix.full(List.of(Plan.STRESS));
        Check check = Check.parse("stress/front-on.back-on.server-on.client-off.p95_ms <= 3000", full);
        assertThat(check.cell()).isEqualTo("stress/front-on.back-on.server-on.client-off");
        assertThat(check.metric()).isEqualTo(Metric.P95_MS);
    }

    @Test
    void checkOnACellThatWillNotRunIsRefused() {
        assertThatThrownBy(() -> Check.parse("mine/both.throughput > 1", CELLS))
                .hasMessageContaining("names cell 'mine/both', which this run does not have");
    }

    @Test
    void junitXmlHasOneTestcasePerCheckAndTheFailures() {
        Check.Outcome pass = Check.parse("stress/server-cache.rejected_pct == 0", CELLS).evaluate(List.of(measured(SERVER_CACHE, 0)));
        Check.Outcome fail = Check.parse("stress/server-cache.rejected_pct > 1", CELLS).evaluate(List.of(measured(SERVER_CACHE, 0)));
        String xml = JUnitXml.of(List.of(pass, fail));
        assertThat(xml).contains("tests=\"2\" failures=\"1\"")
                .contains("name=\"stress/server-cache.rejected_pct &gt; 1\"")
                .contains("<failure message=\"measured rejected_pct = 0.000 %\">measured rejected_pct = 0.000 %</failure>");
    }
}
