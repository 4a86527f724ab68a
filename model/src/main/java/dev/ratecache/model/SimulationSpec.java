package dev.ratecache.model;

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
 */
public record SimulationSpec(LimitReqSpec front, EdgeCacheSpec cache, LimitReqSpec back, OriginSpec origin,
                             long hopMs, long epochMs) {

    public SimulationSpec {
        Objects.requireNonNull(origin);
        if (hopMs < 0) {
            throw new IllegalArgumentException("hopMs must not be negative");
        }
    }
}
