package dev.ratecache.suite.explain;

import dev.ratecache.model.Arrival;
import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.Freshness;
import dev.ratecache.model.OriginSpec;
import dev.ratecache.model.PathSpec;
import dev.ratecache.model.RequestOutcome;
import dev.ratecache.model.Simulation;
import dev.ratecache.model.SimulationResult;
import dev.ratecache.model.SimulationSpec;
import dev.ratecache.model.Workload;
import dev.ratecache.suite.explain.ConfigSpec.CacheSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a place's cache does to its upstream when an entry is cold and when it expires, from the
 * model's simulation of nginx's proxy_cache ({@link Simulation} with the place's lock, stale and
 * background-update settings): for {@link #CLIENTS} clients each asking for one entry once a
 * second, and an upstream that answers in {@link #UPSTREAM_MS} ms. Those two are assumptions, said
 * with every figure: the config does not say how busy the entry is or how slow its upstream.
 *
 * @param lifetimeMs   how long a 200 is fresh (proxy_cache_valid)
 * @param coldUpstream requests that went upstream in the first seconds, the entry not cached yet
 * @param coldSlowestMs the slowest answer then
 * @param expiryUpstream requests that went upstream around the entry's expiry (background refreshes included)
 * @param expirySlowestMs the slowest answer then
 */
public record CacheFigures(long lifetimeMs, int coldUpstream, long coldSlowestMs, int expiryUpstream,
                           long expirySlowestMs) {
    static final int CLIENTS = 100;
    static final long UPSTREAM_MS = 1000;
    /** The path the simulated clients ask for. */
    private static final String PATH = "/entry";
    /** Seconds of requests simulated after the cold start and around the expiry. */
    private static final long WINDOW_MS = 5000;

    /**
     * The figures of {@code cache}; empty without a lifetime of a second or more for 200, or with
     * proxy_cache_min_uses above 1, which the model does not count.
     */
    static Optional<CacheFigures> of(CacheSettings cache) {
        if (cache.minUses() > 1) {
            return Optional.empty();
        }
        long lifetimeMs = cache.valid().stream().filter(v -> v.codes().contains("200") || v.codes().contains("any"))
                .mapToLong(ConfigSpec.Valid::ms).findFirst().orElse(0);
        if (lifetimeMs < 1000) {
            return Optional.empty();
        }
        // The upstream's max-age stands for proxy_cache_valid: the model reads the lifetime from the answer.
        OriginSpec origin = new OriginSpec(CLIENTS * 10,
                Map.of(PATH, new PathSpec(UPSTREAM_MS, Freshness.maxAge(lifetimeMs / 1000))));
        // The clients ask every second, so the entry is never unused for inactive=: the simulation
        // leaves out the quiet seconds between the cold start and the expiry, and must not let them count.
        EdgeCacheSpec model = cache.model();
        EdgeCacheSpec busy = new EdgeCacheSpec(model.lock(), model.lockTimeoutMs(), model.lockAgeMs(),
                model.useStaleUpdating(), model.backgroundUpdate(), Math.max(model.inactiveMs(), lifetimeMs + 3 * WINDOW_MS));
        SimulationSpec spec = new SimulationSpec(null, busy, null, origin, 0, 0);
        long expiry = lifetimeMs;
        List<Arrival> arrivals = new ArrayList<>();
        long step = 1000 / CLIENTS;
        int n = 0;
        for (long t = 0; t < WINDOW_MS; t += step) {
            arrivals.add(new Arrival(t, "client-" + n++ % CLIENTS, PATH));
        }
        // Requests before and after the expiry only: the seconds between change nothing but the run's length.
        long from = Math.max(WINDOW_MS, expiry - 1000);
        for (long t = from; t < expiry + WINDOW_MS; t += step) {
            arrivals.add(new Arrival(t, "client-" + n++ % CLIENTS, PATH));
        }
        SimulationResult result = Simulation.run(spec, new Workload.Open(arrivals));
        int coldUpstream = 0;
        int expiryUpstream = result.backgroundOriginRequests();
        long coldSlowest = 0;
        long expirySlowest = 0;
        for (RequestOutcome r : result.requests()) {
            boolean cold = r.arrivalMs() < WINDOW_MS;
            if (cold) {
                coldUpstream += r.reachedOrigin() ? 1 : 0;
                coldSlowest = Math.max(coldSlowest, r.latencyMs());
            } else {
                expiryUpstream += r.reachedOrigin() ? 1 : 0;
                expirySlowest = Math.max(expirySlowest, r.latencyMs());
            }
        }
        return Optional.of(new CacheFigures(lifetimeMs, coldUpstream, coldSlowest, expiryUpstream, expirySlowest));
    }

    /** In words, with the assumptions it rests on. */
    String words() {
        return "cache figures from the model, for " + CLIENTS + " clients each asking for one entry once a second and"
                + " an upstream answering in " + Words.ms(UPSTREAM_MS) + " (assumed: the config does not say): when"
                + " the entry is not cached yet " + requests(coldUpstream) + " upstream, answers waiting up to "
                + Words.ms(coldSlowestMs) + "; when it expires after " + Words.ms(lifetimeMs) + ", "
                + requests(expiryUpstream) + " upstream, answers waiting up to " + Words.ms(expirySlowestMs);
    }

    private static String requests(int n) {
        return n == 1 ? "1 request goes" : n + " requests go";
    }
}
