package dev.ratecache.suite.jmeter;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * What a JTL (JMeter's CSV results, with a header line) says about a run. Rejections by a rate
 * limiter (429, 503) are counted apart from every other failure.
 *
 * @param samples       every sample
 * @param rejected      samples answered 429 or 503
 * @param otherErrors   failed samples that were not rejections
 * @param clientCacheHits samples JMeter's HTTP Cache Manager answered itself (responseMessage "(ex cache)",
 *                      with cache_manager.cached_resource_mode=RETURN_200_CACHE)
 * @param throughput    samples per second, first sample's start to last sample's end (as JMeter computes it)
 */
public record JtlSummary(long samples, long rejected, long otherErrors, long clientCacheHits, double throughput,
        double meanMs, long minMs, long maxMs, long p50Ms, long p90Ms, long p95Ms, long p99Ms, long wallMs) {

    /** The responseMessage JMeter gives a client-cache hit (jmeter/suite.properties sets it). */
    public static final String CLIENT_CACHE_HIT = "(ex cache)";

    public static JtlSummary read(Path jtl) throws IOException {
        if (!Files.isRegularFile(jtl)) {
            throw new IOException("JMeter wrote no results file (" + jtl + ")");
        }
        long samples = 0;
        long rejected = 0;
        long otherErrors = 0;
        long clientCacheHits = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long[] elapsed = new long[1024];
        try (Reader in = Files.newBufferedReader(jtl, StandardCharsets.UTF_8)) {
            for (CSVRecord r : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
                long start = Long.parseLong(r.get("timeStamp"));
                long took = Long.parseLong(r.get("elapsed"));
                if (samples == elapsed.length) {
                    elapsed = Arrays.copyOf(elapsed, elapsed.length * 2);
                }
                elapsed[(int) samples++] = took;
                first = Math.min(first, start);
                last = Math.max(last, start + took);
                if (r.get("responseMessage").contains(CLIENT_CACHE_HIT)) {
                    clientCacheHits++;
                }
                String code = r.get("responseCode");
                if (isRejection(code)) {
                    rejected++;
                } else if (!Boolean.parseBoolean(r.get("success"))) {
                    otherErrors++;
                }
            }
        }
        if (samples == 0) {
            return new JtlSummary(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        long[] sorted = Arrays.copyOf(elapsed, (int) samples);
        Arrays.sort(sorted);
        long wall = Math.max(1, last - first);
        return new JtlSummary(samples, rejected, otherErrors, clientCacheHits, samples * 1000.0 / wall,
                Arrays.stream(sorted).average().orElse(0), sorted[0], sorted[sorted.length - 1],
                percentile(sorted, 50), percentile(sorted, 90), percentile(sorted, 95), percentile(sorted, 99), wall);
    }

    public static boolean isRejection(String responseCode) {
        return "429".equals(responseCode) || "503".equals(responseCode);
    }

    /** Nearest-rank percentile: always a latency that was really measured. */
    static long percentile(long[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
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
        return String.format(java.util.Locale.ROOT,
                "samples %d, throughput %.1f responses/s, errors %.1f %% (rejected %.1f %%, other %.1f %%)%n"
                        + "latency ms: mean %.0f, min %d, max %d, p50 %d, p90 %d, p95 %d, p99 %d%n"
                        + "wall time %.1f s",
                samples, throughput, errorPct(), rejectedPct(), otherErrorsPct(),
                meanMs, minMs, maxMs, p50Ms, p90Ms, p95Ms, p99Ms, wallMs / 1000.0);
    }
}
