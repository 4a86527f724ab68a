package dev.ratecache.suite.edge;

/**
 * What an edge product can do for a stack, so that a spec asking something an edge lacks is
 * refused before anything starts, instead of measuring a stack that silently does something else.
 */
public enum Capability {
    /** Holding requests inside the burst and releasing them at the rate (nginx's limit_req without nodelay, delay=N). */
    QUEUE_DELAY,
    /** Passing the burst at once and rejecting beyond it. */
    NODELAY,
    STALE_WHILE_REVALIDATE,
    STALE_IF_ERROR,
    /** One request to the origin for many misses of the same URL (a cache lock, or coalescing). */
    CACHE_LOCK,
    PURGE,
    /** A limit keyed by something the client sends (a header, cookie or argument), not only its address. */
    PER_KEY_LIMITS,
    RETRY_AFTER,
    RATELIMIT_HEADERS,
    /** One per-client limit held across several edges behind a balancer. */
    FLEET;

    /** In a sentence of the report: "HAProxy cannot: queue or delay, ...". */
    public String label() {
        return switch (this) {
            case QUEUE_DELAY -> "queue or delay";
            case NODELAY -> "pass a burst at once";
            case STALE_WHILE_REVALIDATE -> "serve stale while revalidating";
            case STALE_IF_ERROR -> "serve stale on an error";
            case CACHE_LOCK -> "send one miss of many to the origin";
            case PURGE -> "purge";
            case PER_KEY_LIMITS -> "limit by key";
            case RETRY_AFTER -> "send Retry-After";
            case RATELIMIT_HEADERS -> "send RateLimit headers";
            case FLEET -> "hold one limit across a fleet";
        };
    }
}
