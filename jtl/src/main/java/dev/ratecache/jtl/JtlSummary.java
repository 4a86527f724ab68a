package dev.ratecache.jtl;

import dev.ratecache.stats.NearestRank;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What a JTL says about a run: the one place the suite counts samples and computes throughput and
 * latency percentiles, whichever load generator wrote the file. Rejections by a rate limiter (429,
 * 503) are counted apart from every other failure.
 *
 * @param samples         every sample
 * @param rejected        samples answered 429 or 503
 * @param otherErrors     failed samples that were not rejections
 * @param clientCacheHits samples a client-side cache answered itself (responseMessage {@value #CLIENT_CACHE_HIT})
 * @param throughput      samples per second, first sample's start to last sample's end (as JMeter computes it)
 */
public record JtlSummary(long samples, long rejected, long otherErrors, long clientCacheHits, double throughput,
        double meanMs, long minMs, long maxMs, long p50Ms, long p90Ms, long p95Ms, long p99Ms, long wallMs) {

    /**
     * The responseMessage of a client-cache hit: JMeter's HTTP Cache Manager writes it with
     * cache_manager.cached_resource_mode=RETURN_200_CACHE (jmeter/suite.properties), the client
     * library's driver for a fresh hit in its cache.
     */
    public static final String CLIENT_CACHE_HIT = "(ex cache)";

    public static JtlSummary read(Path jtl) throws IOException {
        return of(Jtl.read(jtl));
    }

    public static JtlSummary of(List<Sample> all) {
        if (all.isEmpty()) {
            return new JtlSummary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        long rejected = 0;
        long otherErrors = 0;
        long clientCacheHits = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long[] sorted = new long[all.size()];
        for (int i = 0; i < sorted.length; i++) {
            Sample s = all.get(i);
            sorted[i] = s.elapsed();
            first = Math.min(first, s.timeStamp());
            last = Math.max(last, s.end());
            if (s.clientCacheHit()) {
                clientCacheHits++;
            }
            if (s.rejected()) {
                rejected++;
            } else if (!s.success()) {
                otherErrors++;
            }
        }
        java.util.Arrays.sort(sorted);
        long wall = Math.max(1, last - first);
        return new JtlSummary(sorted.length, rejected, otherErrors, clientCacheHits, sorted.length * 1000.0 / wall,
                java.util.Arrays.stream(sorted).average().orElse(0), sorted[0], sorted[sorted.length - 1],
                NearestRank.percentile(sorted, 50), NearestRank.percentile(sorted, 90),
                NearestRank.percentile(sorted, 95), NearestRank.percentile(sorted, 99), wall);
    }

    public static boolean isRejection(String responseCode) {
        return "429".equals(responseCode) || "503".equals(responseCode);
    }

    public double rejectedPct() {
        return samples == 0 ? 0 : 100.0 * rejected / samples;
    }

    public double otherErrorsPct() {
        return samples == 0 ? 0 : 100.0 * otherErrors / samples;
    }

    public double errorPct() {
        return samples == 0 ? 0 : 100.0 * (rejected + otherErrors) / samples;
    }

    /** Three lines for the terminal. */
    public String describe() {
        return String.format(Locale.ROOT,
                "samples %d, throughput %.1f responses/s, errors %.1f %% (rejected %.1f %%, other %.1f %%)%n"
                        + "latency ms: mean %.0f, min %d, max %d, p50 %d, p90 %d, p95 %d, p99 %d%n"
                        + "wall time %.1f s",
                samples, throughput, errorPct(), rejectedPct(), otherErrorsPct(),
                meanMs, minMs, maxMs, p50Ms, p90Ms, p95Ms, p99Ms, wallMs / 1000.0);
    }
}
