package dev.ratecache.jtl;

import dev.ratecache.stats.NearestRank;
import java.util.List;
import java.util.Locale;

/**
 * How far a replay kept to its schedule: the lateness of each sample that had a due time
 * ({@link Sample#lateness()}: its start minus its {@code scheduledAt}), as nearest-rank percentiles
 * computed like the latency percentiles of {@link JtlSummary}. A late start means the load
 * generator, not the server, fell behind: the requests after it are not delayed by it (open model),
 * but that one reached the server later than the log says.
 *
 * @param scheduled samples that had a due time; the other figures are 0 when there is none
 * @param earliestMs the smallest lateness (negative: a sample started before its due time)
 */
public record Lateness(long scheduled, long p50Ms, long p99Ms, long maxMs, long earliestMs) {

    public static Lateness of(List<Sample> samples) {
        long[] sorted = samples.stream().filter(Sample::scheduled).mapToLong(Sample::lateness).sorted().toArray();
        if (sorted.length == 0) {
            return new Lateness(0, 0, 0, 0, 0);
        }
        return new Lateness(sorted.length, NearestRank.percentile(sorted, 50), NearestRank.percentile(sorted, 99),
                sorted[sorted.length - 1], sorted[0]);
    }

    /** One line for the terminal. */
    public String describe() {
        return String.format(Locale.ROOT, "start lateness ms (%d scheduled samples): p50 %d, p99 %d, max %d, earliest %d",
                scheduled, p50Ms, p99Ms, maxMs, earliestMs);
    }
}
