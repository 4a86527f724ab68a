package dev.ratecache.stats;

/**
 * Percentiles by nearest rank, the suite's one definition: the p-th percentile of n sorted values is
 * the value at rank ⌈p/100 · n⌉ (counting from 1), and the smallest value for p = 0. It is always a
 * value that was really measured, never one interpolated between two: a p95 latency is a request
 * that took that long.
 */
public final class NearestRank {

    private NearestRank() {}

    /**
     * The rank (from 1) of the {@code p}-th percentile among {@code n} values.
     *
     * @throws IllegalArgumentException when there are no values or p is outside 0 to 100
     */
    public static int rank(double p, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("no values to take a percentile of");
        }
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException("a percentile is from 0 to 100, not " + p);
        }
        // p·n first, then one division: exact for a whole p, where p / 100.0 · n can land just above
        // a whole rank (7 / 100.0 · 100 is 7.000000000000001) and take the next value.
        return Math.max(1, (int) Math.ceil(p * n / 100.0));
    }

    /** The {@code p}-th percentile of {@code sorted} (ascending). */
    public static long percentile(long[] sorted, double p) {
        return sorted[rank(p, sorted.length) - 1];
    }

    /** The {@code p}-th percentile of {@code sorted} (ascending). */
    public static double percentile(double[] sorted, double p) {
        return sorted[rank(p, sorted.length) - 1];
    }
}
