package dev.ratecache.suite.kinds.edges;

import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EdgeProduct;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an edge's per-client limit did to a flood from one address, in the user's numbers: how much
 * it let through in the flood's first second, how much a second after that, and how long it
 * rejected without a break. Read from the front tier's events of the flooding client.
 *
 * @param firstSecond   admitted in the second from the flood's first arrival
 * @param afterPerSecond admitted per second from then to the flood's last arrival
 * @param longestRejectionMs the longest stretch of consecutive rejections, first to last arrival
 */
record EdgeBurst(long firstSecond, double afterPerSecond, long longestRejectionMs) {

    /** Of the busiest client in {@code front}; null when it sent for no longer than a second (nothing after the first). */
    static EdgeBurst of(List<EdgeEvent> front) {
        Map<String, Integer> perKey = new HashMap<>();
        front.forEach(e -> perKey.merge(e.key(), 1, Integer::sum));
        String flooder = perKey.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
        if (flooder == null) {
            return null;
        }
        List<EdgeEvent> sent = front.stream().filter(e -> e.key().equals(flooder))
                .sorted(Comparator.comparingLong(EdgeEvent::arrivalMs)).toList();
        long start = sent.get(0).arrivalMs();
        long last = sent.get(sent.size() - 1).arrivalMs();
        if (last - start <= 1000) {
            return null;
        }
        long first = 0;
        long after = 0;
        long longest = 0;
        Long stretchStart = null;
        for (EdgeEvent e : sent) {
            boolean admitted = e.limit() != EdgeEvent.Limit.REJECTED;
            if (admitted) {
                if (e.arrivalMs() < start + 1000) {
                    first++;
                } else {
                    after++;
                }
                stretchStart = null;
            } else {
                stretchStart = stretchStart == null ? e.arrivalMs() : stretchStart;
                longest = Math.max(longest, e.arrivalMs() - stretchStart);
            }
        }
        return new EdgeBurst(first, after * 1000.0 / (last - start - 1000), longest);
    }

    /** The report's sentence, for a flood at {@code multiple} times the front's {@code rate} with {@code burst}. */
    String sentence(EdgeProduct product, int multiple, int rate, int burst) {
        return String.format(Locale.ROOT, "%s's %s, flooded at %dx the rate from one address, admitted %d requests in"
                + " the first second (%.1fx the rate of %d r/s with burst %d), then %.0f a second (%.2fx the rate);"
                + " its longest stretch of rejections lasted %d ms", product.displayName(), product.limiter(), multiple,
                firstSecond, (double) firstSecond / rate, rate, burst, afterPerSecond, afterPerSecond / rate,
                longestRejectionMs);
    }
}
