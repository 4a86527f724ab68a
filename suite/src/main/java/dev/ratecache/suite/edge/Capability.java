package dev.ratecache.suite.edge;

/**
 * What an edge product can do for a stack, so that a spec asking something an edge lacks is
 * refused before anything starts, instead of measuring a stack that silently does something else.
 */
public enum Capability {
    /**
     * A quota per key over a window, counted across the edges (--quota, a tier's quota=). First, so
     * that a spec asking one hears of it before the flags its tiers file brings.
     */
    QUOTA(false),
    /** Holding requests inside the burst and releasing them at the rate (nginx's limit_req without nodelay, delay=N). */
    QUEUE_DELAY(true),
    /** An HTTP cache at the edge (the suite's edge cache, --cache on): a product without one runs limits only. */
    CACHE(true),
    /** Passing the burst at once and rejecting beyond it. */
    NODELAY(true),
    STALE_WHILE_REVALIDATE(true),
    STALE_IF_ERROR(true),
    /** One request to the origin for many misses of the same URL (a cache lock, or coalescing). */
    CACHE_LOCK(true),
    PURGE(true),
    /** A limit keyed by something the client sends (a header, cookie or argument), not only its address. */
    PER_KEY_LIMITS(true),
    RETRY_AFTER(true),
    RATELIMIT_HEADERS(true),
    /** One per-client limit held across several edges behind a balancer. */
    FLEET(true),
    /** Its front reloaded with another config, and its workers killed, while a run goes on (--matrix faults). */
    FAULTS(false);

    private final boolean theProducts;

    Capability(boolean theProducts) {
        this.theProducts = theProducts;
    }

    /**
     * Whether lacking it is the product's own limit, which the report says the product cannot do;
     * false for what the suite has so far built for nginx's edge alone (a quota in nginx's Lua,
     * faults by nginx's PIDs), which the report would otherwise blame on the other products.
     */
    public boolean theProducts() {
        return theProducts;
    }

    /** In a sentence of the report: "HAProxy cannot: queue or delay, ...". */
    public String label() {
        return switch (this) {
            case QUEUE_DELAY -> "queue or delay";
            case NODELAY -> "pass a burst at once";
            case CACHE -> "cache responses";
            case STALE_WHILE_REVALIDATE -> "serve stale while revalidating";
            case STALE_IF_ERROR -> "serve stale on an error";
            case CACHE_LOCK -> "send one miss of many to the origin";
            case PURGE -> "purge";
            case PER_KEY_LIMITS -> "limit by key";
            case RETRY_AFTER -> "send Retry-After";
            case RATELIMIT_HEADERS -> "send RateLimit headers";
            case FLEET -> "hold one limit across a fleet";
            case QUOTA -> "count a quota";
            case FAULTS -> "reload its front and lose workers mid-run";
        };
    }
}
