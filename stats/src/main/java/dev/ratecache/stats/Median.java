package dev.ratecache.stats;

import java.util.Arrays;
import java.util.Collection;

/**
 * The median, the suite's one definition: the middle value of an odd count, and the mean of the two
 * middle values of an even count, so that the median of two repeats is neither the better nor the
 * worse run. A latency's p50 is not this: it is {@link NearestRank#percentile a measured value}.
 */
public final class Median {

    private Median() {}

    /** The median of {@code values}, in any order; NaN when there are none. */
    public static double of(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** The median of {@code values}, in any order; NaN when there are none. */
    public static double of(Collection<? extends Number> values) {
        return of(values.stream().mapToDouble(Number::doubleValue).toArray());
    }
}
