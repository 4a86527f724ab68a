package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.JtlSummary;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a cell's generator or machine counts as saturated, from made-up measurements. */
class SaturationTest {
    private static final Cell CELL = Matrix.reference(List.of(Plan.STRESS)).get(0);

    /** A cell whose generator used {@code generatorPct} of a core on a machine {@code machinePct} busy. */
    private static CellResult cell(double generatorPct, Double machinePct) {
        JtlSummary jtl = new JtlSummary(100, 0, 0, 0, 10, 50, 1, 300, 40, 80, 90, 250, 10_000);
        // Its whole run, JMeter's start-up included, is no evidence: 9.9 CPU seconds in 10 s.
        CellMeasurement m = new CellMeasurement(jtl, 50.0, null, new CellMeasurement.Cpu(0.1, 0.1, 1.0, 9.9),
                10, null, null, null, new CellMeasurement.WindowCpu(machinePct, generatorPct),
                CellMeasurement.Breakdowns.NONE);
        return new CellResult(CELL, List.of(m), null, Path.of("."), Path.of("."));
    }

    @Test
    void aGeneratorAtNinetyPercentOfOneCoreIsSaturatedWhateverTheMachine() {
        assertThat(Saturation.of(cell(95, 60.0))).hasValueSatisfying(s ->
                assertThat(s.describe()).isEqualTo("the load generator was saturated (95 % of one core)"));
    }

    @Test
    void aMachineNinetyPercentBusyIsSaturatedWhateverTheGenerator() {
        assertThat(Saturation.of(cell(20, 93.0))).hasValueSatisfying(s ->
                assertThat(s.describe()).isEqualTo("the machine was saturated (93 % of all cores busy)"));
    }

    @Test
    void bothAreNamedWhenBothWere() {
        assertThat(Saturation.of(cell(98, 99.0))).hasValueSatisfying(s -> assertThat(s.describe())
                .isEqualTo("the load generator and the machine were saturated (98 % of one core; 99 % of all cores busy)"));
    }

    @Test
    void justUnderBothThresholdsIsNotSaturated() {
        assertThat(Saturation.of(cell(89, 89.0))).isEmpty();
    }

    @Test
    void aMachineThatCouldNotBeReadIsNotCalledSaturated() {
        assertThat(Saturation.of(cell(10, null))).isEmpty();
    }

    @Test
    void aFailedCellIsNotJudged() {
        CellResult failed = new CellResult(CELL, List.of(), "the back tier did not start", Path.of("."), Path.of("."));

        assertThat(Saturation.of(failed)).isEmpty();
    }

    @Test
    void theWarningSaysTheFiguresMeasureTheGeneratorNotTheTiers() {
        assertThat(Saturation.of(cell(95, 60.0)).orElseThrow().warning())
                .startsWith("SATURATED: the load generator was saturated (95 % of one core), so these figures measure"
                        + " the generator and the machine, not the tiers");
    }
}
