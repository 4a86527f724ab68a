package dev.ratecache.suite.advise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.stats.BusiestWindow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code advise LOG --sizing}: the cores each tier needs for the log's busiest minute, from the
 * service demands {@code peak --demands} measured (this machine's, or the user's own demands.json).
 * By the utilisation law (U = X·D, Denning and Buzen 1978), a tier serving X requests a second that
 * each cost it D seconds of CPU keeps X·D cores busy; sized for {@link #TARGET_UTILISATION} of them, so
 * that queues stay short (at 70 % an M/M/1 queue holds 2.3 requests on average; at 90 %, 9). A
 * request's demand is the mix of its classes at the minute's hit ratio by path: a HIT costs the
 * front alone, a MISS all three. Two cases stand beside it: the cache off (every request a MISS), and
 * a flood at 10x the minute's rate from one key, of which the front admits the advised per-client rate
 * and refuses the rest. The load generator's share of the demands is left out: the user's clients
 * run elsewhere.
 */
public final class EdgeSizing {

    /** The utilisation each tier is sized for. */
    public static final double TARGET_UTILISATION = 0.70;

    /** The flood case: this many times the busiest minute's rate, from one key. */
    public static final int FLOOD_FACTOR = 10;

    /** The tiers sized, as demands.json names them. */
    public static final List<String> TIERS = List.of("front", "back", "origin");

    /** A demands.json read: whose tiers, on what machine, and per class each tier's CPU microseconds a request. */
    public record Demands(String product, String machine, String measured, Map<String, Map<String, Double>> byClass) {
        public boolean hasCache() {
            return byClass.containsKey("hit");
        }

        double micros(String requestClass, String tier) {
            return byClass.getOrDefault(requestClass, Map.of()).getOrDefault(tier, 0.0);
        }
    }

    /** Reads demands.json; an IOException says in one line what is wrong with it. */
    public static Demands read(Path file) throws IOException {
        JsonNode json;
        try {
            json = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException(file + " is not a demands.json (./run-tests.sh peak --demands writes one): "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        JsonNode classes = json == null ? null : json.get("classes");
        if (classes == null || !classes.has("miss") || !classes.has("rejection")) {
            throw new IOException(file + " has no demands of the miss and rejection classes: write it with"
                    + " ./run-tests.sh peak --demands");
        }
        Map<String, Map<String, Double>> byClass = new LinkedHashMap<>();
        for (var c : (Iterable<Map.Entry<String, JsonNode>>) classes::fields) {
            Map<String, Double> tiers = new LinkedHashMap<>();
            for (String tier : TIERS) {
                JsonNode median = c.getValue().path("demands").path(tier).path("median");
                if (!median.isNumber() || median.asDouble() < 0) {
                    throw new IOException(file + ": class " + c.getKey() + " has no median demand for " + tier);
                }
                tiers.put(tier, median.asDouble());
            }
            byClass.put(c.getKey(), tiers);
        }
        JsonNode m = json.path("machine");
        String machine = m.path("cpus").asText("?") + " CPUs (" + m.path("cpu_model").asText("unknown") + ")";
        return new Demands(json.path("product").asText("nginx"), machine, json.path("measured").asText("?"), byClass);
    }

    /** One tier in one case: its CPU per request of the case's mix, the cores it keeps busy, and the cores to give it. */
    public record TierLoad(String tier, double micros, double busyCores, int cores) {}

    /**
     * One case: its arrival rate, its mix, each tier's load, and which tier saturates first on the
     * cores the busiest minute is sized for, and at what rate of this case's mix.
     */
    public record Case(String name, double perSec, String mix, List<TierLoad> tiers, String saturatesFirst,
            double saturatesAtPerSec) {}

    /** The minute sized, its hit ratio, and the three cases. */
    public record Sizing(long minuteStartMs, long minuteRequests, double hitRatio, Demands demands, List<Case> cases) {
        public Case busiest() {
            return cases.get(0);
        }
    }

    private EdgeSizing() {
    }

    /**
     * Sizes the tiers for {@code log}'s busiest minute: its requests' paths at the hit ratios the
     * advice found for them (a path without advice counts as misses), with {@code admitPerSec} the
     * per-client rate the front admits of a flooding key.
     */
    public static Sizing size(List<LoggedRequest> log, List<Advisor.PathAdvice> paths, int admitPerSec,
            Demands demands) {
        long[] times = log.stream().mapToLong(r -> r.time().toInstant().toEpochMilli()).sorted().toArray();
        BusiestWindow minute = BusiestWindow.in(times, 60_000);
        Map<String, Double> hitPct = new HashMap<>();
        for (Advisor.PathAdvice p : paths) {
            p.candidates().stream().filter(c -> c.seconds() == p.recommended()).findFirst()
                    .ifPresent(c -> hitPct.put(p.path(), c.hitPct()));
        }
        double hits = 0;
        long inMinute = 0;
        for (LoggedRequest r : log) {
            long t = r.time().toInstant().toEpochMilli();
            if (t >= minute.start() && t < minute.start() + 60_000) {
                inMinute++;
                hits += demands.hasCache() ? hitPct.getOrDefault(r.path(), 0.0) / 100 : 0;
            }
        }
        double hitRatio = inMinute == 0 ? 0 : hits / inMinute;
        double perSec = inMinute / 60.0;
        List<Case> cases = new ArrayList<>();
        Map<String, Double> mix = mix(demands, hitRatio, 0);
        List<TierLoad> sized = loads(mix, perSec, null);
        cases.add(with("the busiest minute", perSec, String.format(Locale.ROOT, "%.0f %% HIT", hitRatio * 100), sized));
        cases.add(with("the cache off", perSec, "every request a MISS", loads(mix(demands, 0, 0), perSec, sized)));
        double flood = perSec * FLOOD_FACTOR;
        double refused = Math.max(0, flood - admitPerSec) / (perSec + flood);
        cases.add(with("a flood at " + FLOOD_FACTOR + "x from one key", perSec + flood, String.format(Locale.ROOT,
                "%.0f %% refused (the key admitted at %d r/s), the rest as the busiest minute", refused * 100,
                admitPerSec), loads(mix(demands, hitRatio, refused), perSec + flood, sized)));
        return new Sizing(minute.start(), inMinute, hitRatio, demands, cases);
    }

    /** Each tier's CPU microseconds per request: {@code refused} of the requests rejections, the rest HITs at {@code hitRatio} and MISSes. */
    static Map<String, Double> mix(Demands d, double hitRatio, double refused) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String tier : TIERS) {
            double served = hitRatio * d.micros("hit", tier) + (1 - hitRatio) * d.micros("miss", tier);
            out.put(tier, refused * d.micros("rejection", tier) + (1 - refused) * served);
        }
        return out;
    }

    /**
     * Each tier at {@code perSec} of the mix: the cores it keeps busy, and the cores to give it, sized
     * here at {@link #TARGET_UTILISATION} or, for a case set beside the busiest minute, those {@code sized}.
     */
    static List<TierLoad> loads(Map<String, Double> mix, double perSec, List<TierLoad> sized) {
        List<TierLoad> out = new ArrayList<>();
        for (int i = 0; i < TIERS.size(); i++) {
            String tier = TIERS.get(i);
            double busy = perSec * mix.get(tier) / 1e6;
            int cores = sized != null ? sized.get(i).cores() : Math.max(1, (int) Math.ceil(busy / TARGET_UTILISATION));
            out.add(new TierLoad(tier, mix.get(tier), busy, cores));
        }
        return out;
    }

    /** The case with its first tier to saturate: the least cores / demand over the tiers. */
    private static Case with(String name, double perSec, String mix, List<TierLoad> tiers) {
        TierLoad first = null;
        double at = Double.POSITIVE_INFINITY;
        for (TierLoad t : tiers) {
            double rate = t.micros() > 0 ? t.cores() / (t.micros() / 1e6) : Double.POSITIVE_INFINITY;
            if (rate < at) {
                at = rate;
                first = t;
            }
        }
        return new Case(name, perSec, mix, tiers, first == null ? "none" : first.tier(), at);
    }

    /** The sizing as the terminal and advice.md show it. */
    public static String text(Sizing s) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "sizing: the busiest minute (from %s) had %d requests, %.1f a second;"
                        + " HIT ratio %.0f %% by path at the advised lifetimes%n", java.time.Instant.ofEpochMilli(
                                s.minuteStartMs()), s.minuteRequests(), s.busiest().perSec(), s.hitRatio() * 100));
        out.append(String.format(Locale.ROOT, "demands: %s's, measured %s on %s (./run-tests.sh peak --demands);"
                        + " each tier sized for %.0f %% of its cores%s%n", s.demands().product(), s.demands().measured(),
                s.demands().machine(), TARGET_UTILISATION * 100, s.demands().hasCache() ? ""
                        : "; it has no cache, so every request is a MISS"));
        for (Case c : s.cases()) {
            out.append(String.format(Locale.ROOT, "%n%s: %.1f requests/s (%s)%n", c.name(), c.perSec(), c.mix()));
            out.append(String.format(Locale.ROOT, "  %-8s %14s %12s %7s%n", "tier", "CPU us/request", "busy cores",
                    "cores"));
            for (TierLoad t : c.tiers()) {
                out.append(String.format(Locale.ROOT, "  %-8s %14.1f %12.3f %7d%s%n", t.tier(), t.micros(), t.busyCores(),
                        t.cores(), t.busyCores() > t.cores() ? "  SATURATED" : ""));
            }
            out.append(String.format(Locale.ROOT, "  saturates first: %s, at %.0f requests/s of this mix on these cores%n",
                    c.saturatesFirst(), c.saturatesAtPerSec()));
        }
        return out.toString();
    }
}
