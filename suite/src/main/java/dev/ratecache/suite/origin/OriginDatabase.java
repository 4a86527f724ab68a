package dev.ratecache.suite.origin;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The database behind the suite's own origin and its connection pool, as the run command and up
 * were given them (--origin-db, --db-pool, --db-acquire-timeout).
 *
 * @param kind           H2 in the origin's JVM, or the suite's own PostgreSQL
 * @param poolSize       the origin's pooled connections (origin.database.pool-size)
 * @param acquireTimeout a request's longest wait for one before the origin answers 504
 * @param poolGiven      whether --db-pool or --db-acquire-timeout was given: the pool's figures are
 *                       reported then, as they are with PostgreSQL
 */
public record OriginDatabase(Kind kind, int poolSize, Duration acquireTimeout, boolean poolGiven) {

    /** The origin's own defaults: H2, and the pool its application.yml sets. */
    public static OriginDatabase defaults() {
        return new OriginDatabase(Kind.H2, OriginDefaults.get().poolSize(), OriginDefaults.get().acquireTimeout(), false);
    }

    public enum Kind {
        H2, POSTGRES;

        /** As typed on the command line, listed in --help and in the error for a bad value. */
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public boolean postgres() {
        return kind == Kind.POSTGRES;
    }

    /** Whether a run reports the pool: with PostgreSQL, or when the pool was sized on the command line. */
    public boolean reported() {
        return postgres() || poolGiven;
    }

    /** The origin's arguments for the pool (the database's own, its URL, come from the running PostgreSQL). */
    public List<String> originArgs() {
        return List.of("--origin.database.pool-size=" + poolSize,
                "--origin.database.acquire-timeout=" + SpringDuration.format(acquireTimeout));
    }

    /** For the report's header and up's banner, e.g. "PostgreSQL 15, a pool of 10, acquire timeout 10s". */
    public String describe(String postgres) {
        return (postgres() ? postgres : "H2 in the origin's JVM") + ", a pool of " + poolSize + ", acquire timeout "
                + SpringDuration.format(acquireTimeout);
    }
}
