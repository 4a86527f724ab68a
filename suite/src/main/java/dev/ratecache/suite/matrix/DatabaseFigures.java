package dev.ratecache.suite.matrix;

import dev.ratecache.suite.origin.OriginCounters;
import dev.ratecache.suite.origin.OriginDatabase;
import java.util.Locale;

/**
 * What the origin's database and its pool did in a cell, when the run reports them (--origin-db
 * postgres, or the pool sized with --db-pool or --db-acquire-timeout): the requests it could not
 * answer from the database, and the waits for a connection.
 *
 * @param poolSize       the pool's connections
 * @param acquireTimeout the acquire timeout, as given (e.g. "10s")
 * @param timeouts       requests the origin answered 504: no connection freed up within the acquire timeout
 * @param failures       requests it answered 502: the database failed or could not be reached
 * @param lastFailure    the last of those, in the driver's words; null when none
 * @param acquireMeanMs  the mean wait for a connection; null when none was handed out
 * @param activePeak     the most connections lent at once in the once-a-second readings; null without one
 * @param queries        statements sent to the database (/items and /places)
 * @param holdMeanMs     the mean time a request held its connection: the query's service time as the pool
 *                       saw it (Micrometer's hikaricp.connections.usage); null when none was given back
 */
public record DatabaseFigures(long poolSize, String acquireTimeout, long timeouts, long failures, String lastFailure,
        Double acquireMeanMs, Long activePeak, long queries, Double holdMeanMs) implements KindFigures {

    /** Null when the origin's counters have no database part (an older origin). */
    static DatabaseFigures of(OriginCounters counters, Long activePeak, OriginDatabase database) {
        OriginCounters.DatabasePart d = counters == null ? null : counters.database();
        if (d == null || d.pool() == null) {
            return null;
        }
        Double mean = d.pool().acquisitions() == 0 ? null : d.pool().acquireMsTotal() / d.pool().acquisitions();
        Double hold = d.pool().usages() == 0 ? null : d.pool().usageMsTotal() / d.pool().usages();
        return new DatabaseFigures(d.pool().max(), dev.ratecache.suite.origin.SpringDuration.format(
                database.acquireTimeout()), d.timeouts(), d.failures(), d.lastFailure(), mean, activePeak, d.queries(),
                hold);
    }

    /** Whether the origin answered any request without the database. */
    public boolean unanswered() {
        return timeouts > 0 || failures > 0;
    }

    /** The report's and the terminal's words for a cell whose origin answered 504s or 502s: counted, not hidden. */
    public String describeUnanswered() {
        StringBuilder words = new StringBuilder();
        if (timeouts > 0) {
            words.append(String.format(Locale.ROOT, "the origin answered %d requests 504: no database connection freed"
                    + " up within %s (a pool of %d)", timeouts, acquireTimeout, poolSize));
        }
        if (failures > 0) {
            words.append(words.isEmpty() ? "the origin answered " : "; and ").append(String.format(Locale.ROOT,
                    "%d requests 502: the database failed or could not be reached%s", failures,
                    lastFailure == null ? "" : " (last: " + lastFailure + ")"));
        }
        return words.toString();
    }

    /** For the cell's line on the terminal. */
    String terminalText() {
        return String.format(Locale.ROOT, ", database 504s %d, 502s %d, pool wait %s ms, active peak %s of %d", timeouts,
                failures, acquireMeanMs == null ? "n/a" : String.format(Locale.ROOT, "%.1f", acquireMeanMs),
                activePeak == null ? "n/a" : activePeak, poolSize);
    }
}
