package dev.ratecache.client.driver;

import dev.ratecache.client.ClientStats;
import dev.ratecache.client.RetryPolicy;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/** The figures of a run: samples, errors, throughput, latency percentiles and the library's statistics. */
final class Summary {
    /** The status recorded for a request that ended in an I/O error. */
    static final int IO_ERROR = -1;

    final long samples;
    final long rejected;
    final long otherErrors;
    final double throughputPerSec;
    final double meanMs;
    final double minMs;
    final double maxMs;
    final double p50Ms;
    final double p90Ms;
    final double p95Ms;
    final double p99Ms;
    final long wallMs;
    final ClientStats library;

    private Summary(long samples, long rejected, long otherErrors, double throughputPerSec, double meanMs, double minMs,
            double maxMs, double p50Ms, double p90Ms, double p95Ms, double p99Ms, long wallMs, ClientStats library) {
        this.samples = samples;
        this.rejected = rejected;
        this.otherErrors = otherErrors;
        this.throughputPerSec = throughputPerSec;
        this.meanMs = meanMs;
        this.minMs = minMs;
        this.maxMs = maxMs;
        this.p50Ms = p50Ms;
        this.p90Ms = p90Ms;
        this.p95Ms = p95Ms;
        this.p99Ms = p99Ms;
        this.wallMs = wallMs;
        this.library = library;
    }

    static Summary of(long[][] latencies, int[][] statuses, long wallNanos, RetryPolicy policy, ClientStats library) {
        long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        long rejected = 0;
        long otherErrors = 0;
        for (int[] user : statuses) {
            for (int s : user) {
                if (policy.isRejection(s)) {
                    rejected++;
                } else if (s == IO_ERROR || s >= 400) {
                    otherErrors++;
                }
            }
        }
        int n = all.length;
        double mean = n == 0 ? 0 : Arrays.stream(all).average().orElse(0) / 1e6;
        return new Summary(n, rejected, otherErrors, n / Math.max(wallNanos / 1e9, 1e-9), mean,
                n == 0 ? 0 : all[0] / 1e6, n == 0 ? 0 : all[n - 1] / 1e6,
                percentile(all, 50), percentile(all, 90), percentile(all, 95), percentile(all, 99),
                wallNanos / 1_000_000, library);
    }

    /** Nearest-rank percentile of sorted nanoseconds, in milliseconds. */
    static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)] / 1e6;
    }

    String text(String description) {
        ClientStats s = library;
        return String.format(Locale.ROOT,
                "client-driver: %s%n"
                        + "samples %d, rejected %d (%.2f%%), other errors %d, %.1f/s over %.1f s%n"
                        + "latency ms: mean %.2f, min %.2f, p50 %.2f, p90 %.2f, p95 %.2f, p99 %.2f, max %.2f%n"
                        + "library: requests %d, network %d, hits %d, validations %d, stale %d, misses %d, failures %d%n"
                        + "         retries %s, waited %.1f s for Retry-After/backoff, throttled %.1f s, ended rejected %d%n",
                description, samples, rejected, samples == 0 ? 0.0 : 100.0 * rejected / samples, otherErrors,
                throughputPerSec, wallMs / 1000.0, meanMs, minMs, p50Ms, p90Ms, p95Ms, p99Ms, maxMs,
                s.requestCount(), s.networkCount(), s.hitCount(), s.validationCount(), s.staleCount(), s.missCount(),
                s.failureCount(), s.retriesByStatus().isEmpty() ? "none" : s.retriesByStatus().toString(),
                s.retryWait().toMillis() / 1000.0, s.throttleWait().toMillis() / 1000.0, s.rejectedCount());
    }

    /** The JSON document that --json writes: these figures, the library's statistics and the run's settings. */
    Json json(LoadDriver.Config config) {
        ClientStats s = library;
        return new Json(samples, rejected, otherErrors, round(throughputPerSec), round(meanMs), round(minMs),
                round(maxMs), round(p50Ms), round(p90Ms), round(p95Ms), round(p99Ms), wallMs,
                new Json.Library(s.requestCount(), s.networkCount(), s.hitCount(), s.validationCount(), s.staleCount(),
                        s.missCount(), s.failureCount(), s.retryCount(), s.retriesByStatus(),
                        s.retryWait().toMillis(), s.throttleWait().toMillis(), s.rejectedCount()),
                config);
    }

    record Json(long samples, long rejected, long otherErrors, double throughputPerSec, double meanMs, double minMs,
            double maxMs, double p50Ms, double p90Ms, double p95Ms, double p99Ms, long wallMs, Library library,
            LoadDriver.Config config) {
        record Library(long requests, long networkRequests, long hits, long validations, long staleServed,
                long misses, long failures, long retries, Map<Integer, Long> retriesByStatus, long retryWaitMs,
                long throttleWaitMs, long rejected) {}
    }

    // Microseconds are below what a run can resolve; three decimals keep the file readable.
    private static double round(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }
}
