package dev.ratecache.suite.kinds.edges;

import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EdgeProduct;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A flood from many addresses that the back refused although no client came near its own limit:
 * the edge cache sent its misses on, and the back's limit, counting all clients together, refused
 * most of them. Read from the cell's front and back events.
 *
 * @param requests          the front's answers
 * @param refused           of them, answered with the run's rejection status (--reject-status): refused by either
 *                          tier's limit
 * @param refusedByFront    of them, refused by the front's per-client limit
 * @param busiestPerSecond  the most any one client was admitted by the front in a second from its own first request
 * @param misses            the requests the edge cache sent on to the back
 * @param refusedByBack     of them, refused by the back's limit
 * @param emptyFromMs       from when (ms after the flood's first request) to its end the cache answered nothing:
 *                          the first request after its last hit; -1 when the last request was a hit
 */
record EdgeLockout(long requests, long refused, long refusedByFront, long busiestPerSecond, long misses,
        long refusedByBack, long emptyFromMs) {

    /** A share of the front's answers the back must refuse, the front almost none, for a lock-out. */
    static final double REFUSED_SHARE = 0.2;

    /**
     * Of a cell's tiers' events; null when the back refused little, or the front's own limit did the refusing.
     *
     * @param rejectStatus the status both tiers refuse with (--reject-status): another status, the origin's own 503
     *                     among them, is an answer, not a refusal
     */
    static EdgeLockout of(List<EdgeEvent> front, List<EdgeEvent> back, int rejectStatus) {
        if (front.isEmpty()) {
            return null;
        }
        List<EdgeEvent> sent = front.stream().sorted(Comparator.comparingLong(EdgeEvent::arrivalMs)).toList();
        long start = sent.get(0).arrivalMs();
        long refusedByFront = sent.stream().filter(e -> e.limit() == EdgeEvent.Limit.REJECTED).count();
        long refused = sent.stream().filter(e -> e.status() == rejectStatus).count();
        long misses = sent.stream().filter(e -> e.cache() == EdgeEvent.Cache.MISS || e.cache() == EdgeEvent.Cache.EXPIRED)
                .count();
        long refusedByBack = back.stream().filter(e -> e.limit() == EdgeEvent.Limit.REJECTED).count();
        if (refusedByBack < REFUSED_SHARE * sent.size() || refusedByFront > refusedByBack / 10) {
            return null;
        }
        Map<String, Long> firstOf = new HashMap<>();
        Map<String, Map<Long, Long>> perSecond = new HashMap<>();
        long busiest = 0;
        for (EdgeEvent e : sent) {
            if (e.limit() == EdgeEvent.Limit.REJECTED) {
                continue;
            }
            long first = firstOf.computeIfAbsent(e.key(), k -> e.arrivalMs());
            long n = perSecond.computeIfAbsent(e.key(), k -> new HashMap<>())
                    .merge((e.arrivalMs() - first) / 1000, 1L, Long::sum);
            busiest = Math.max(busiest, n);
        }
        long lastHit = sent.stream().filter(e -> e.cache() == EdgeEvent.Cache.HIT).mapToLong(EdgeEvent::arrivalMs)
                .max().orElse(start - 1);
        // The first request after the last hit: from it on, every one missed.
        long emptyFrom = sent.stream().mapToLong(EdgeEvent::arrivalMs).filter(t -> t > lastHit).map(t -> t - start)
                .min().orElse(-1);
        return new EdgeLockout(sent.size(), refused, refusedByFront, busiest, misses, refusedByBack, emptyFrom);
    }

    /** The report's sentence, for a front limit of {@code rate} with {@code burst}. */
    String sentence(EdgeProduct product, int rate, int burst) {
        java.util.Set<Capability> can = product.capabilities();
        boolean caches = can.contains(Capability.CACHE);
        String sent = caches
                ? String.format(Locale.ROOT, "the edge cache sent %d misses on to the back", misses)
                : String.format(Locale.ROOT, "%s has no cache, so the %d requests its front admitted went on to the back",
                        product.displayName(), requests - refusedByFront);
        String counted = product.limiterCountsDenials()
                ? String.format(Locale.ROOT, "; its %s counts the requests it denies, so while misses come faster than"
                        + " the back's rate its window never empties, and no answer comes back to be stored.",
                        product.limiter())
                : ".";
        String why = !caches || can.contains(Capability.CACHE_LOCK)
                ? ""
                : String.format(Locale.ROOT, " %s's cache cannot %s, so every miss that arrives while a fetch is under"
                        + " way goes on to the back%s", product.displayName(), Capability.CACHE_LOCK.label(), counted);
        String empty = !caches || emptyFromMs < 0 ? ""
                : String.format(Locale.ROOT, " The cache answered nothing from %d ms to the flood's end.", emptyFromMs);
        return String.format(Locale.ROOT, "no client came near its own limit (the busiest was admitted %d in a second,"
                + " of rate + burst %d), yet %.1f %% of the %d requests were refused: %s, whose limit, counting every"
                + " client together, refused %d of them.%s%s", busiestPerSecond, rate + burst, 100.0 * refused / requests,
                requests, sent, refusedByBack, why, empty);
    }
}
