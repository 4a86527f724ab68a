package dev.ratecache.suite.compare;

import java.util.List;

/**
 * The figures compare judges, by their id in summary.json: each with the direction that is better,
 * where its noise is measured, and the least change that counts.
 *
 * @param absoluteFloor a change this small (in the metric's unit) is never better or worse: a JTL's
 *                      times are whole milliseconds, and a share moves by a sample or two
 * @param relativeFloor a change smaller than this share of A is never better or worse: the interval
 *                      measures the noise within a run (its samples, its repeats), and two runs of one
 *                      config on a 2-core machine drift apart by a little more. Both floors are that
 *                      drift as two runs of the default config measured it (docs/compare.md, "Its own
 *                      error rates, measured")
 */
public enum CompareMetric {
    THROUGHPUT("throughput", "responses/s", Better.HIGHER, Source.PER_SECOND_RATE, 0, 0.03),
    REJECTED_PCT("rejected_pct", "%", Better.LOWER, Source.SAMPLES, 0.5, 0.02),
    OTHER_ERRORS_PCT("other_errors_pct", "%", Better.LOWER, Source.SAMPLES, 0.5, 0.02),
    ORIGIN_REQUESTS("origin_requests", "count", Better.LOWER, Source.PER_SECOND_COUNT, 2, 0.02),
    MEAN_MS("mean_ms", "ms", Better.LOWER, Source.SAMPLES, 10, 0.10),
    P50_MS("p50_ms", "ms", Better.LOWER, Source.SAMPLES, 10, 0.10),
    P90_MS("p90_ms", "ms", Better.LOWER, Source.SAMPLES, 10, 0.10),
    P95_MS("p95_ms", "ms", Better.LOWER, Source.SAMPLES, 10, 0.10),
    P99_MS("p99_ms", "ms", Better.LOWER, Source.SAMPLES, 10, 0.10);

    /** Which way is better: more throughput; fewer rejections, errors, origin requests and milliseconds. */
    public enum Better { HIGHER, LOWER }

    /** Where the metric's noise comes from. */
    enum Source {
        /** Each sample of the JTLs, resampled (the bootstrap). */
        SAMPLES,
        /** The per-second series of responses, resampled by second; the mean is the rate. */
        PER_SECOND_RATE,
        /** The per-second series of origin requests, resampled by second; the sum is the count. */
        PER_SECOND_COUNT
    }

    private final String id;
    private final String unit;
    private final Better better;
    private final Source source;
    private final double absoluteFloor;
    private final double relativeFloor;

    CompareMetric(String id, String unit, Better better, Source source, double absoluteFloor, double relativeFloor) {
        this.id = id;
        this.unit = unit;
        this.better = better;
        this.source = source;
        this.absoluteFloor = absoluteFloor;
        this.relativeFloor = relativeFloor;
    }

    public String id() {
        return id;
    }

    public String unit() {
        return unit;
    }

    public Better better() {
        return better;
    }

    Source source() {
        return source;
    }

    /** The least change of {@code a} that counts: the larger of the absolute and the relative floor. */
    double floor(double a) {
        return Math.max(absoluteFloor, relativeFloor * Math.abs(a));
    }

    /** A change smaller than this share of A is the same, even outside the interval. */
    public double relativeFloor() {
        return relativeFloor;
    }

    /** A change this small, in the metric's unit, is the same, even outside the interval. */
    public double absoluteFloor() {
        return absoluteFloor;
    }

    /** The latency percentiles, in the order of {@link #percentile}. */
    static final List<CompareMetric> PERCENTILES = List.of(P50_MS, P90_MS, P95_MS, P99_MS);

    /** The percentile a latency metric is, or 0 for one that is not a percentile. */
    double percentile() {
        return switch (this) {
            case P50_MS -> 50;
            case P90_MS -> 90;
            case P95_MS -> 95;
            case P99_MS -> 99;
            default -> 0;
        };
    }
}
