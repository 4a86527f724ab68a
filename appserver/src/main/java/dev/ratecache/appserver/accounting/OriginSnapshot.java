package dev.ratecache.appserver.accounting;

import dev.ratecache.appserver.accounting.ItemsAccounting.ItemsSnapshot;
import dev.ratecache.appserver.database.PoolMeters;
import java.util.Map;

/**
 * The body of {@code GET /actuator/origin}: {@code total} counts every request that reached the
 * origin, the {@code endpoints}' and {@code other}'s; {@code items} details the database-backed resource;
 * {@code database} the database both /items and /places use, and its pool.
 */
public record OriginSnapshot(Counts total, Map<String, Counts> endpoints, Other other, ItemsSnapshot items,
        DatabasePart database) {

    /** Requests no endpoint took: unknown paths (404), methods an endpoint does not take (405). */
    public record Other(long requests) {
    }

    /**
     * The database behind /items and /places, since the last reset.
     *
     * @param product     its name and version, e.g. "PostgreSQL 15.18 (Debian 15.18-0+deb12u1)"
     * @param queries     statements sent: /items reads and writes and /places queries
     * @param timeouts    requests answered 504: no pooled connection freed up within the acquire timeout
     * @param failures    requests answered 502: the database failed or could not be reached
     * @param lastFailure the last of those, in the driver's words; null when none
     * @param pool        the connection pool, from Micrometer's HikariCP meters
     */
    public record DatabasePart(String product, long queries, long timeouts, long failures, String lastFailure,
            PoolMeters.Figures pool) {
    }
}
