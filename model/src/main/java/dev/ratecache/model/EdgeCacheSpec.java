package dev.ratecache.model;

/**
 * The edge cache's directives, as the model needs them.
 *
 * @param lock               {@code proxy_cache_lock on}
 * @param lockTimeoutMs      {@code proxy_cache_lock_timeout} (nginx's default 5 s)
 * @param lockAgeMs          {@code proxy_cache_lock_age} (nginx's default 5 s)
 * @param useStaleUpdating   {@code proxy_cache_use_stale updating}: stale may be served while
 *                           refreshing even when the response did not allow it
 * @param backgroundUpdate   {@code proxy_cache_background_update on}
 * @param inactiveMs         {@code proxy_cache_path ... inactive=}: entries not used for this
 *                           long are removed (nginx's default 10 min)
 */
public record EdgeCacheSpec(boolean lock, long lockTimeoutMs, long lockAgeMs, boolean useStaleUpdating,
                            boolean backgroundUpdate, long inactiveMs) {}
