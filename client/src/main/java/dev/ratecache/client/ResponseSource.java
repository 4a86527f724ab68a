package dev.ratecache.client;

/**
 * Where a response came from, like OkHttp's {@code cacheResponse()} / {@code networkResponse()}
 * pair folded into one value.
 */
public enum ResponseSource {
    /** Answered by the server with a full response (a cache miss, or a revalidation that got a new body). */
    NETWORK,
    /** Answered from the cache without touching the network: the stored response was fresh. */
    CACHE,
    /** Answered from the cache after the server confirmed the stored response with a 304 Not Modified. */
    VALIDATED,
    /**
     * Answered at once from the cache with a stale response that the server's
     * {@code stale-while-revalidate} still allowed, while a background revalidation refreshes it
     * (one per entry at a time). This request itself sent nothing.
     */
    STALE_WHILE_REVALIDATING,
    /**
     * Answered from the cache with a stale response because the server could not be reached or
     * answered 500, 502, 503 or 504, and {@code stale-if-error} (the server's or the client's) allowed it.
     */
    STALE_IF_ERROR,
    /**
     * Made up by the cache: a 504 Gateway Timeout when {@code only-if-cached} found nothing usable,
     * or when an entry that must be revalidated could not be.
     */
    GENERATED
}
