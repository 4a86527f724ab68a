package dev.ratecache.appserver.database;

import com.zaxxer.hikari.HikariDataSource;
import dev.ratecache.appserver.accounting.DatabaseCounters;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionException;

/**
 * The answer to a request the database could not serve, counted: 504 when no pooled connection
 * freed up within the acquire timeout (the pool is exhausted: PostgREST answers the same), 502 when
 * the database failed or cannot be reached (a connection broke, or none can be opened), as a proxy
 * answers for an upstream that failed. PostgREST says 503 there, but in this suite 503 is a rate
 * limit's rejection, and the client's figures count it as one: a dead database must show as
 * errors. Neither carries cache headers, so nothing in front stores it in place of the content.
 */
@Component
public class DatabaseFailures {

    private final DatabaseCounters counters;
    private final HikariDataSource pool;

    DatabaseFailures(DatabaseCounters counters, HikariDataSource pool) {
        this.counters = counters;
        this.pool = pool;
    }

    /** Whether {@code failure} came from the database or the pool in front of it, and so gets {@link #answer}. */
    public static boolean isDatabase(RuntimeException failure) {
        return failure instanceof DataAccessException || failure instanceof TransactionException;
    }

    /** The counted answer to a request that {@code failure} (a {@link #isDatabase} one) stopped. */
    public ResponseEntity<?> answer(RuntimeException failure) {
        if (poolTimedOut(failure)) {
            counters.timedOut();
            return ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT).contentType(MediaType.APPLICATION_JSON)
                    .body(Map.of("error", "no database connection freed up within "
                            + pool.getConnectionTimeout() + " ms (a pool of " + pool.getMaximumPoolSize() + ")"));
        }
        String what = oneLine(failure);
        counters.failed(what);
        return ResponseEntity.status(HttpStatus.BAD_GATEWAY).contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("error", "the database failed: " + what));
    }

    /**
     * Hikari's timeout, with no cause: every connection was busy. With a cause (the last attempt to
     * open a connection failed) the pool was waiting on a database it cannot reach, which is a 502.
     */
    static boolean poolTimedOut(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException timeout) {
                return timeout.getCause() == null;
            }
        }
        return false;
    }

    /** The deepest message, on one line: what the driver said, not Spring's wrapping of it. */
    static String oneLine(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.strip().replaceAll("\\s*\\n\\s*", " | ");
    }
}
