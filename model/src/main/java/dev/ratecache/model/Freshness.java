package dev.ratecache.model;

/**
 * How long the origin lets a response of one path be cached: {@code Cache-Control: max-age=N,
 * stale-while-revalidate=M, stale-if-error=E} as ngx_http_upstream_process_cache_control reads it
 * (whole seconds).
 *
 * @param maxAgeSec               {@code max-age}
 * @param staleWhileRevalidateSec {@code stale-while-revalidate} (0: stale not allowed)
 * @param staleIfErrorSec         {@code stale-if-error} (0: none). nginx uses it only on an
 *                                upstream error, which the model's origin never has; Varnish's
 *                                front keeps an object in grace this long (varnish/snippets/front/grace.vcl)
 */
public record Freshness(long maxAgeSec, long staleWhileRevalidateSec, long staleIfErrorSec) {

    public Freshness(long maxAgeSec, long staleWhileRevalidateSec) {
        this(maxAgeSec, staleWhileRevalidateSec, 0);
    }

    /** A response that may be cached for {@code maxAgeSec} and not served stale. */
    public static Freshness maxAge(long maxAgeSec) {
        return new Freshness(maxAgeSec, 0);
    }
}
