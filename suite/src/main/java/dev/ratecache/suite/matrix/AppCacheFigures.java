package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Sample;
import dev.ratecache.jtl.StaleReads;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.origin.OriginCounters;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/**
 * What the caches behind the edge did in a cell on /items (the hotset plan, or any cell with the
 * app cache): the origin's database queries and app-cache errors, Redis's hits and misses, the
 * stale reads the client saw.
 */
final class AppCacheFigures {
    private AppCacheFigures() {}

    /**
     * Null for other cells and for a user's origin, whose database and cache the suite can't see.
     *
     * @param counters the origin's counters after the run; null for a user's origin
     * @param redis    the app cache's redis-server; null for a cell without it
     * @param redisCpu its CPU seconds over the run
     */
    static CellMeasurement.Caches of(Cell cell, OriginCounters counters, RedisServer redis, Double redisCpu,
            List<Sample> samples, PrintWriter out) {
        boolean items = cell.plan().name().equals(Plan.HOTSET.name()) && cell.plan().userFile() == null;
        if (counters == null || counters.items() == null || !(items || cell.appCache())) {
            return null;
        }
        Double hits = null;
        Double misses = null;
        if (cell.appCache()) {
            try {
                RedisServer.Stats stats = redis.stats();
                hits = (double) stats.keyspaceHits();
                misses = (double) stats.keyspaceMisses();
            } catch (IOException gone) {
                // Redis stopped during the cell: its counters went with it; the origin's errors say what happened.
                out.println("  note: redis-server did not answer INFO stats after the run (" + gone.getMessage() + ")");
            }
        }
        OriginCounters.AppCache app = counters.items().appCache();
        return new CellMeasurement.Caches(hits, misses, (double) counters.items().database().queries(),
                cell.appCache() && app != null ? (double) app.errors() : null,
                app != null && app.errors() > 0 ? app.lastError() : null, redisCpu,
                items ? StaleReads.of(samples) : null);
    }
}
