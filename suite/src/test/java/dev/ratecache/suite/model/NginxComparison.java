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
 * limit_req saw. A mismatch is tolerated only there, and the replay then follows nginx (keeps
 * the shifted time) so the state stays in step.
 */
final class NginxComparison {

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
            boolean tolerated = false;
            for (int shift : new int[] {-1, 1, -2, 2}) {
                long original = times[i];
                times[i] = original + shift;
                Decision shifted = replay(lines, times, i, spec, key);
                if (shifted.status().name().equals(expected)) {
                    tolerated = true;
                    d = shifted;
                    break;
                }
                times[i] = original;
            }
            rows.add(new Row(lines.get(i), d, false, tolerated));
        }
        return rows;
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
        for (Row r : rows) {
            b.append(String.format("%6d %-14s nginx=%-8s model=%-8s delay=%5d rt=%5d %s%n",
                    r.line().startMs() - t0, r.line().remoteAddr(), r.line().limitReqStatus(),
                    r.model().status(), r.model().delayMs(), r.line().requestTimeMs(),
                    r.matched() ? "" : r.tolerated() ? "(boundary)" : "MISMATCH"));
        }
        return b.toString();
    }
}
