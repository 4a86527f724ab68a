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
    FLEET
}
