package dev.ratecache.model;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One limit_req zone with its per-key state, deciding exactly as nginx 1.22's
 * ngx_http_limit_req_module.c does.
 *
 * <p>Per key nginx keeps {@code excess} (thousandths of a request) and {@code last}
 * ({@code ngx_current_msec}). {@code ngx_http_limit_req_lookup} computes
 * {@code ms = now - last} (a negative ms, from a clock going backwards, counts as 0, and below
 * -60000 as 1), {@code excess = excess - rate * ms / 1000 + 1000} clamped at 0, and answers BUSY
 * (rejected, nothing stored) when {@code excess > burst}; otherwise it stores the excess and sets
 * {@code last = now} only when {@code ms != 0} — so requests in the same millisecond do not move
 * {@code last}. A key seen for the first time gets {@code excess = 0}, not 1000, which is why
 * {@code burst=N} lets N+1 requests through at once. {@code ngx_http_limit_req_account} then
 * turns the excess into a delay: none when {@code excess <= delay} threshold, else
 * {@code (excess - delay) * 1000 / rate} ms.
 *
 * <p>Time: nginx reads {@code ngx_current_msec}, the cached clock updated once per event-loop
 * iteration (ngx_time_update after epoll_wait returns), so every request handled in one
 * iteration shares one "now". The caller passes that time; the model does not invent jitter.
 *
 * <p>Not thread safe: the simulation is single-threaded, as an nginx worker is.
 */
public final class LimitReq implements Limiter {

    /** Per key: {@code ngx_http_limit_req_node_t} without the rbtree. */
    private static final class Node {
        long excess;
        long last;
        /** The node was created by a non-accounting lookup: nginx sets {@code last = 0}. */
        boolean lastIsZero;
        int count;

        Node copy() {
            Node n = new Node();
            n.excess = excess;
            n.last = last;
            n.lastIsZero = lastIsZero;
            n.count = count;
            return n;
        }
    }

    private final LimitReqSpec spec;
    /** Access-ordered, so the eldest entry is the tail of nginx's LRU queue (ctx->sh->queue). */
    private final LinkedHashMap<String, Node> nodes = new LinkedHashMap<>(16, 0.75f, true);
    /** The states the zone's memory holds ({@link ZoneStates}). */
    private final long capacity;
    /** States removed only because the zone was full: each a client whose limit nginx forgot. */
    private long forced;

    /** A zone with no state yet, for the given limit, whose memory never fills. */
    public LimitReq(LimitReqSpec spec) {
        this(spec, Long.MAX_VALUE);
    }

    /**
     * A zone with no state yet that holds at most {@code capacity} keys: storing one more removes
     * the least recently used key whatever its state, as nginx does when its slab allocation fails.
     */
    public LimitReq(LimitReqSpec spec, long capacity) {
        this.spec = Objects.requireNonNull(spec);
        if (capacity < 1) {
            throw new IllegalArgumentException("a zone holds one key at least (got " + capacity + ")");
        }
        this.capacity = capacity;
    }

    /** Keys removed because the zone was full, not because they were idle and drained. */
    public long forcedRemovals() {
        return forced;
    }

    /** The limit this zone applies. */
    public LimitReqSpec spec() {
        return spec;
    }

    /** Number of keys the zone currently holds (after nginx's opportunistic expiry). */
    public int keys() {
        return nodes.size();
    }

    /**
     * Decides one request when this is the location's only limit_req (nginx's
     * {@code account = 1} path of ngx_http_limit_req_lookup).
     *
     * @param key   the zone key's value for the request (e.g. the client address)
     * @param nowMs nginx's cached millisecond clock when the request reached the preaccess phase
     */
    @Override
    public Decision decide(String key, long nowMs) {
        return decideAll(List.of(new Keyed(this, key)), nowMs);
    }

    /**
     * A zone together with the key value the request has in it, and the limit_req directive's own
     * burst and delay: in nginx the rate belongs to the zone (limit_req_zone) but burst, nodelay and
     * delay= to each limit_req that names it, so two locations sharing one zone (one state per
     * key) may queue or refuse differently. {@code limit}'s rate is the zone's.
     */
    public record Keyed(LimitReq zone, String key, LimitReqSpec limit) {
        public Keyed {
            Objects.requireNonNull(zone);
            limit = limit == null ? zone.spec : limit;
        }

        /** The zone's own limit_req (its spec's burst and delay). */
        public Keyed(LimitReq zone, String key) {
            this(zone, key, null);
        }
    }

    /**
     * A zone with the rate and capacity of this one holding only {@code keys}' states as they are now
     * (those it holds): enough to decide a request of those keys without touching this zone, as
     * advise's shadow comparison does when it tries a request a millisecond or two off its logged
     * time. A request's decision depends only on its own keys' states.
     */
    public LimitReq only(java.util.Collection<String> keys) {
        LimitReq c = new LimitReq(spec, capacity);
        for (String key : keys) {
            Node n = key == null ? null : nodes.get(key);
            if (n != null) {
                c.nodes.put(key, n.copy());
            }
        }
        return c;
    }

    /** Takes {@code other}'s states for the keys it holds in place of this zone's (see {@link #only}). */
    public void takeStates(LimitReq other) {
        for (Map.Entry<String, Node> e : other.nodes.entrySet()) {
            nodes.put(e.getKey(), e.getValue().copy());
        }
    }

    /**
     * Decides one request against several limit_req directives of one location, in their
     * configuration order, as ngx_http_limit_req_handler does: each limit but the last is looked
     * up without being charged; the first that is over its burst rejects the request and nothing
     * is charged anywhere; otherwise ngx_http_limit_req_account charges the earlier ones and the
     * request waits for the longest of their delays. A null key skips that limit (nginx skips
     * empty keys).
     */
    public static Decision decideAll(List<Keyed> limits, long nowMs) {
        int last = limits.size() - 1;
        long excess = 0;
        Lookup rc = Lookup.DECLINED;
        int n;
        Node[] held = new Node[limits.size()];
        for (n = 0; n < limits.size(); n++) {
            Keyed k = limits.get(n);
            if (k.key() == null || k.key().isEmpty()) {
                continue;
            }
            LookupResult r = k.zone().lookup(k.key(), nowMs, n == last, k.limit().burstMilli());
            rc = r.rc;
            excess = r.excess;
            held[n] = r.held;
            if (rc != Lookup.AGAIN) {
                break;
            }
        }
        if (rc == Lookup.DECLINED) {
            // No limit applied at all: nginx leaves $limit_req_status empty; PASSED is the
            // closest value and the request is not delayed.
            return new Decision(LimitReqStatus.PASSED, 0, 0, -1);
        }
        if (rc == Lookup.BUSY) {
            // ngx_http_limit_req_unlock: the earlier limits were only looked at, not charged.
            for (int i = 0; i < n; i++) {
                if (held[i] != null) {
                    held[i].count--;
                }
            }
            return new Decision(LimitReqStatus.REJECTED, 0, excess, n);
        }
        if (rc == Lookup.AGAIN) {
            excess = 0;
        }
        // ngx_http_limit_req_account(limits, n, &excess, &limit)
        // nginx's `limit` is &limits[n] where the loop stopped (the last limit if it ran through).
        int limitIndex = Math.min(n, limits.size() - 1);
        LimitReqSpec limit = limits.get(limitIndex).limit();
        long maxDelay = excess <= limit.delayMilli()
                ? 0
                : (excess - limit.delayMilli()) * 1000 / limit.rate().milliPerSecond();
        long reportedExcess = excess;
        for (int i = Math.min(n, limits.size()) - 1; i >= 0; i--) {
            Node lr = held[i];
            if (lr == null) {
                continue;
            }
            LimitReq zone = limits.get(i).zone();
            LimitReqSpec own = limits.get(i).limit();
            long ms = zone.elapsed(lr, nowMs);
            long e = Math.max(0, lr.excess - zone.spec.rate().milliPerSecond() * ms / 1000 + 1000);
            if (ms != 0) {
                lr.last = nowMs;
                lr.lastIsZero = false;
            }
            lr.excess = e;
            lr.count--;
            if (e <= own.delayMilli()) {
                continue;
            }
            long delay = (e - own.delayMilli()) * 1000 / zone.spec.rate().milliPerSecond();
            if (delay > maxDelay) {
                maxDelay = delay;
                reportedExcess = e;
                limitIndex = i;
            }
        }
        return new Decision(maxDelay == 0 ? LimitReqStatus.PASSED : LimitReqStatus.DELAYED,
                maxDelay, reportedExcess, limitIndex);
    }

    private enum Lookup { DECLINED, OK, AGAIN, BUSY }

    private record LookupResult(Lookup rc, long excess, Node held) {
    }

    /** {@code ms = (ngx_msec_int_t) (now - lr->last)} with 1.22's handling of negative values. */
    private long elapsed(Node lr, long nowMs) {
        if (lr.lastIsZero) {
            // last = 0 against a monotonic clock far from 0: ms is huge and drains everything.
            return Long.MAX_VALUE / 2 / Math.max(1, spec.rate().milliPerSecond());
        }
        long ms = nowMs - lr.last;
        if (ms < -60000) {
            ms = 1;
        } else if (ms < 0) {
            ms = 0;
        }
        return ms;
    }

    /** ngx_http_limit_req_lookup. */
    private LookupResult lookup(String key, long nowMs, boolean account, long burstMilli) {
        Node lr = nodes.get(key); // moves it to the head of the LRU, as ngx_queue_insert_head does
        if (lr != null) {
            long ms = elapsed(lr, nowMs);
            long excess = Math.max(0, lr.excess - spec.rate().milliPerSecond() * ms / 1000 + 1000);
            if (excess > burstMilli) {
                return new LookupResult(Lookup.BUSY, excess, null);
            }
            if (account) {
                lr.excess = excess;
                if (ms != 0) {
                    lr.last = nowMs;
                    lr.lastIsZero = false;
                }
                return new LookupResult(Lookup.OK, excess, null);
            }
            lr.count++;
            return new LookupResult(Lookup.AGAIN, excess, lr);
        }
        // A new key: ngx_http_limit_req_expire(ctx, 1) first, then a fresh node with excess 0; when
        // the slab has no room, ngx_http_limit_req_expire(ctx, 0) removes the oldest key by force.
        expire(nowMs, 1);
        if (nodes.size() >= capacity) {
            expire(nowMs, 0);
        }
        lr = new Node();
        lr.excess = 0;
        nodes.put(key, lr);
        if (account) {
            lr.last = nowMs;
            lr.count = 0;
            return new LookupResult(Lookup.OK, 0, null);
        }
        lr.lastIsZero = true;
        lr.count = 1;
        return new LookupResult(Lookup.AGAIN, 0, lr);
    }

    /**
     * ngx_http_limit_req_expire(ctx, n): with n = 1 removes at most two of the least recently used
     * keys, and only those idle for a minute or more whose excess has fully drained; with n = 0
     * (the zone's memory full) first removes the least recently used key whatever its state, then
     * as n = 1. A key held by a lookup of the request being decided stops it (nginx: "there is not
     * much sense in looking further"); the single-threaded model holds none between requests, so the
     * forced removal always makes room. (Had it not, nginx logs "could not allocate node" and
     * ngx_http_limit_req_handler answers NGX_ERROR as it answers NGX_BUSY: rejected, with
     * limit_req_status, not a 500.)
     */
    private void expire(long nowMs, int n) {
        Iterator<Map.Entry<String, Node>> it = nodes.entrySet().iterator();
        while (n < 3 && it.hasNext()) {
            Node lr = it.next().getValue();
            if (lr.count != 0) {
                return;
            }
            if (n++ != 0) {
                long ms = lr.lastIsZero ? Long.MAX_VALUE / 2 / spec.rate().milliPerSecond()
                        : Math.abs(nowMs - lr.last);
                if (ms < 60000) {
                    return;
                }
                if (lr.excess - spec.rate().milliPerSecond() * ms / 1000 > 0) {
                    return;
                }
            } else {
                forced++;
            }
            it.remove();
        }
    }
}
