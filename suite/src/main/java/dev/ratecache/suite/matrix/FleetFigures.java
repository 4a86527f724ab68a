package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Sample;
import dev.ratecache.stats.BusiestWindow;
import dev.ratecache.suite.switches.LimitTier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A cell of --matrix fleet as the client saw it: what the heavy key was admitted in its busiest
 * second against its tier's rate plus burst (the effective per-client limit), and for every key the
 * window the promise is judged on. Computed once by the runner from the JTL (labels {@code TIER/KEY})
 * and the edges' logs, and carried on {@link CellMeasurement}.
 *
 * @param heavyKey          the key that sent at twice its tier's rate
 * @param limit             its tier's rate (per second) plus burst: the most the promise admits in one second
 * @param sent              the heavy key's requests
 * @param admitted          of those, answered and not rejected by a limit
 * @param admittedPerSecond admitted over the samples' window (first start to last end of the cell)
 * @param busiest           the most of its admitted requests that started in one second (a sliding window)
 * @param busiestStartMs    when that second started (epoch ms, the client's clock)
 * @param crowdRejectedPct  rejected share of every other key's requests: what the strategy costs the well-behaved
 * @param fallbacks         requests an edge counted with its own split limit because Redis failed or was
 *                          slow ("fleet":"FALLBACK" in the edges' logs); null unless the cell's limit is shared
 * @param windows           per key, the second the promise is judged on ({@link KeyWindow}), in label order
 */
public record FleetFigures(String heavyKey, int limit, long sent, long admitted, double admittedPerSecond, int busiest,
        long busiestStartMs, double crowdRejectedPct, Long fallbacks, List<KeyWindow> windows) implements CellTrait.Figure {

    public FleetFigures {
        windows = List.copyOf(windows);
    }

    /**
     * One key's busiest second as the promise counts it. Admissions are timed by the client: a
     * request was admitted somewhere between its start and its end (at the edge, after the Redis
     * round trip under shared), so of the requests that started in a second only those that also
     * ended in it were surely admitted in it. Those that ended after it (within a round trip of its
     * end) may have been admitted in the next second: they are the tolerance, counted apart.
     *
     * @param inside     admitted requests wholly inside the second: what the promise is checked on
     * @param straddling admitted requests that started in it and ended after it
     * @param startMs    the second's start (epoch ms, the client's clock)
     */
    public record KeyWindow(String key, String tier, int limit, int inside, int straddling, long startMs) {
        public boolean broken() {
            return inside > limit;
        }
    }

    /** The heavy key's admissions in its busiest second as a multiple of rate plus burst: 1 = the promise. */
    public double effectiveLimit() {
        return (double) busiest / limit;
    }

    /** The key whose second came closest to its limit (or went furthest past it): the one a check names. */
    public KeyWindow worst() {
        return windows.stream().max(Comparator.comparingDouble(w -> (double) w.inside() / w.limit())).orElse(null);
    }

    /** The figures of a fleet cell's samples; null when the heavy key sent nothing. */
    public static FleetFigures of(List<Sample> samples, KeyedTraffic keys, Long fallbacks) {
        Map<String, List<Sample>> byKey = new LinkedHashMap<>();
        for (Sample s : samples) {
            byKey.computeIfAbsent(TierFigures.keyOf(s.label()), k -> new ArrayList<>()).add(s);
        }
        List<Sample> heavy = byKey.get(keys.noisyKey());
        LimitTier heavyTier = keys.tierOf(keys.noisyKey());
        if (heavy == null || heavyTier == null) {
            return null;
        }
        List<KeyWindow> windows = new ArrayList<>();
        long crowdSent = 0;
        long crowdRejected = 0;
        for (var e : byKey.entrySet()) {
            LimitTier tier = keys.tierOf(e.getKey());
            if (tier != null) {
                windows.add(window(e.getKey(), tier, admitted(e.getValue())));
            }
            if (!e.getKey().equals(keys.noisyKey())) {
                crowdSent += e.getValue().size();
                crowdRejected += e.getValue().stream().filter(Sample::rejected).count();
            }
        }
        List<Sample> heavyAdmitted = admitted(heavy);
        BusiestWindow busiest = BusiestWindow.in(heavyAdmitted.stream().mapToLong(Sample::timeStamp).toArray(), 1000);
        long first = samples.stream().mapToLong(Sample::timeStamp).min().orElseThrow();
        long last = samples.stream().mapToLong(s -> s.timeStamp() + s.elapsed()).max().orElseThrow();
        double seconds = Math.max((last - first) / 1000.0, 0.001);
        return new FleetFigures(keys.noisyKey(), heavyTier.rate() + heavyTier.burst(), heavy.size(),
                heavyAdmitted.size(), heavyAdmitted.size() / seconds, busiest.count(), busiest.start(),
                crowdSent == 0 ? 0 : 100.0 * crowdRejected / crowdSent, fallbacks, windows);
    }

    /** Answered, not by a limit (as {@link ClientSamples#admitted()}), by start time. */
    private static List<Sample> admitted(List<Sample> samples) {
        return samples.stream().filter(s -> s.success() && !s.rejected())
                .sorted(Comparator.comparingLong(Sample::timeStamp)).toList();
    }

    /**
     * The key's second with the most admitted requests wholly inside it. A second that holds the most
     * starts at one of them: sliding it later up to the next start loses none and may gain some.
     */
    static KeyWindow window(String key, LimitTier tier, List<Sample> admitted) {
        int limit = tier.rate() + tier.burst();
        KeyWindow best = new KeyWindow(key, tier.name(), limit, 0, 0, 0);
        for (int i = 0; i < admitted.size(); i++) {
            long start = admitted.get(i).timeStamp();
            int inside = 0;
            int straddling = 0;
            for (int j = i; j < admitted.size() && admitted.get(j).timeStamp() < start + 1000; j++) {
                Sample s = admitted.get(j);
                if (s.timeStamp() + s.elapsed() < start + 1000) {
                    inside++;
                } else {
                    straddling++;
                }
            }
            if (inside > best.inside()) {
                best = new KeyWindow(key, tier.name(), limit, inside, straddling, start);
            }
        }
        return best;
    }

    /**
     * What the figure means for the user, in one sentence, e.g. "Behind 3 edges in round robin
     * (per-edge), key free-noisy got 1.7x its limit (40 admitted in its busiest second against rate +
     * burst 24)".
     */
    public String meaning(Cell cell) {
        Cell.Fleet fleet = cell.trait(Cell.Fleet.class);
        String where = fleet == null ? "here" : "behind " + fleet.edges() + " edges "
                + switch (fleet.strategy()) {
                    case CLIENT_HASH -> "with each client hashed to one";
                    default -> cell.edgeBalance() == dev.ratecache.suite.spec.EdgeBalance.URI_HASH
                            ? "sharded by URI" : "in round robin";
                } + " (" + fleet.strategy() + ")";
        double x = effectiveLimit();
        String verdict = x > 1.05 ? String.format(Locale.ROOT, "%.1fx its limit", x)
                : x < 0.9 ? String.format(Locale.ROOT, "only %.1fx its limit: under-admitted", x)
                : String.format(Locale.ROOT, "%.1fx its limit: the promise held", x);
        return String.format(Locale.ROOT, "%s, key %s got %s (%d admitted in its busiest second against rate + burst %d)",
                capitalised(where), heavyKey, verdict, busiest, limit);
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** One line for the terminal after the cell. */
    @Override
    public String terminalLine() {
        return String.format(Locale.ROOT, "fleet: key %s effective limit %.2fx (busiest second %d of %d), admitted"
                + " %.1f/s, other keys rejected %.1f %%%s", heavyKey, effectiveLimit(), busiest, limit,
                admittedPerSecond, crowdRejectedPct, fallbacks == null ? "" : ", Redis fallbacks " + fallbacks);
    }
}
