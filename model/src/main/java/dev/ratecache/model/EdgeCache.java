package dev.ratecache.model;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The edge's proxy_cache, keyed by URI, as nginx 1.22 decides it (ngx_http_file_cache.c and
 * ngx_http_upstream_cache in ngx_http_upstream.c).
 *
 * <ul>
 * <li>Freshness is in whole seconds: a stored response gets {@code valid_sec = ngx_time() +
 * max-age} and is fresh while {@code valid_sec >= ngx_time()} (ngx_http_file_cache_read), so
 * max-age=1 is fresh for between 1 and 2 seconds depending on where in the second it was stored.
 * <li>proxy_cache_lock covers only an element that is not cached yet
 * (ngx_http_file_cache_open → ngx_http_file_cache_lock): the first request becomes the
 * updater; the others wait. A waiter does not get woken by the updater: it polls on a timer of
 * at most 500 ms (ngx_http_file_cache_lock_wait), so it gets its HIT up to 500 ms after the
 * entry was stored. After {@code proxy_cache_lock_age} another request may fetch; after
 * {@code proxy_cache_lock_timeout} the waiter goes upstream itself and its response is not
 * cached (NGX_HTTP_CACHE_SCARCE → u->cacheable = 0), logged MISS.
 * <li>An expired entry: the first request marks it updating. If stale may be served (the
 * response's stale-while-revalidate, or proxy_cache_use_stale updating) and background update is
 * on, it is answered STALE and a background subrequest refreshes the entry; otherwise it goes
 * upstream, EXPIRED. Requests arriving while the entry is updating are answered UPDATING when
 * stale may be served, otherwise they go upstream too, EXPIRED, without any lock.
 * <li>{@code inactive}: an entry not used for that long is gone (nginx's cache manager removes
 * it a little later; the model removes it at the next lookup).
 * </ul>
 *
 * <p>Not modelled: max_size eviction, min_uses, Vary, revalidation (REVALIDATED), errors and
 * use_stale for errors, the cache loader's cold start.
 */
public final class EdgeCache {

    /** What the edge does with a request at its cache lookup. */
    public sealed interface Lookup permits Serve, Fetch, Wait {
    }

    /**
     * Answered from the cache.
     *
     * @param status           HIT, STALE or UPDATING
     * @param backgroundUpdate this request started a background refresh (STALE)
     */
    public record Serve(CacheStatus status, boolean backgroundUpdate) implements Lookup {
    }

    /**
     * Goes upstream.
     *
     * @param status  MISS or EXPIRED
     * @param updater this request holds the element's updating flag and must {@link #release}
     * @param store   the response will be cached when it is cacheable
     */
    public record Fetch(CacheStatus status, boolean updater, boolean store) implements Lookup {
    }

    /**
     * Waits on the cache lock; call {@link #poll} at {@code untilMs}.
     *
     * @param untilMs    when the wait timer fires
     * @param deadlineMs the lock timeout deadline ({@code c->wait_time}), fixed at the first wait
     */
    public record Wait(long untilMs, long deadlineMs) implements Lookup {
    }

    private static final class Node {
        boolean exists;
        long validSec;
        long updatingSec;
        boolean updating;
        long lockTimeMs;
        long lastUseMs;
    }

    private final EdgeCacheSpec spec;
    private final long epochMs;
    private final Map<String, Node> nodes = new HashMap<>();

    /**
     * @param spec    the cache's directives
     * @param epochMs wall-clock milliseconds at model time 0; freshness is counted in whole
     *                seconds of the wall clock (ngx_time()), so where time 0 falls in its second
     *                matters
     */
    public EdgeCache(EdgeCacheSpec spec, long epochMs) {
        this.spec = Objects.requireNonNull(spec);
        this.epochMs = epochMs;
    }

    private long seconds(long nowMs) {
        return Math.floorDiv(epochMs + nowMs, 1000);
    }

    /** A request reaches the cache lookup (ngx_http_file_cache_open) at {@code nowMs}. */
    public Lookup open(String key, long nowMs) {
        return open(key, nowMs, -1);
    }

    /**
     * A lock waiter's timer fired (ngx_http_file_cache_lock_wait).
     *
     * @param wait the wait that ended
     */
    public Lookup poll(String key, long nowMs, Wait wait) {
        if (nowMs >= wait.deadlineMs()) {
            // "cache lock timeout": c->lock_timeout = 0, then the open runs again.
            Lookup again = open(key, nowMs, wait.deadlineMs());
            if (again instanceof Wait) {
                return new Fetch(CacheStatus.MISS, false, false);
            }
            return again;
        }
        Node node = nodes.get(key);
        if (node != null && node.updating && node.lockTimeMs - nowMs > 0) {
            return new Wait(nowMs + Math.min(500, node.lockTimeMs - nowMs), wait.deadlineMs());
        }
        return open(key, nowMs, wait.deadlineMs());
    }

    private Lookup open(String key, long nowMs, long deadlineMs) {
        Node node = nodes.get(key);
        if (node != null && !node.updating && nowMs - node.lastUseMs >= spec.inactiveMs()) {
            nodes.remove(key);
            node = null;
        }
        if (node == null) {
            node = new Node();
            nodes.put(key, node);
        }
        node.lastUseMs = nowMs;
        if (node.exists) {
            long now = seconds(nowMs);
            if (node.validSec >= now) {
                return new Serve(CacheStatus.HIT, false);
            }
            boolean staleUpdating = node.validSec + node.updatingSec >= now;
            boolean mayServeStale = spec.useStaleUpdating() || staleUpdating;
            if (node.updating) {
                // NGX_HTTP_CACHE_UPDATING
                if (mayServeStale) {
                    return new Serve(CacheStatus.UPDATING, false);
                }
                return new Fetch(CacheStatus.EXPIRED, false, true);
            }
            node.updating = true;
            // NGX_HTTP_CACHE_STALE
            if (mayServeStale && spec.backgroundUpdate()) {
                return new Serve(CacheStatus.STALE, true);
            }
            return new Fetch(CacheStatus.EXPIRED, true, true);
        }
        // Not cached: ngx_http_file_cache_lock.
        if (!spec.lock()) {
            return new Fetch(CacheStatus.MISS, false, true);
        }
        if (!node.updating || node.lockTimeMs - nowMs <= 0) {
            node.updating = true;
            node.lockTimeMs = nowMs + spec.lockAgeMs();
            return new Fetch(CacheStatus.MISS, true, true);
        }
        long deadline = deadlineMs >= 0 ? deadlineMs : nowMs + spec.lockTimeoutMs();
        if (nowMs >= deadline) {
            return new Wait(nowMs, deadline);
        }
        return new Wait(nowMs + Math.min(500, deadline - nowMs), deadline);
    }

    /**
     * A cacheable response for {@code key} was received from upstream at {@code nowMs}
     * (ngx_http_file_cache_update): the element exists with the response's freshness.
     */
    public void store(String key, long nowMs, Freshness freshness) {
        Node node = nodes.computeIfAbsent(key, k -> new Node());
        node.exists = true;
        node.validSec = seconds(nowMs) + freshness.maxAgeSec();
        node.updatingSec = freshness.staleWhileRevalidateSec();
        node.lastUseMs = Math.max(node.lastUseMs, nowMs);
    }

    /** The updater is done, whatever the outcome (ngx_http_file_cache_free clears updating). */
    public void release(String key) {
        Node node = nodes.get(key);
        if (node != null) {
            node.updating = false;
        }
    }

    /** Whether {@code key} has a cached response (fresh or stale). */
    public boolean cached(String key) {
        Node node = nodes.get(key);
        return node != null && node.exists;
    }
}
