package dev.ratecache.model;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The edge's cache, keyed by URI. For nginx ({@link EdgeCacheSpec.Product#NGINX}) it is
 * proxy_cache as nginx 1.22 decides it (ngx_http_file_cache.c and ngx_http_upstream_cache in
 * ngx_http_upstream.c); HAProxy's and Varnish's caches are described at the end.
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
 *
 * <p><b>HAProxy 2.6</b> (src/cache.c): a lookup finds the entry fresh while {@code expire >
 * date.tv_sec}, with {@code expire = date.tv_sec + min(max-age, the section's max-age)} set at the
 * store: whole seconds of the wall clock again, but strictly greater, so max-age=1 is fresh for
 * between 0 and 1 second (nginx: 1 to 2). An expired entry is deleted at the lookup and the request
 * goes to the server: a MISS; nothing is served stale. There is no lock: an entry being written
 * is not used (not {@code complete}), so concurrent misses each fetch, and each 200 replaces the
 * stored entry. HAProxy's X-Cache-Status, as the suite sets it, is HIT or MISS only.
 *
 * <p><b>Varnish 7.1</b> (cache_hash.c HSH_Lookup, the suite's cache.vcl and grace.vcl): times are
 * doubles of seconds, taken here as the model's milliseconds: an object is fresh while {@code
 * t_origin + ttl > t_req}, ttl being max-age from the answer's arrival, and then in grace for
 * stale-while-revalidate seconds, or stale-if-error's if longer (grace.vcl). A miss with a fetch
 * already under way for the object waits for it with no timeout ({@link WaitForFetch}; request
 * coalescing), and gets the fetched object as a HIT (cache.vcl: it has hits). In grace the first
 * request starts one background fetch, and it and every request until that fetch is done are
 * answered STALE (cache.vcl names both STALE; there is no UPDATING). Beyond grace the object is a
 * plain MISS. An answer the built-in VCL finds uncacheable (any status but 200 here, or max-age=0)
 * becomes a hit-for-miss object for 120 s (vcl_beresp_hitmiss): it shadows the older object, and
 * each request fetches on its own, neither waiting nor served stale, until a 200 replaces it; but a
 * background fetch answered 5xx is abandoned (grace.vcl) and leaves the stale object in grace.
 * Waiters are all released in the millisecond the fetch's answer arrives (Varnish wakes them
 * rush_exponent at a time, microseconds apart).
 *
 * <p><b>Envoy 1.40</b> (source/extensions/filters/http/cache/, CacheHeadersUtils::calculateAge and
 * the cache policy's requiresValidation): an entry's age is RFC 9111's (the larger of the Age it
 * came with and now less its Date, plus its time in the cache), truncated to whole
 * {@code std::chrono::seconds}, and it needs validation once that age exceeds its max-age. With no
 * Age from upstream, the age is now less the answer's Date, which names the whole second the origin
 * answered in: an entry is fresh until that second's start plus max-age + 1 seconds, so max-age=1
 * stored at 1.0 s of the wall clock is fresh until 3.0 s, and stored at 1.9 s also until 3.0 s
 * (not 3.9 s). The model takes the store's wall-clock second for the Date's (the hop from the
 * origin to the edge is not modelled). A 304 to a revalidation replaces the entry's Date the same
 * way (updateHeaders). A stale entry goes upstream (a
 * MISS, as the suite's X-Cache-Status says it); nothing is served stale and there is no lock:
 * misses of one URL at once each fetch.
 */
public final class EdgeCache {

    /** What the edge does with a request at its cache lookup. */
    public sealed interface Lookup permits Serve, Fetch, Wait, WaitForFetch {
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

    /**
     * Waits, with no timer, for the fetch under way for the element (Varnish's waiting list): open
     * again when that fetch is {@link #release}d.
     */
    public record WaitForFetch() implements Lookup {
    }

    /** How long Varnish's built-in vcl_beresp_hitmiss keeps a hit-for-miss object. */
    static final long HIT_FOR_MISS_MS = 120_000;

    private static final class Node {
        boolean exists;
        /** nginx: the last second the entry is fresh in; HAProxy: the first second it is not. */
        long validSec;
        /** Varnish: the object is fresh before this model time, and in grace before {@link #graceUntilMs}. */
        long freshUntilMs;
        long graceUntilMs;
        /** Varnish: a hit-for-miss object shadows the element before this time. */
        long hitForMissUntilMs = Long.MIN_VALUE;
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
        return switch (spec.product()) {
            case NGINX -> open(key, nowMs, -1);
            case HAPROXY -> openHaproxy(key, nowMs);
            case VARNISH -> openVarnish(key, nowMs);
            case ENVOY -> openEnvoy(key, nowMs);
        };
    }

    /** http_action_req_cache_use: a fresh, complete entry or the server. */
    private Lookup openHaproxy(String key, long nowMs) {
        Node node = nodes.get(key);
        if (node != null && node.exists && node.validSec > seconds(nowMs)) {
            return new Serve(CacheStatus.HIT, false);
        }
        // get_entry deletes an expired entry: nothing stale is left to serve.
        nodes.remove(key);
        return new Fetch(CacheStatus.MISS, false, true);
    }

    /** The cache filter's lookup: a fresh entry is a HIT; anything else goes upstream, each miss on its own. */
    private Lookup openEnvoy(String key, long nowMs) {
        Node node = nodes.get(key);
        if (node != null && node.exists && nowMs < node.freshUntilMs) {
            return new Serve(CacheStatus.HIT, false);
        }
        return new Fetch(CacheStatus.MISS, false, true);
    }

    /** HSH_Lookup with the suite's grace. */
    private Lookup openVarnish(String key, long nowMs) {
        Node node = nodes.computeIfAbsent(key, k -> new Node());
        if (nowMs < node.hitForMissUntilMs) {
            return new Fetch(CacheStatus.MISS, false, true);
        }
        if (node.exists && nowMs < node.freshUntilMs) {
            return new Serve(CacheStatus.HIT, false);
        }
        if (node.exists && nowMs < node.graceUntilMs) {
            if (node.updating) {
                return new Serve(CacheStatus.STALE, false);
            }
            node.updating = true;
            return new Serve(CacheStatus.STALE, true);
        }
        if (node.updating) {
            return new WaitForFetch();
        }
        node.updating = true;
        return new Fetch(CacheStatus.MISS, true, true);
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
        if (spec.product() == EdgeCacheSpec.Product.HAPROXY) {
            Node node = nodes.computeIfAbsent(key, k -> new Node());
            node.exists = true;
            node.validSec = seconds(nowMs) + Math.min(freshness.maxAgeSec(), spec.maxAgeCapSec());
            return;
        }
        if (spec.product() == EdgeCacheSpec.Product.ENVOY) {
            // Stale once now less Date, truncated to whole seconds, exceeds max-age: max-age + 1
            // seconds after the start of the second the answer was dated in.
            Node node = nodes.computeIfAbsent(key, k -> new Node());
            node.exists = true;
            node.freshUntilMs = (seconds(nowMs) + freshness.maxAgeSec() + 1) * 1000 - epochMs;
            return;
        }
        if (spec.product() == EdgeCacheSpec.Product.VARNISH) {
            Node node = nodes.computeIfAbsent(key, k -> new Node());
            if (freshness.maxAgeSec() <= 0) {
                // vcl_beresp_stale: a ttl of 0 is uncacheable.
                node.hitForMissUntilMs = nowMs + HIT_FOR_MISS_MS;
                return;
            }
            long graceSec = Math.max(freshness.staleWhileRevalidateSec(), freshness.staleIfErrorSec());
            node.exists = true;
            node.freshUntilMs = nowMs + freshness.maxAgeSec() * 1000;
            node.graceUntilMs = node.freshUntilMs + graceSec * 1000;
            // The new object is found before any older hit-for-miss one.
            node.hitForMissUntilMs = Long.MIN_VALUE;
            return;
        }
        Node node = nodes.computeIfAbsent(key, k -> new Node());
        node.exists = true;
        node.validSec = seconds(nowMs) + freshness.maxAgeSec();
        node.updatingSec = freshness.staleWhileRevalidateSec();
        node.lastUseMs = Math.max(node.lastUseMs, nowMs);
    }

    /**
     * A fetch for {@code key} got {@code status}, which the edge does not store (anything but 200).
     * nginx and HAProxy keep nothing of it. Varnish makes it a hit-for-miss object, unless it
     * answered a background fetch with a 5xx, which grace.vcl abandons.
     */
    public void notStored(String key, long nowMs, int status, boolean background) {
        if (spec.product() != EdgeCacheSpec.Product.VARNISH || (background && status >= 500)) {
            return;
        }
        nodes.computeIfAbsent(key, k -> new Node()).hitForMissUntilMs = nowMs + HIT_FOR_MISS_MS;
    }

    /**
     * The updater is done, whatever the outcome (ngx_http_file_cache_free clears updating; Varnish
     * unbusies the object and its waiters, which then open again).
     */
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
