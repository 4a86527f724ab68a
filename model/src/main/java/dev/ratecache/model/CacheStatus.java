package dev.ratecache.model;

/**
 * The {@code $upstream_cache_status} values the edge model produces (ngx_http_upstream.c's
 * {@code ngx_http_cache_status[]}); BYPASS, REVALIDATED and SCARCE are not modelled.
 */
public enum CacheStatus {
    /** Nothing cached: fetched from upstream (by the lock holder, or after the lock timed out). */
    MISS,
    /** Served fresh from the cache (also what a lock waiter gets once the holder stored it). */
    HIT,
    /** Cached but stale and stale not allowed (or nobody may serve it): fetched from upstream. */
    EXPIRED,
    /** Stale, served as is while this request's background subrequest refreshes the entry. */
    STALE,
    /** Stale, served as is because another request is already refreshing the entry. */
    UPDATING
}
