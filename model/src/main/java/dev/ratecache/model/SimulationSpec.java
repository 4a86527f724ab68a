package dev.ratecache.model;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The two tiers and the origin.
 *
 * @param front   the front's per-client limit (nginx's limit_req, HAProxy's or Varnish's), or null for none
 * @param cache   the edge cache on the front, or null for none
 * @param back    the back's global limit (one key for everything that reaches it), or null
 * @param origin  the origin
 * @param hopMs   one-way time from a tier to the next (front → back → origin), each way
 * @param epochMs wall-clock milliseconds at model time 0 (the cache counts whole seconds)
 * @param frontByClient the front's limit for particular clients instead of {@code front}: a limit by
 *                      API key, where each tier is its own zone and a client is a key (empty: one
 *                      limit for every client)
 * @param perClientAtBack the per-client limits ({@code front} and {@code frontByClient}) count at the
 *                      back, behind the edge cache, before its global limit: only misses cost quota
 *                      ({@code --limit-scope misses})
 * @param unlimitedClients clients no per-client limit counts (an {@code --allow} network's): only the
 *                      back's global limit applies to them
 */
public record SimulationSpec(LimitSpec front, EdgeCacheSpec cache, LimitSpec back, OriginSpec origin,
                             long hopMs, long epochMs, Map<String, LimitSpec> frontByClient,
                             boolean perClientAtBack, Set<String> unlimitedClients) {

    public SimulationSpec {
        Objects.requireNonNull(origin);
        if (hopMs < 0) {
            throw new IllegalArgumentException("hopMs must not be negative");
        }
        frontByClient = Map.copyOf(frontByClient);
        unlimitedClients = Set.copyOf(unlimitedClients);
    }

    public SimulationSpec(LimitSpec front, EdgeCacheSpec cache, LimitSpec back, OriginSpec origin, long hopMs,
            long epochMs) {
        this(front, cache, back, origin, hopMs, epochMs, Map.of(), false, Set.of());
    }

    /** The same tiers with these clients' front limits: each distinct spec its own zone, as nginx's tiers are. */
    public SimulationSpec withFrontByClient(Map<String, ? extends LimitSpec> byClient) {
        return new SimulationSpec(front, cache, back, origin, hopMs, epochMs, Map.copyOf(byClient), perClientAtBack,
                unlimitedClients);
    }

    /** The same tiers with the per-client limits counting only what the edge cache passes to the back. */
    public SimulationSpec withPerClientAtBack(boolean atBack) {
        return new SimulationSpec(front, cache, back, origin, hopMs, epochMs, frontByClient, atBack, unlimitedClients);
    }

    /** The same tiers with these clients counted by no per-client limit, as nginx's geo gives an --allow network. */
    public SimulationSpec withUnlimitedClients(Set<String> clients) {
        return new SimulationSpec(front, cache, back, origin, hopMs, epochMs, frontByClient, perClientAtBack, clients);
    }
}
