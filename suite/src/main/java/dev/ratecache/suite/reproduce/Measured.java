package dev.ratecache.suite.reproduce;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Metric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A run's cells by name, for an experiment to read its figures from: none of a cell that failed or did not run. */
public final class Measured {
    private final Map<String, CellResult> byName = new LinkedHashMap<>();

    public Measured(List<CellResult> cells) {
        cells.forEach(r -> byName.put(r.cell().name(), r));
    }

    /** The cell's result, failed or not; empty when it did not run. */
    public Optional<CellResult> result(String cell) {
        return Optional.ofNullable(byName.get(cell));
    }

    /** The cell's median of {@code metric}; empty when it failed, did not run, or has no such figure. */
    public Optional<Double> median(String cell, Metric metric) {
        CellResult r = byName.get(cell);
        return r == null || r.failed() || r.runs().isEmpty() ? Optional.empty() : Optional.ofNullable(r.median(metric));
    }

    /** {@code metric} of {@code cell} over that of {@code other}; empty when either is missing or the other is 0. */
    public Optional<Double> ratio(String cell, String other, Metric metric) {
        Optional<Double> a = median(cell, metric);
        Optional<Double> b = median(other, metric).filter(v -> v != 0);
        return a.isPresent() && b.isPresent() ? Optional.of(a.get() / b.get()) : Optional.empty();
    }

    /**
     * CPU microseconds per answer of {@code cell} spent in the processes {@code seconds} names (e.g.
     * the origin and Redis): what each answer cost where it was made. Empty when a figure is missing.
     */
    public Optional<Double> cpuMicrosPerAnswer(String cell, Metric... seconds) {
        Optional<Double> samples = median(cell, Metric.SAMPLES).filter(v -> v > 0);
        double sum = 0;
        for (Metric m : seconds) {
            Optional<Double> s = median(cell, m);
            if (s.isEmpty()) {
                return Optional.empty();
            }
            sum += s.get();
        }
        double total = sum;
        return samples.map(n -> 1e6 * total / n);
    }

    /**
     * The sentence that stands for a finding whose cells lack figures: the first of {@code cells}
     * without a throughput (the last when each has one, as a ratio over 0 has none), and why.
     */
    public String notMeasured(String... cells) {
        String cell = cells[cells.length - 1];
        for (String c : cells) {
            if (median(c, Metric.THROUGHPUT).isEmpty()) {
                cell = c;
                break;
            }
        }
        return "Not measured: " + missing(cell) + ".";
    }

    /** Why a cell has no figures, for a sentence that would have used them. */
    public String missing(String cell) {
        CellResult r = byName.get(cell);
        return r == null ? cell + " did not run" : cell + " failed: " + r.failure();
    }
}
