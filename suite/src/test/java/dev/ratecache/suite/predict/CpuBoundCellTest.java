package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A cell the CPU sets the pace of, predicted from its own CPU per request at every process. */
class CpuBoundCellTest {
    private static final int CORES = CpuBoundCell.CORES;

    private static Cell wrkCell(String threads, String connections) {
        return Cell.of(Plan.ofPath("fast-origin", "/fast", 14), "edge").frontLimit(false).backLimit(false)
                .serverCache().generator(Generator.WRK).property("threads", threads).property("connections", connections)
                .property("duration", "10").build();
    }

    /** One run of {@code samples} requests whose processes spent these CPU seconds. */
    private static CellMeasurement run(long samples, double rate, Double front, Double origin, double generator) {
        JtlSummary jtl = new JtlSummary(samples, 0, 0, 0, rate, 1, 0, 10, 1, 2, 2, 3, 10_000);
        return new CellMeasurement(jtl, 0.0, null, new CellMeasurement.Cpu(front, 0.0, origin, generator), 10);
    }

    private static StackSpec stack(String workers) {
        return new StackSwitches().workers(workers).spec(new StackPorts());
    }

    @Test
    void aClosedLoopOfHitsIsPredictedFromEachProcesssCpuPerRequestOnThisMachinesCores() {
        // 100,000 HITs: the front 2 s (20 us each), wrk 1 s (10 us). Each as wide as the machine:
        // all cores busy at CORES / 30 us.
        CellResult r = new CellResult(wrkCell(String.valueOf(CORES), "50"), List.of(run(100_000, 50_000, 2.0, 0.0, 1.0)),
                null, Path.of("."), Path.of("."));

        Prediction p = CpuBoundCell.predict(r, r.cell().properties(), stack("auto"));

        assertThat(p.predicted()).isTrue();
        assertThat(p.value(Metric.THROUGHPUT)).isCloseTo(CORES / 30e-6, within(1.0));
    }

    @Test
    void oneNginxWorkerBoundsTheRateWhenTheMachineHasMoreCores() {
        CellResult r = new CellResult(wrkCell("1", "50"), List.of(run(100_000, 50_000, 2.0, 0.0, 1.0)), null,
                Path.of("."), Path.of("."));

        Prediction p = CpuBoundCell.predict(r, r.cell().properties(), stack("1"));

        // The one worker busy all the time at 1 / 20 us, if the machine has the cores for the rest.
        assertThat(p.value(Metric.THROUGHPUT)).isCloseTo(Math.min(50_000, CORES / 30e-6), within(1.0));
    }

    @Test
    void theRangeSpansTheRunsLeastAndMostCpuPerRequest() {
        CellResult r = new CellResult(wrkCell(String.valueOf(CORES), "50"), List.of(
                run(100_000, 50_000, 2.0, 0.0, 1.0), run(100_000, 40_000, 2.5, 0.0, 1.5)), null, Path.of("."),
                Path.of("."));

        Prediction p = CpuBoundCell.predict(r, r.cell().properties(), stack("auto"));

        assertThat(p.range(Metric.THROUGHPUT).low()).isCloseTo(CORES / 40e-6, within(1.0));
        assertThat(p.range(Metric.THROUGHPUT).high()).isCloseTo(CORES / 30e-6, within(1.0));
    }

    @Test
    void bombardierAtARateIsAnOpenLoadServedAtItsRateBelowSaturation() {
        Cell cell = Cell.of(Plan.ofPath("redis-balancer", "/items/1", 14), "redis-1").frontLimit(false).backLimit(false)
                .generator(Generator.BOMBARDIER).property("connections", "250").property("rate", "1000")
                .property("duration", "10").build();
        CellResult r = new CellResult(cell, List.of(run(10_000, 1000, 0.5, 5.0, 0.5)), null, Path.of("."), Path.of("."));

        Prediction p = CpuBoundCell.predict(r, cell.properties(), stack("auto"));

        // 600 us a request: CORES / 600 us is far above 1,000 a second only with enough cores.
        assertThat(p.value(Metric.THROUGHPUT)).isCloseTo(Math.min(1000, CORES / 600e-6), within(1e-6));
    }

    @Test
    void withoutTheGeneratorsCpuThereIsNothingToPredictFrom() {
        JtlSummary jtl = new JtlSummary(1000, 0, 0, 0, 100, 1, 0, 10, 1, 2, 2, 3, 10_000);
        CellResult r = new CellResult(wrkCell("2", "10"), List.of(new CellMeasurement(jtl, 0.0, null,
                new CellMeasurement.Cpu(1.0, 0.0, 1.0, null), 10)), null, Path.of("."), Path.of("."));

        Prediction p = CpuBoundCell.predict(r, r.cell().properties(), stack("auto"));

        assertThat(p.predicted()).isFalse();
        assertThat(p.gap()).contains("the load generator's was not measured");
    }

    @Test
    void aFlaggedRateSaysWhetherTheCoresWereBusy() {
        Predictions.Evidence idle = new Predictions.Evidence(null, null, null, CORES, null, 0, 60.0);
        Predictions.Evidence busy = new Predictions.Evidence(null, null, null, CORES, null, 0, 99.0);

        assertThat(CpuBoundCell.reason(700, 1000, null, idle, 10.0)).startsWith("the cores were not all busy (60 %")
                .contains("the origin's database pool (all 10 of its connections lent at once)");
        assertThat(CpuBoundCell.reason(700, 1000, null, busy, null)).startsWith("the cores were all busy (99 %");
        assertThat(CpuBoundCell.reason(700, 1000, new Prediction.Range(650, 1000), busy, null))
                .contains("inside the range the model allows");
    }
}
