package dev.ratecache.suite.matrix;

import dev.ratecache.suite.edge.EdgeEvent;
import java.util.List;

/** The edge cache's HIT share of the front end's answers, from the front tier's events (every edge's). */
public final class EdgeHitShare {
    private EdgeHitShare() {}

    /** In %; null for a cell without the edge cache or without a front end. */
    static Double of(Cell cell, TierLogs logs) {
        return logs.front() != null && cell.serverCache() ? hitPct(logs.front()) : null;
    }

    /** HITs over every answer the front gave; null when it gave none. */
    public static Double hitPct(List<EdgeEvent> front) {
        long hits = front.stream().filter(e -> e.cache() == EdgeEvent.Cache.HIT).count();
        return front.isEmpty() ? null : 100.0 * hits / front.size();
    }
}
