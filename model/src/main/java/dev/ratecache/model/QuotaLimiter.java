package dev.ratecache.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A quota per key ({@link QuotaSpec}): N admitted requests per window of W, deciding as the
 * suite's Redis script does, on Redis's clock in milliseconds. Only admitted requests count: a
 * rejected one consumes nothing.
 *
 * <ul>
 *   <li><b>fixed</b>: window i = floor(t / W); admitted while the window's count is under N.</li>
 *   <li><b>calendar</b>: fixed when W divides a day; otherwise restarted at each UTC midnight, the
 *       day's last window short ({@link QuotaSpec#windowStart}).</li>
 *   <li><b>sliding</b>: with e = t - i·W, prev and cur the admitted counts of windows i - 1 and i,
 *       the estimate is prev·(W - e)/W + cur, and a request is admitted when estimate + 1 ≤ N.
 *       The model decides in exact integers (prev·(W - e) + (cur + 1)·W ≤ N·W), where the script's
 *       Lua has doubles: the two may part only where the estimate lands exactly on the limit.</li>
 * </ul>
 *
 * <p>Error bound of sliding: the estimate is exact when window i - 1's requests came evenly. A
 * request admitted at t leaves cur ≤ N - prev·(W - e)/W, and the true window (t - W, t] holds at
 * most prev of window i - 1's requests and cur of window i's, so at most N + prev·e/W < 2N, i.e.
 * 2N - 1 admitted requests: window i - 1's N all at its end, then N - 1 more just before that
 * window has slid by.
 *
 * <p>What the edge tells the client ({@link Answer}): remaining is N - cur after counting (fixed,
 * calendar) or max(0, floor(N - estimate)) after counting (sliding); reset is the whole seconds,
 * rounded up, until the current fixed (or calendar) window ends.
 *
 * <p>Not thread safe: the script runs atomically in Redis. Times must not go back to an earlier
 * window of a key than one it has already counted in (Redis's clock is one clock).
 */
public final class QuotaLimiter implements Limiter {

    /**
     * What the edge answers one request with.
     *
     * @param admitted     whether the quota let it through
     * @param remaining    RateLimit's r: what the quota has left after this request
     * @param resetSeconds RateLimit's t: whole seconds, rounded up, until the current window ends
     */
    public record Answer(boolean admitted, long remaining, long resetSeconds) {}

    /** Per key: the window counted in, its count, and (sliding) the previous window's. */
    private static final class Node {
        long window;
        long cur;
        long prev;
    }

    private final QuotaSpec spec;
    private final Map<String, Node> nodes = new HashMap<>();

    public QuotaLimiter(QuotaSpec spec) {
        this.spec = Objects.requireNonNull(spec);
    }

    public QuotaSpec spec() {
        return spec;
    }

    /** PASSED or REJECTED, as {@link #answer}. */
    @Override
    public Decision decide(String key, long nowMs) {
        return new Decision(answer(key, nowMs).admitted() ? LimitReqStatus.PASSED : LimitReqStatus.REJECTED, 0, 0, 0);
    }

    /** Decides one request of {@code key} at {@code nowMs} and counts it when admitted. */
    public Answer answer(String key, long nowMs) {
        long n = spec.limit();
        long w = spec.windowMs();
        long start = spec.windowStart(nowMs);
        long reset = ceilSeconds(spec.windowEnd(nowMs) - nowMs);
        Node node = nodes.computeIfAbsent(key, k -> {
            Node fresh = new Node();
            fresh.window = start;
            return fresh;
        });
        if (start < node.window) {
            throw new IllegalArgumentException("time went back to an earlier window for key " + key + ": " + nowMs);
        }
        if (start > node.window) {
            // Only the window just before counts for sliding; any older one has expired in Redis.
            node.prev = spec.mode() == QuotaWindow.SLIDING && start - w == node.window ? node.cur : 0;
            node.cur = 0;
            node.window = start;
        }
        if (spec.mode() != QuotaWindow.SLIDING) {
            boolean admitted = node.cur < n;
            if (admitted) {
                node.cur++;
            }
            return new Answer(admitted, n - node.cur, reset);
        }
        long e = nowMs - start;
        // The estimate times W, kept whole: prev·(W - e) + cur·W.
        boolean admitted = node.prev * (w - e) + (node.cur + 1) * w <= n * w;
        if (admitted) {
            node.cur++;
        }
        long estimateW = node.prev * (w - e) + node.cur * w;
        return new Answer(admitted, Math.max(0, Math.floorDiv(n * w - estimateW, w)), reset);
    }

    /** The sliding estimate for {@code key} at {@code nowMs}, before any request then; 0 for a key not seen. */
    public double estimate(String key, long nowMs) {
        Node node = nodes.get(key);
        long start = spec.windowStart(nowMs);
        if (node == null || start > node.window + spec.windowMs() || start < node.window) {
            return 0;
        }
        if (spec.mode() != QuotaWindow.SLIDING) {
            return start == node.window ? node.cur : 0;
        }
        long prev = start == node.window ? node.prev : node.cur;
        long cur = start == node.window ? node.cur : 0;
        return prev * (double) (spec.windowMs() - (nowMs - start)) / spec.windowMs() + cur;
    }

    private static long ceilSeconds(long ms) {
        return Math.floorDiv(ms + 999, 1000);
    }

    /**
     * One key's fixed (or calendar) window as a run of the quota saw it.
     *
     * @param key             the key
     * @param startMs         the window's start
     * @param endMs           its end (exclusive): earlier than start + W for calendar's short window
     * @param admitted        requests admitted in it
     * @param rejected        requests rejected in it, every one at or after {@code exhaustedMs}
     * @param exhaustedMs     when the quota ran out: the time of the window's first rejected request; -1 when none was
     * @param admittedAfter   requests admitted after that (sliding only: its estimate decays as the window goes on)
     */
    public record KeyWindow(String key, long startMs, long endMs, long admitted, long rejected, long exhaustedMs,
            long admittedAfter) {
        public boolean exhausted() {
            return exhaustedMs >= 0;
        }
    }

    /**
     * For each key and each window it sent requests in: what was admitted, when the quota ran out
     * and how much was rejected after that. Arrivals are taken in time order (the list's order
     * among equal times), keys as {@link Arrival#client()}; windows come out by key (first seen)
     * and time.
     */
    public static List<KeyWindow> windows(QuotaSpec spec, List<Arrival> arrivals) {
        List<Arrival> ordered = new ArrayList<>(arrivals);
        ordered.sort(Comparator.comparingLong(Arrival::timeMs));
        QuotaLimiter quota = new QuotaLimiter(spec);
        List<Decided> decided = new ArrayList<>();
        for (Arrival a : ordered) {
            decided.add(new Decided(a.client(), a.timeMs(), quota.answer(a.client(), a.timeMs()).admitted()));
        }
        return tally(spec, decided);
    }

    /** One request a quota decided: whose, when, and whether it was admitted. */
    public record Decided(String key, long timeMs, boolean admitted) {}

    /**
     * Decisions, the model's or a run's (what the edges logged), in time order, tallied per key and
     * fixed (or calendar) window as {@link #windows} gives them.
     */
    public static List<KeyWindow> tally(QuotaSpec spec, List<Decided> decisions) {
        Map<String, List<long[]>> byKey = new LinkedHashMap<>();
        for (Decided d : decisions) {
            List<long[]> ws = byKey.computeIfAbsent(d.key(), k -> new ArrayList<>());
            long start = spec.windowStart(d.timeMs());
            long[] cur = ws.isEmpty() ? null : ws.get(ws.size() - 1);
            if (cur == null || cur[0] != start) {
                // start, end, admitted, rejected, exhausted, admitted after
                cur = new long[] {start, spec.windowEnd(d.timeMs()), 0, 0, -1, 0};
                ws.add(cur);
            }
            if (d.admitted()) {
                cur[2]++;
                if (cur[4] >= 0) {
                    cur[5]++;
                }
            } else {
                cur[3]++;
                if (cur[4] < 0) {
                    cur[4] = d.timeMs();
                }
            }
        }
        List<KeyWindow> out = new ArrayList<>();
        byKey.forEach((key, ws) -> ws.forEach(c -> out.add(new KeyWindow(key, c[0], c[1], c[2], c[3], c[4], c[5]))));
        return out;
    }
}
