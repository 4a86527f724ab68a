package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Sample;
import dev.ratecache.stats.NearestRank;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A keys cell's samples by tier and by key, read from keys.jmx's labels ({@code TIER/KEY}): what each
 * tier got, what the well-behaved keys lost while one key flooded, and how evenly a tier's keys were
 * served. Computed once by the runner and carried on {@link CellMeasurement}, so that the report
 * reads no file.
 *
 * @param tiers                   per tier, in the order the samples first name them
 * @param noisyKey                the key that flooded; null in a cell without one
 * @param wellBehavedRejectedPct  rejected share of every key but the noisy one (the noisy-neighbour
 *                                figure when {@code noisyKey} is set)
 * @param noisyRejectedPct        rejected share of the noisy key; null without one
 * @param windowSeconds           the samples' window (first start to last end), the denominator of every rate
 * @param seconds                 per tier, admitted and rejected requests second by second (by their start)
 */
public record TierFigures(List<Tier> tiers, String noisyKey, double wellBehavedRejectedPct, Double noisyRejectedPct,
        double windowSeconds, Map<String, Series> seconds) implements CellTrait.Figure {

    /**
     * One tier's figures.
     *
     * @param jain Jain's fairness index of the admitted rates of the tier's well-behaved keys,
     *             (Σx)² / (n·Σx²): 1 when each got the same, 1/n when one got everything; null with fewer
     *             than two such keys. The noisy key is left out: it asked for ten times more, so an
     *             unequal share for it is the limit working, not unfairness.
     */
    public record Tier(String name, int keys, long sent, long admitted, long rejected, double admittedPerSecond,
            double rejectedPct, Double p95AdmittedMs, Double jain, List<Key> perKey) {}

    /** One key's figures; {@code noisy} for the flooding key. */
    public record Key(String key, boolean noisy, long sent, long admitted, long rejected, double admittedPerSecond,
            double rejectedPct) {}

    /** A tier's admitted and rejected requests in each second from the cell's first request. */
    public record Series(List<Long> admitted, List<Long> rejected) {}

    /** The tier of a keys.jmx label: before its first slash; a label without one is its own tier. */
    static String tierOf(String label) {
        int slash = label.indexOf('/');
        return slash < 0 ? label : label.substring(0, slash);
    }

    /** The key of a keys.jmx label: after its first slash; empty for a label without one. */
    public static String keyOf(String label) {
        int slash = label.indexOf('/');
        return slash < 0 ? "" : label.substring(slash + 1);
    }

    /** Admitted: answered, not by a limit (as {@link ClientSamples#admitted()}); rejected: a 429 or 503 of a limit. */
    private static boolean admitted(Sample s) {
        return s.success() && !s.rejected();
    }

    /** The figures of {@code samples}; null when there are none. */
    public static TierFigures of(List<Sample> samples, String noisyKey) {
        if (samples.isEmpty()) {
            return null;
        }
        long first = samples.stream().mapToLong(Sample::timeStamp).min().orElseThrow();
        long last = samples.stream().mapToLong(s -> s.timeStamp() + s.elapsed()).max().orElseThrow();
        double window = Math.max((last - first) / 1000.0, 0.001);
        int secondsLong = (int) ((last - first) / 1000) + 1;

        Map<String, Map<String, List<Sample>>> byTier = new LinkedHashMap<>();
        for (Sample s : samples) {
            byTier.computeIfAbsent(tierOf(s.label()), t -> new TreeMap<>())
                    .computeIfAbsent(keyOf(s.label()), k -> new ArrayList<>()).add(s);
        }
        List<Tier> tiers = new ArrayList<>();
        Map<String, Series> seconds = new LinkedHashMap<>();
        long wellSent = 0;
        long wellRejected = 0;
        Double noisyRejectedPct = null;
        for (var tier : byTier.entrySet()) {
            List<Key> keys = new ArrayList<>();
            List<Double> wellRates = new ArrayList<>();
            List<Long> admittedMs = new ArrayList<>();
            long[] admittedPerSecond = new long[secondsLong];
            long[] rejectedPerSecond = new long[secondsLong];
            long sent = 0;
            long admitted = 0;
            long rejected = 0;
            for (var key : tier.getValue().entrySet()) {
                long kAdmitted = 0;
                long kRejected = 0;
                for (Sample s : key.getValue()) {
                    int second = (int) ((s.timeStamp() - first) / 1000);
                    if (admitted(s)) {
                        kAdmitted++;
                        admittedMs.add(s.elapsed());
                        admittedPerSecond[second]++;
                    } else if (s.rejected()) {
                        kRejected++;
                        rejectedPerSecond[second]++;
                    }
                }
                long kSent = key.getValue().size();
                boolean noisy = key.getKey().equals(noisyKey);
                double rate = kAdmitted / window;
                keys.add(new Key(key.getKey(), noisy, kSent, kAdmitted, kRejected, rate, pct(kRejected, kSent)));
                if (noisy) {
                    noisyRejectedPct = pct(kRejected, kSent);
                } else {
                    wellRates.add(rate);
                    wellSent += kSent;
                    wellRejected += kRejected;
                }
                sent += kSent;
                admitted += kAdmitted;
                rejected += kRejected;
            }
            tiers.add(new Tier(tier.getKey(), keys.size(), sent, admitted, rejected, admitted / window,
                    pct(rejected, sent), p95(admittedMs), wellRates.size() < 2 ? null : jain(wellRates), keys));
            seconds.put(tier.getKey(), new Series(list(admittedPerSecond), list(rejectedPerSecond)));
        }
        return new TierFigures(tiers, noisyKey, pct(wellRejected, wellSent), noisyRejectedPct, window, seconds);
    }

    /**
     * Jain's fairness index, (Σx)² / (n·Σx²): 1 when every x is equal, down to 1/n when one x has it
     * all. Every x zero is equal shares of nothing: 1.
     */
    public static double jain(List<Double> x) {
        if (x.isEmpty()) {
            throw new IllegalArgumentException("Jain's index of no values");
        }
        double sum = 0;
        double squares = 0;
        for (double v : x) {
            if (v < 0) {
                throw new IllegalArgumentException("a rate is never negative: " + v);
            }
            sum += v;
            squares += v * v;
        }
        return squares == 0 ? 1.0 : sum * sum / (x.size() * squares);
    }

    /** One line per cell for the terminal: each tier's admitted/s and rejected %, and the noisy-neighbour figure. */
    @Override
    public String terminalLine() {
        TierFigures f = this;
        StringBuilder b = new StringBuilder("tiers:");
        for (Tier t : f.tiers()) {
            b.append(String.format(java.util.Locale.ROOT, " %s %.1f admitted/s, rejected %.1f %%;", t.name(),
                    t.admittedPerSecond(), t.rejectedPct()));
        }
        b.append(String.format(java.util.Locale.ROOT, " well-behaved keys rejected %.1f %%", f.wellBehavedRejectedPct()));
        if (f.noisyRejectedPct() != null) {
            b.append(String.format(java.util.Locale.ROOT, ", noisy key %s rejected %.1f %%", f.noisyKey(),
                    f.noisyRejectedPct()));
        }
        return b.toString();
    }

    /** The tier of that name; null when no sample named it. */
    public Tier tier(String name) {
        return tiers.stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
    }

    private static Double p95(List<Long> ms) {
        if (ms.isEmpty()) {
            return null;
        }
        long[] sorted = ms.stream().mapToLong(Long::longValue).sorted().toArray();
        return (double) NearestRank.percentile(sorted, 95);
    }

    private static double pct(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    private static List<Long> list(long[] values) {
        List<Long> out = new ArrayList<>(values.length);
        for (long v : values) {
            out.add(v);
        }
        return out;
    }
}
