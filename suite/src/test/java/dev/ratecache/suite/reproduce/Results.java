package dev.ratecache.suite.reproduce;

import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import java.nio.file.Path;
import java.util.List;

/** Cells' results made up for the tests: what a run of the experiments' cells could have measured. */
final class Results {
    private static final Path DIR = Path.of("target", "no-such-run");

    private Results() {}

    /**
     * One run of {@code cell} answering {@code samples} requests at {@code throughput} per second with
     * a mean of {@code meanMs}, its processes' CPU seconds as given.
     */
    static CellResult measured(Cell cell, double throughput, double meanMs, long samples, CellMeasurement.Cpu cpu,
            Double redisCpu) {
        return measured(cell, throughput, meanMs, samples, 0, cpu, redisCpu);
    }

    /** The same, {@code rejected} of its samples answered 429 or 503. */
    static CellResult measured(Cell cell, double throughput, double meanMs, long samples, long rejected,
            CellMeasurement.Cpu cpu, Double redisCpu) {
        JtlSummary jtl = new JtlSummary(samples, rejected, 0, 0, throughput, meanMs, 0, Math.round(meanMs * 10),
                Math.round(meanMs), Math.round(meanMs * 2), Math.round(meanMs * 3), Math.round(meanMs * 5),
                Math.round(1000.0 * samples / throughput));
        CellMeasurement.Caches caches = redisCpu == null ? null
                : new CellMeasurement.Caches(5000.0, 1.0, 1.0, 0.0, null, redisCpu, null);
        CellMeasurement m = new CellMeasurement(jtl, 1.0, null, cpu, 10, null, jtl, caches,
                new CellMeasurement.WindowCpu(95.0, 80.0), CellMeasurement.Breakdowns.NONE);
        return new CellResult(cell, List.of(m), null, DIR, DIR);
    }

    static CellResult measured(Cell cell, double throughput, double meanMs) {
        return measured(cell, throughput, meanMs, Math.round(throughput * 10), new CellMeasurement.Cpu(1.0, 0.1, 2.0,
                3.0), null);
    }

    static CellResult failed(Cell cell, String why) {
        return new CellResult(cell, List.of(), why, DIR, DIR);
    }

    /** The cell of {@code experiment} named {@code name}. */
    static Cell cell(Experiment experiment, String name) {
        return experiment.cells().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }
}
