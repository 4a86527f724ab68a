package dev.ratecache.model;

/**
 * The edge cache's directives, as the model needs them. The six-value form is nginx's
 * proxy_cache; {@link #haproxy} and {@link #varnish} give the suite's other two edges, whose
 * caches {@link EdgeCache} decides as their products do.
 *
 * @param lock               {@code proxy_cache_lock on}
 * @param lockTimeoutMs      {@code proxy_cache_lock_timeout} (nginx's default 5 s)
 * @param lockAgeMs          {@code proxy_cache_lock_age} (nginx's default 5 s)
 * @param useStaleUpdating   {@code proxy_cache_use_stale updating}: stale may be served while
 *                           refreshing even when the response did not allow it
 * @param backgroundUpdate   {@code proxy_cache_background_update on}
 * @param inactiveMs         {@code proxy_cache_path ... inactive=}: entries not used for this
 *                           long are removed (nginx's default 10 min)
 * @param product            whose cache this is
 * @param maxAgeCapSec       HAProxy's {@code cache} section {@code max-age}: no entry is fresh
 *                           longer, whatever the origin allows; no cap for the others
 */
public record EdgeCacheSpec(boolean lock, long lockTimeoutMs, long lockAgeMs, boolean useStaleUpdating,
                            boolean backgroundUpdate, long inactiveMs, Product product, long maxAgeCapSec) {

    /** The edge product whose cache decides. */
    public enum Product { NGINX, HAPROXY, VARNISH, ENVOY }

    /** No cap on freshness, no inactivity limit. */
    static final long NONE = Long.MAX_VALUE;

    public EdgeCacheSpec {
        if (product == null || maxAgeCapSec < 0) {
            throw new IllegalArgumentException("an edge cache needs a product and a cap of 0 s or more: " + product
                    + ", " + maxAgeCapSec);
        }
    }

    /** nginx's proxy_cache with these directives. */
    public EdgeCacheSpec(boolean lock, long lockTimeoutMs, long lockAgeMs, boolean useStaleUpdating,
            boolean backgroundUpdate, long inactiveMs) {
        this(lock, lockTimeoutMs, lockAgeMs, useStaleUpdating, backgroundUpdate, inactiveMs, Product.NGINX, NONE);
    }

    /**
     * HAProxy 2.6's cache (haproxy/snippets/front/cache.cfg): no lock, no stale serving, no
     * revalidation (haproxy#214), freshness capped at the section's {@code max-age}, which the suite
     * renders as 86400 s. Entries leave when they expire or when memory runs out (not modelled).
     */
    public static EdgeCacheSpec haproxy(long maxAgeCapSec) {
        return new EdgeCacheSpec(false, 0, 0, false, false, NONE, Product.HAPROXY, maxAgeCapSec);
    }

    /**
     * Varnish 7.1's cache as varnish/snippets/front/cache.vcl and grace.vcl set it up: misses of
     * one object wait for its one fetch with no timeout (request coalescing), grace from the
     * origin's stale-while-revalidate or, if longer, stale-if-error, with one background fetch.
     */
    public static EdgeCacheSpec varnish() {
        return new EdgeCacheSpec(true, NONE, NONE, false, true, NONE, Product.VARNISH, NONE);
    }

    /**
     * Envoy 1.40's cache filter with its SimpleHttpCache (envoy/snippets/front/cache.yaml): no lock
     * (misses of one URL at once each fetch), nothing served stale, no size limit, no cap on
     * freshness; an entry is fresh while its age in whole seconds is at most its max-age.
     */
    public static EdgeCacheSpec envoy() {
        return new EdgeCacheSpec(false, 0, 0, false, false, NONE, Product.ENVOY, NONE);
    }
}
