package dev.ratecache.suite.spec;

/**
 * How the per-client limit holds across several edges ({@code --edges N}): nginx open source keeps
 * limit_req's buckets in each nginx's own memory, so behind a balancer every edge counts alone.
 */
public enum FleetLimit {
    /** Each edge its own bucket at the full rate: behind round robin a client gets up to N times its limit. */
    PER_EDGE("per-edge"),
    /** The balancer hashes the client (its key, else its address) to one edge: exact, but each edge caches its own copies. */
    CLIENT_HASH("client-hash"),
    /** Each edge rate/N and burst/N: exact when the balancer spreads a client evenly, under-admits when it does not. */
    SPLIT("split"),
    /** One bucket per client for the whole fleet, in Redis; each edge falls back to its split limit when Redis fails. */
    SHARED("shared");

    private final String flag;

    FleetLimit(String flag) {
        this.flag = flag;
    }

    /** Whether each edge's own limit_req zones run at rate/N and burst/N (for shared, as its fallback). */
    public boolean splitsZones() {
        return this == SPLIT || this == SHARED;
    }

    @Override
    public String toString() {
        return flag;
    }
}
