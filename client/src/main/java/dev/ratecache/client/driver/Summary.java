package dev.ratecache.client.driver;

import dev.ratecache.client.ClientStats;
import dev.ratecache.jtl.JtlSummary;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of a run: the suite's own summary of its samples (the same counts, throughput and
 * percentiles a JMeter run gets) and the library's statistics.
 */
record Summary(JtlSummary jtl, ClientStats library) {

    String text(String description) {
        ClientStats s = library;
        return String.format(Locale.ROOT,
                "client-driver: %s%n"
                        + "samples %d, rejected %d (%.2f%%), other errors %d, %.1f/s over %.1f s%n"
                        + "latency ms: mean %.2f, min %d, p50 %d, p90 %d, p95 %d, p99 %d, max %d%n"
                        + "library: requests %d, network %d, hits %d, validations %d, stale while revalidating %d, stale if error %d,%n"
                        + "         misses %d, failures %d, background revalidations %d%n"
                        + "         retries %s, waited %.1f s for Retry-After/backoff, throttled %.1f s, ended rejected %d (quota exhausted %d)%n",
                description, jtl.samples(), jtl.rejected(), jtl.rejectedPct(), jtl.otherErrors(),
                jtl.throughput(), jtl.wallMs() / 1000.0, jtl.meanMs(), jtl.minMs(), jtl.p50Ms(), jtl.p90Ms(),
                jtl.p95Ms(), jtl.p99Ms(), jtl.maxMs(),
                s.requestCount(), s.networkCount(), s.hitCount(), s.validationCount(), s.staleWhileRevalidatingCount(),
                s.staleIfErrorCount(), s.missCount(), s.failureCount(), s.backgroundRevalidationCount(), s.retriesByStatus().isEmpty() ? "none" : s.retriesByStatus().toString(),
                s.retryWait().toMillis() / 1000.0, s.throttleWait().toMillis() / 1000.0, s.rejectedCount(), s.quotaRejectedCount());
    }

    /** The JSON document that --json writes: these figures, the library's statistics and the run's settings. */
    Json json(LoadDriver.Config config) {
        ClientStats s = library;
        return new Json(jtl.samples(), jtl.rejected(), jtl.otherErrors(), Math.round(jtl.throughput() * 1000) / 1000.0,
                Math.round(jtl.meanMs() * 1000) / 1000.0, jtl.minMs(), jtl.maxMs(), jtl.p50Ms(), jtl.p90Ms(),
                jtl.p95Ms(), jtl.p99Ms(), jtl.wallMs(),
                new Json.Library(s.requestCount(), s.networkCount(), s.hitCount(), s.validationCount(),
                        s.staleWhileRevalidatingCount(), s.staleIfErrorCount(), s.missCount(), s.failureCount(),
                        s.backgroundRevalidationCount(), s.retryCount(), s.retriesByStatus(),
                        s.retryWait().toMillis(), s.throttleWait().toMillis(), s.rejectedCount(), s.quotaRejectedCount()),
                config);
    }

    record Json(long samples, long rejected, long otherErrors, double throughputPerSec, double meanMs, long minMs,
            long maxMs, long p50Ms, long p90Ms, long p95Ms, long p99Ms, long wallMs, Library library,
            LoadDriver.Config config) {
        record Library(long requests, long networkRequests, long hits, long validations,
                long staleWhileRevalidating, long staleIfError, long misses, long failures,
                long backgroundRevalidations, long retries, Map<Integer, Long> retriesByStatus, long retryWaitMs,
                long throttleWaitMs, long rejected, long quotaRejected) {}
    }
}
