package dev.ratecache.suite.matrix;

import java.io.IOException;

/** The edge cache's HIT share of the front end's answers, from the edges' access logs. */
final class EdgeHitShare {
    private EdgeHitShare() {}

    /** In %; null for a cell without the edge cache or without a front end. */
    static Double of(Cell cell, TierLogs logs) throws IOException {
        return logs.front() != null && cell.serverCache() ? EdgeLog.hitPct(logs.fronts()) : null;
    }
}
