package dev.ratecache.suite.predict;

import dev.ratecache.suite.matrix.Metric;
import java.util.List;
import java.util.Locale;

/**
 * One cell's prediction beside its measurement: per metric the two figures and their ratio, the
 * figures outside the tolerance flagged, and for those the likely cause.
 *
 * @param cell        the cell's name
 * @param prediction  what the model said (or its gap)
 * @param comparisons one per metric of {@link Predictor#METRICS} that the cell measured
 * @param reasons     the likely cause of each flag, one sentence each, no repeats
 * @param explained   false when a figure is flagged and nothing the run shows explains it
 */
public record CellPrediction(String cell, Prediction prediction, List<Comparison> comparisons, List<String> reasons,
        boolean explained) {

    public CellPrediction {
        comparisons = List.copyOf(comparisons);
        reasons = List.copyOf(reasons);
    }

    /** The reason given when nothing the run shows explains a flagged figure. */
    public static final String UNEXPLAINED = "no known cause: the model or the measurement is wrong here";

    /**
     * One metric: measured, predicted and measured/predicted.
     *
     * @param ratio   measured / predicted; null when the prediction is 0 (then only the floor decides)
     * @param flagged outside ±{@link Predictions#TOLERANCE} and beyond the metric's noise floor
     * @param range   the figures the model allows ({@link Prediction#range}); null when only its value
     */
    public record Comparison(Metric metric, Double measured, Double predicted, Double ratio, boolean flagged,
            Prediction.Range range) {

        public Comparison(Metric metric, Double measured, Double predicted, Double ratio, boolean flagged) {
            this(metric, measured, predicted, ratio, flagged, null);
        }

        /** "measured / predicted ×ratio [low–high]", with a "!" when flagged: one table cell. */
        public String text(int decimals) {
            String f = "%." + decimals + "f";
            String m = measured == null ? "n/a" : String.format(Locale.ROOT, f, measured);
            String p = predicted == null ? "n/a" : String.format(Locale.ROOT, f, predicted);
            String r = ratio == null ? "" : String.format(Locale.ROOT, " ×%.2f", ratio);
            String low = range == null ? null : String.format(Locale.ROOT, f, range.low());
            String high = range == null ? null : String.format(Locale.ROOT, f, range.high());
            String s = low == null || low.equals(high) ? "" : " [" + low + "–" + high + "]";
            return m + " / " + p + r + s + (flagged ? " !" : "");
        }
    }

    public boolean anyFlagged() {
        return comparisons.stream().anyMatch(Comparison::flagged);
    }

    public Comparison comparison(Metric metric) {
        return comparisons.stream().filter(c -> c.metric() == metric).findFirst().orElse(null);
    }
}
