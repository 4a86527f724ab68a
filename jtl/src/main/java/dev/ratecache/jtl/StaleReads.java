package dev.ratecache.jtl;

import dev.ratecache.stats.NearestRank;
import java.util.List;
import java.util.Locale;

/**
 * How many reads of the hot-set plan (jmeter/plans/hotset.jmx) returned an item older than a write
 * already acknowledged when they started, and how old: the samples with a {@link Sample#staleMs()}.
 * Ages are nearest-rank percentiles, as {@link JtlSummary}'s latencies.
 *
 * @param reads   answered reads: successful samples labelled {@value #READ_LABEL_PREFIX}..., client-cache
 *                hits and 304s included (they read the copy the client holds)
 * @param stale   reads found stale
 * @param p50Ms   median age of the stale reads (0 when none)
 * @param oldestMs the largest age: the longest a read lagged behind an acknowledged write
 */
public record StaleReads(long reads, long stale, long p50Ms, long p99Ms, long oldestMs) {

    /** The label prefix of a read in hotset.jmx ({@code GET /items/{id}}). */
    public static final String READ_LABEL_PREFIX = "GET ";

    public static StaleReads of(List<Sample> samples) {
        long reads = samples.stream().filter(s -> s.success() && s.label().startsWith(READ_LABEL_PREFIX)).count();
        long[] ages = samples.stream().filter(Sample::stale).mapToLong(Sample::staleMs).sorted().toArray();
        if (ages.length == 0) {
            return new StaleReads(reads, 0, 0, 0, 0);
        }
        return new StaleReads(reads, ages.length, NearestRank.percentile(ages, 50), NearestRank.percentile(ages, 99),
                ages[ages.length - 1]);
    }

    /** Stale reads as a share of the answered reads, in percent. */
    public double stalePct() {
        return reads == 0 ? 0 : 100.0 * stale / reads;
    }

    /** One line for the terminal. */
    public String describe() {
        return String.format(Locale.ROOT, "stale reads: %d of %d reads (%.2f %%), age ms p50 %d, p99 %d, oldest %d",
                stale, reads, stalePct(), p50Ms, p99Ms, oldestMs);
    }
}
