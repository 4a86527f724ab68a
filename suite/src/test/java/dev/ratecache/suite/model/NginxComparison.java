package dev.ratecache.suite.model;

import dev.ratecache.model.Arrival;
import dev.ratecache.model.Decision;
import dev.ratecache.model.LimitReq;
import dev.ratecache.model.LimitReqSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Replays nginx's own access log through the model and compares, request by request, the
 * model's decision with nginx's {@code $limit_req_status}.
 *
 * <p>Arrival: nginx's {@code $msec} is the end of the request; the start is {@code $msec -
 * $request_time}, both read from nginx's cached clock, so it is exactly the
 * {@code ngx_current_msec} the request was limited at (the request is created and run through the
 * preaccess phase in the event-loop iteration that read its header).
 *
 * <p>Order: the log is written at the end of each request, so it is re-sorted by start. Requests
 * that started in the same millisecond were processed in an order the log cannot show; for one
 * key their excess only grows within that millisecond (ms = 0, +1000 each), so nginx handed out
 * PASSED, then DELAYED (growing delays), then REJECTED in processing order. Sorting ties by
 * nginx's status and then its request time restores that order.
 *
 * <p>Tolerance: a request whose decision flips when its arrival moves by up to 2 ms is at a
 * boundary. The log's times are wall-clock (ngx_timeofday) milliseconds while limit_req used the
 * monotonic ngx_current_msec of the same ngx_time_update; the two roll over to the next
 * millisecond at different instants, so a gap between two logged starts can be 1 ms off the gap
 * limit_req saw. That gap may be the one before the request's predecessor of the same key, which
 * set the bucket the request met: so the predecessor moves too, with every request of its key
 * logged in its millisecond (the request among them when it shares it), as long as each keeps
 * nginx's decision. A mismatch is tolerated only there, and the replay then follows nginx (keeps
 * the shifted times) so the state stays in step.
 */
final class NginxComparison {

    /**
     * How far a wall-clock and a monotonic reading of one instant can put it apart, in ms: the
     * logs' times may be off limit_req's by this much, and no more.
     */
    static final int CLOCKS_MS = 2;

    /** The moves tried for a time the clocks may have put off, nearest first. */
    static final int[] SHIFTS_MS = {-1, 1, -2, 2};

    /** One compared request. */
    record Row(Nginx.LogLine line, Decision model, boolean matched, boolean tolerated) {
    }

    private NginxComparison() {
    }

    static int rank(String status) {
        return switch (status) {
            case "PASSED" -> 0;
            case "DELAYED" -> 1;
            case "REJECTED" -> 2;
            default -> 3;
        };
    }

    static List<Nginx.LogLine> inProcessingOrder(List<Nginx.LogLine> lines) {
        List<Nginx.LogLine> sorted = new ArrayList<>(lines);
        sorted.sort(Comparator.comparingLong(Nginx.LogLine::startMs)
                .thenComparingInt(l -> rank(l.limitReqStatus()))
                .thenComparingLong(Nginx.LogLine::requestTimeMs));
        return sorted;
    }

    static List<Row> compare(List<Nginx.LogLine> log, LimitReqSpec spec, Function<Nginx.LogLine, String> key) {
        List<Nginx.LogLine> lines = inProcessingOrder(log);
        long[] times = new long[lines.size()];
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            times[i] = lines.get(i).startMs();
            Decision d = replay(lines, times, i, spec, key);
            String expected = lines.get(i).limitReqStatus();
            if (d.status().name().equals(expected)) {
                rows.add(new Row(lines.get(i), d, true, false));
                continue;
            }
            Decision shifted = shifted(lines, times, i, spec, key, List.of(i));
            if (shifted == null) {
                shifted = shifted(lines, times, i, spec, key, predecessorsMillisecond(lines, times, i, key));
            }
            rows.add(new Row(lines.get(i), shifted == null ? d : shifted, false, shifted != null));
        }
        return rows;
    }

    /**
     * Moves the requests {@code moved} together by 1 or 2 ms either way until request {@code i}
     * gets nginx's decision and each other moved request keeps it; keeps the first such move in
     * {@code times} and returns request {@code i}'s decision, or returns null and leaves the times.
     */
    private static Decision shifted(List<Nginx.LogLine> lines, long[] times, int i, LimitReqSpec spec,
                                    Function<Nginx.LogLine, String> key, List<Integer> moved) {
        if (moved.isEmpty()) {
            return null;
        }
        long[] original = times.clone();
        for (int shift : SHIFTS_MS) {
            for (int j : moved) {
                times[j] = original[j] + shift;
            }
            Decision d = replay(lines, times, i, spec, key);
            boolean othersKept = moved.stream().filter(j -> j != i).allMatch(j ->
                    replay(lines, times, j, spec, key).status().name().equals(lines.get(j).limitReqStatus()));
            if (othersKept && d.status().name().equals(lines.get(i).limitReqStatus())) {
                return d;
            }
            System.arraycopy(original, 0, times, 0, times.length);
        }
        return null;
    }

    /**
     * Request {@code i}'s last predecessor of the same key and every request of that key logged in
     * the predecessor's millisecond up to {@code i}; empty when the request is the key's first.
     */
    private static List<Integer> predecessorsMillisecond(List<Nginx.LogLine> lines, long[] times, int i,
                                                         Function<Nginx.LogLine, String> key) {
        String k = key.apply(lines.get(i));
        int p = i - 1;
        while (p >= 0 && !key.apply(lines.get(p)).equals(k)) {
            p--;
        }
        List<Integer> moved = new ArrayList<>();
        for (int j = 0; p >= 0 && j <= i; j++) {
            if (times[j] == times[p] && key.apply(lines.get(j)).equals(k)) {
                moved.add(j);
            }
        }
        return moved;
    }

    /** The model's decision for request {@code upTo}, replaying requests 0..upTo from a fresh zone. */
    private static Decision replay(List<Nginx.LogLine> lines, long[] times, int upTo, LimitReqSpec spec,
                                   Function<Nginx.LogLine, String> key) {
        LimitReq zone = new LimitReq(spec);
        Decision d = null;
        for (int j = 0; j <= upTo; j++) {
            d = zone.decide(key.apply(lines.get(j)), times[j]);
        }
        return d;
    }

    static String describe(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        long t0 = rows.isEmpty() ? 0 : rows.get(0).line().startMs();
        // The absolute start too, so that a failure's tables can be replayed in a unit test.
        b.append("ms after ").append(t0).append(System.lineSeparator());
        for (Row r : rows) {
            b.append(String.format("%6d %-6s %-14s nginx=%-8s model=%-8s delay=%5d rt=%5d %s%n",
                    r.line().startMs() - t0, r.line().id(), r.line().remoteAddr(), r.line().limitReqStatus(),
                    r.model().status(), r.model().delayMs(), r.line().requestTimeMs(),
                    r.matched() ? "" : r.tolerated() ? "(boundary)" : "MISMATCH"));
        }
        return b.toString();
    }
}
