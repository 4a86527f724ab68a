package dev.ratecache.model;

import java.util.Map;
import java.util.Objects;

/**
 * The two tiers and the origin.
 *
 * @param front   the front's per-client limit_req, or null for none
 * @param cache   the edge cache on the front, or null for none
 * @param back    the back's global limit_req (one key for everything that reaches it), or null
 * @param origin  the origin
 * @param hopMs   one-way time from a tier to the next (front → back → origin), each way
 * @param epochMs wall-clock milliseconds at model time 0 (the cache counts whole seconds)
 * @param frontByClient the front's limit for particular clients instead of {@code front}: a limit by
 *                      API key, where each tier is its own zone and a client is a key (empty: one
 *                      limit for every client)
 * @param perClientAtBack the per-client limits ({@code front} and {@code frontByClient}) count at the
 *                      back, behind the edge cache, before its global limit: only misses cost quota
 *                      ({@code --limit-scope misses})
 */
public record SimulationSpec(LimitReqSpec front, EdgeCacheSpec cache, LimitReqSpec back, OriginSpec origin,
                             long hopMs, long epochMs, Map<String, LimitReqSpec> frontByClient,
                             boolean perClientAtBack) {

    public SimulationSpec {
        Objects.requireNonNull(origin);
        if (hopMs < 0) {
            throw new IllegalArgumentException("hopMs must not be negative");
        }
        frontByClient = Map.copyOf(frontByClient);
    }

    public SimulationSpec(LimitReqSpec front, EdgeCacheSpec cache, LimitReqSpec back, OriginSpec origin, long hopMs,
            long epochMs) {
        this(front, cache, back, origin, hopMs, epochMs, Map.of(), false);
    }

    /** The same tiers with these clients' front limits: each distinct spec its own zone, as nginx's tiers are. */
    public SimulationSpec withFrontByClient(Map<String, LimitReqSpec> byClient) {
        return new SimulationSpec(front, cache, back, origin, hopMs, epochMs, byClient, perClientAtBack);
    }

    /** The same tiers with the per-client limits counting only what the edge cache passes to the back. */
    public SimulationSpec withPerClientAtBack(boolean atBack) {
        return new SimulationSpec(front, cache, back, origin, hopMs, epochMs, frontByClient, atBack);
    }
}
