package dev.ratecache.suite.migrate;

import dev.ratecache.model.Decision;
import dev.ratecache.model.LimitReqStatus;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.model.Limiter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two limits' models on the same traffic, request by request: the one a user has (nginx's limit_req)
 * and the one it moves to (the target product's nearest). Each request is decided by both, each
 * limit from its own fresh state; what differs is counted both ways, by client, and in spans of
 * seconds.
 *
 * @param traffic          what was decided
 * @param requests         how many requests
 * @param fromAllowed      how many the limit moved from allowed (at once or delayed)
 * @param toAllowed        how many the limit moved to allowed
 * @param allowedNotBefore allowed by the new limit, refused by the old
 * @param refusedNotBefore refused by the new limit, allowed by the old
 * @param delayedBefore    allowed by both, which the old limit delayed and the new passes at once
 * @param clients          per client with a request decided differently, in order of first difference
 */
public record LimitComparison(Traffic traffic, long requests, long fromAllowed, long toAllowed, long allowedNotBefore,
        long refusedNotBefore, long delayedBefore, List<ClientDifference> clients) {

    /** Which way a request was decided differently. */
    public enum Way {
        /** Allowed by the new limit and refused by the old. */
        ALLOWED_NOT_BEFORE,
        /** Refused by the new limit and allowed by the old. */
        REFUSED_NOT_BEFORE
    }

    /** Seconds with requests decided differently one way, merged while each follows the last within a second. */
    public record Span(Way way, long fromMs, long toMs, long requests) {}

    /** One client's requests decided differently, in spans in order of time. */
    public record ClientDifference(String key, long allowedNotBefore, long refusedNotBefore, List<Span> spans) {}

    /** Both limits on {@code traffic}: {@code from} the old one, {@code to} the new one. */
    public static LimitComparison of(Traffic traffic, LimitSpec from, LimitSpec to) {
        Limiter before = from.limiter();
        Limiter after = to.limiter();
        long fromAllowed = 0;
        long toAllowed = 0;
        long delayed = 0;
        Map<String, List<long[]>> differences = new LinkedHashMap<>();
        for (Traffic.Request r : traffic.requests()) {
            Decision b = before.decide(r.key(), r.timeMs());
            Decision a = after.decide(r.key(), r.timeMs());
            fromAllowed += b.accepted() ? 1 : 0;
            toAllowed += a.accepted() ? 1 : 0;
            if (b.accepted() && a.accepted() && b.status() == LimitReqStatus.DELAYED && a.status() != LimitReqStatus.DELAYED) {
                delayed++;
            }
            if (b.accepted() != a.accepted()) {
                differences.computeIfAbsent(r.key(), k -> new ArrayList<>())
                        .add(new long[] {r.timeMs(), a.accepted() ? 0 : 1});
            }
        }
        List<ClientDifference> clients = new ArrayList<>();
        long more = 0;
        long fewer = 0;
        for (Map.Entry<String, List<long[]>> e : differences.entrySet()) {
            long m = e.getValue().stream().filter(d -> d[1] == 0).count();
            long f = e.getValue().size() - m;
            more += m;
            fewer += f;
            clients.add(new ClientDifference(e.getKey(), m, f, spans(e.getValue(), traffic.startMs())));
        }
        return new LimitComparison(traffic, traffic.requests().size(), fromAllowed, toAllowed, more, fewer, delayed,
                List.copyOf(clients));
    }

    /**
     * One client's differences ({time, 0 allowed-not-before | 1 refused-not-before}, in time order) in spans,
     * each way on its own: a span goes on while the next difference of its way is in the same or the next
     * second (seconds counted from {@code startMs}), whatever the other way does between them. In order of
     * their starts.
     */
    static List<Span> spans(List<long[]> differences, long startMs) {
        List<Span> spans = new ArrayList<>();
        for (Way way : Way.values()) {
            long wanted = way == Way.ALLOWED_NOT_BEFORE ? 0 : 1;
            long from = 0;
            long to = 0;
            long n = 0;
            for (long[] d : differences) {
                if (d[1] != wanted) {
                    continue;
                }
                if (n > 0 && second(d[0], startMs) <= second(to, startMs) + 1) {
                    to = d[0];
                    n++;
                    continue;
                }
                if (n > 0) {
                    spans.add(new Span(way, from, to, n));
                }
                from = d[0];
                to = d[0];
                n = 1;
            }
            if (n > 0) {
                spans.add(new Span(way, from, to, n));
            }
        }
        spans.sort(java.util.Comparator.comparingLong(Span::fromMs).thenComparing(Span::way));
        return spans;
    }

    private static long second(long ms, long startMs) {
        return Math.floorDiv(ms - startMs, 1000);
    }

    /** Every span of one way, of every client, in order of time. */
    public List<Span> spans(Way way) {
        return clients.stream().flatMap(c -> c.spans().stream()).filter(s -> s.way() == way)
                .sorted(java.util.Comparator.comparingLong(Span::fromMs)).toList();
    }

    /** How many requests were decided differently, both ways. */
    public long differing() {
        return allowedNotBefore + refusedNotBefore;
    }
}
