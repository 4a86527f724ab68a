package dev.ratecache.suite.cli;

import dev.ratecache.suite.origin.OriginDatabase;
import dev.ratecache.suite.origin.OriginDefaults;
import dev.ratecache.suite.origin.SpringDuration;
import dev.ratecache.suite.switches.WholeNumber;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** --origin-db, --db-pool and --db-acquire-timeout: the suite's own origin's database, for the run command and up. */
final class DatabaseOptions implements WholeNumber.Flags {
    /** The suite's PostgreSQL allows 120 connections (PostgresServer.MAX_CONNECTIONS): room for this and its own. */
    private static final WholeNumber POOL = WholeNumber.of("--db-pool", 1, 100, "connections");
    /** Hikari replaces a shorter timeout with 30 s without a word. */
    private static final Duration SHORTEST = Duration.ofMillis(250);
    private static final Duration LONGEST = Duration.ofMinutes(10);

    @Option(names = "--origin-db", paramLabel = "DB",
            description = "${COMPLETION-CANDIDATES}. The database behind the suite's origin (/items, /places): h2 in"
                    + " its JVM, or postgres: the suite starts PostgreSQL 15 (Debian's) on a free port, in a cluster of"
                    + " its own under the run folder, as nobody when run as root, and stops it by its PID with the rest."
                    + " Default: ${DEFAULT-VALUE}.")
    OriginDatabase.Kind kind = OriginDatabase.Kind.H2;

    @Option(names = "--db-pool", paramLabel = "N",
            description = "The origin's database connections (HikariCP), 1 to 100. Default: ${DEFAULT-VALUE},"
                    + " Hikari's own and the origin's default request threads: a request holds one connection at a"
                    + " time, so none waits for one unless the pool is smaller than --origin-threads.")
    int poolSize = OriginDefaults.get().poolSize();

    @Option(names = "--db-acquire-timeout", paramLabel = "DURATION",
            description = "How long a request waits for a free connection before the origin answers 504, as PostgREST"
                    + " does; 250ms to 10m (a bare number is milliseconds). Default: ${DEFAULT-VALUE}, PostgREST's.")
    String acquireTimeout = SpringDuration.format(OriginDefaults.get().acquireTimeout());

    /** The refusals of the values given, one line each. */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        POOL.check(problems, poolSize);
        if (timeout() == null) {
            problems.add("--db-acquire-timeout must be a duration from 250ms to 10m, such as 2s or 500ms (got '"
                    + acquireTimeout + "')");
        }
        return problems;
    }

    /** Whether the user chose anything of the database, which a user's own origin (--origin URL) does not take. */
    boolean anyGiven(picocli.CommandLine.ParseResult parsed) {
        return parsed.hasMatchedOption("--origin-db") || poolGiven(parsed);
    }

    private static boolean poolGiven(picocli.CommandLine.ParseResult parsed) {
        return parsed.hasMatchedOption("--db-pool") || parsed.hasMatchedOption("--db-acquire-timeout");
    }

    /** What was chosen; only once {@link #problems()} found none. */
    OriginDatabase chosen(picocli.CommandLine.ParseResult parsed) {
        return new OriginDatabase(kind, poolSize, timeout(), poolGiven(parsed));
    }

    private Duration timeout() {
        return SpringDuration.parseWithin(acquireTimeout, ChronoUnit.MILLIS, SHORTEST, LONGEST).orElse(null);
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WholeNumber.byFlag(POOL);
    }
}
