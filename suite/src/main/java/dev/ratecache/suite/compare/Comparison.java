package dev.ratecache.suite.compare;

import java.nio.file.Path;
import java.util.List;

/**
 * Two runs compared: every cell of either, with what differs in the runs' switches.
 *
 * @param differences the runs' switches that differ, one clause each
 */
public record Comparison(Path a, Path b, String switchesA, String switchesB, List<String> differences,
        List<CellComparison> cells) {

    /** A metric of a cell that is worse by more than {@code pct} per cent and outside the noise. */
    public record Regression(String cell, MetricComparison metric) {
        public String text() {
            return cell + "." + metric.metric().id() + " " + MetricComparison.figure(metric.a()) + " -> "
                    + MetricComparison.figure(metric.b()) + " " + metric.metric().unit() + " (" + metric.changeText()
                    + ", interval " + metric.intervalText() + ")";
        }
    }

    public List<Regression> regressions(double pct) {
        return cells.stream().flatMap(c -> c.metrics().stream().filter(m -> m.regression(pct))
                .map(m -> new Regression(c.name(), m))).toList();
    }

    /** How many metrics compare could not judge for want of a noise measure. */
    public long unjudged() {
        return cells.stream().flatMap(c -> c.metrics().stream()).filter(m -> m.verdict() == Verdict.UNJUDGED).count();
    }

    public long count(Verdict verdict) {
        return cells.stream().flatMap(c -> c.metrics().stream()).filter(m -> m.verdict() == verdict).count();
    }
}
