package dev.ratecache.model;

/**
 * How long the origin lets a response of one path be cached: {@code Cache-Control: max-age=N,
 * stale-while-revalidate=M} as ngx_http_upstream_process_cache_control reads it (whole seconds).
 *
 * @param maxAgeSec               {@code max-age}
 * @param staleWhileRevalidateSec {@code stale-while-revalidate} (0: stale not allowed)
 */
public record Freshness(long maxAgeSec, long staleWhileRevalidateSec) {

    /** A response that may be cached for {@code maxAgeSec} and not served stale. */
    public static Freshness maxAge(long maxAgeSec) {
        return new Freshness(maxAgeSec, 0);
    }
}
