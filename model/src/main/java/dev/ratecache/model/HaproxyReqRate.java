package dev.ratecache.model;

import java.util.HashMap;
import java.util.Map;

/**
 * A per-client request rate limit in HAProxy 2.6, deciding as its freq_ctr code does, for the
 * configuration the suite writes:
 *
 * <pre>
 * stick-table type string size 1m expire EXPIRE store http_req_rate(PERIOD)
 * http-request track-sc0 KEY
 * http-request deny deny_status 429 if { sc_http_req_rate(0) gt LIMIT }
 * </pre>
 *
 * <p>Counting: the track-sc0 action (the ACT_ACTION_TRK_SC0..SCMAX case of
 * http_req_get_intercept_rule, src/http_ana.c) calls {@code update_freq_ctr_period(..., 1)} when
 * it starts tracking, before the deny rule reads the rate. So the rate a request is judged by includes itself, the
 * (LIMIT+1)th request of a window is the first denied, and a denied request still counts: a
 * client that keeps sending while refused keeps its own rate up and stays refused.
 *
 * <p>The window (update_freq_ctr_period, include/haproxy/freq_ctr.h): per key a current count,
 * the previous period's count and {@code curr_tick}, the start of the current period. When
 * {@code now_ms - curr_tick >= PERIOD} (unsigned 32-bit) the period rotates: the current count
 * becomes the previous one and {@code curr_tick += PERIOD}; if that still leaves a whole period
 * behind (two periods idle) the previous count is zeroed and {@code curr_tick = now_ms}. Either
 * way {@code curr_tick &= ~1}: bit 0 is the counter's lock, so periods start on even milliseconds
 * (a key's first period starts at its first request rounded down to even, and an odd PERIOD
 * slides the periods a millisecond earlier at each rotation). Periods stay aligned on the first
 * request's period while the key is busy; they do not follow each request.
 *
 * <p>The rate (sc_http_req_rate → read_freq_ctr_period → freq_ctr_total with pend = -1, in
 * src/freq_ctr.c): with {@code remain = curr_tick + PERIOD - now_ms}, the milliseconds of the
 * current period still to come, the rate is {@code (prev * remain + curr * PERIOD) / PERIOD},
 * rounded down ({@code div64_32}): the previous period weighs by the share of the window it still
 * covers, so a full previous period counts whole at the start of a period and the count a client
 * gets decays linearly through the next, not all at once at a boundary. If the read comes a whole
 * period late, the current count is read as the previous one with {@code remain += PERIOD}; two
 * periods late the rate is 0. Flapping correction: with no current count and a previous one of
 * at most 1, the rate is that previous count, unweighted. This sliding estimate is what confuses
 * users in haproxy/haproxy#1224: after a burst the client is still refused well into the next
 * period, and how long depends on where in its period the burst fell.
 *
 * <p>Expiry: the stick-table entry's expiry is pushed to {@code now + EXPIRE} whenever the track
 * touches it (stktable_touch_local); an entry idle for EXPIRE is purged and the key starts afresh
 * (a new entry's zeroed {@code curr_tick} makes the first update reset the period at now). It
 * matters only when EXPIRE is shorter than two periods; otherwise two idle periods zero the
 * counts anyway. The touch at the stream's end is taken as the request's time: the suite's
 * requests end within the millisecond they are denied or answered. The table's size is not
 * modelled (the model's table never fills).
 *
 * <p>Time: {@code now_ms} is the thread's clock cached per poll-loop iteration. Because periods
 * start on even milliseconds, the caller's clock must have now_ms's parity: HAProxy's
 * {@code date(0,ms)} sample at the decision, or any clock an even number of ms from it.
 */
public final class HaproxyReqRate implements Limiter {

    /** A stick-table entry's freq_ctr ({@code struct freq_ctr}) and when it was last touched. */
    private static final class Entry {
        long currTick;
        long curr;
        long prev;
        long touched;
    }

    private final long periodMs;
    private final long limit;
    private final long expireMs;
    private final Map<String, Entry> entries = new HashMap<>();

    /**
     * @param periodMs {@code http_req_rate(PERIOD)}, in ms (HAProxy's ticks)
     * @param limit    the deny rule's {@code gt LIMIT}: a request is denied when the rate,
     *                 itself included, is above it
     * @param expireMs the stick-table's {@code expire}, in ms
     */
    public HaproxyReqRate(long periodMs, long limit, long expireMs) {
        if (periodMs <= 0 || limit < 0 || expireMs <= 0) {
            throw new IllegalArgumentException("period and expire must be positive and limit not negative: "
                    + periodMs + ", " + limit + ", " + expireMs);
        }
        this.periodMs = periodMs;
        this.limit = limit;
        this.expireMs = expireMs;
    }

    /** Tracks the request (counting it) and denies it when the rate is then above the limit. */
    @Override
    public Decision decide(String key, long nowMs) {
        Entry e = entry(key, nowMs);
        e.touched = nowMs;
        update(e, nowMs);
        long rate = read(e, nowMs);
        return new Decision(rate > limit ? LimitReqStatus.REJECTED : LimitReqStatus.PASSED, 0, 0, 0);
    }

    /**
     * What {@code sc_http_req_rate} reads for {@code key} at {@code nowMs} without a request being
     * counted; 0 for a key the table does not hold.
     */
    public long rate(String key, long nowMs) {
        Entry e = entries.get(key);
        return e == null || expired(e, nowMs) ? 0 : read(e, nowMs);
    }

    private boolean expired(Entry e, long nowMs) {
        return nowMs - e.touched >= expireMs;
    }

    private Entry entry(String key, long nowMs) {
        Entry e = entries.get(key);
        if (e == null || expired(e, nowMs)) {
            e = new Entry();
            // A zeroed freq_ctr: its first update finds two periods gone and starts one at now.
            e.currTick = nowMs - 2 * periodMs;
            entries.put(key, e);
        }
        return e;
    }

    /** update_freq_ctr_period(ctr, period, 1). */
    private void update(Entry e, long nowMs) {
        if (Integer.toUnsignedLong((int) (nowMs - e.currTick)) >= periodMs) {
            e.prev = e.curr;
            e.curr = 0;
            e.currTick += periodMs;
            if (Integer.toUnsignedLong((int) (nowMs - e.currTick)) >= periodMs) {
                e.prev = 0;
                e.currTick = nowMs;
            }
            e.currTick &= ~1L;
        }
        e.curr++;
    }

    /** read_freq_ctr_period(ctr, period): freq_ctr_total(ctr, period, -1) / period. */
    private long read(Entry e, long nowMs) {
        long curr = e.curr;
        long past = e.prev;
        int remain = (int) (e.currTick + periodMs - nowMs);
        if (remain < 0) {
            remain += (int) periodMs;
            past = remain >= 0 ? curr : 0;
            curr = 0;
        }
        if (curr == 0 && past <= 1) {
            return past;
        }
        return (past * remain + curr * periodMs) / periodMs;
    }
}
