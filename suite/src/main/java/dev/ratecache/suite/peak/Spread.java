package dev.ratecache.suite.peak;

import dev.ratecache.stats.Median;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A figure's values over the rounds, one a round: peak prints the median, and the range so that a
 * reader sees how far one round's drift moved it. Every mode takes its medians and ranges here.
 */
public record Spread(List<Double> values) {
    public double median() {
        return Median.of(values);
    }

    public double min() {
        return values.stream().min(Comparator.naturalOrder()).orElse(Double.NaN);
    }

    public double max() {
        return values.stream().max(Comparator.naturalOrder()).orElse(Double.NaN);
    }

    /** As the tables print it: "0.52-0.61". */
    public String range() {
        return String.format(Locale.ROOT, "%.2f-%.2f", min(), max());
    }

    /** {@code value} over {@code top}: 0, not infinity, when the top answered nothing. */
    public static double ratio(double value, double top) {
        return top > 0 ? value / top : 0;
    }
}
