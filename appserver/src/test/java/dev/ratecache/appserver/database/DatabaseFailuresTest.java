package dev.ratecache.appserver.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.ratecache.appserver.accounting.DatabaseCounters;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * What the origin answers when the database cannot serve a request, whichever of Spring's wrappers
 * the failure comes in: 504 for a pool with no free connection (as PostgREST), 502 for a database
 * that failed or cannot be reached, each counted.
 */
class DatabaseFailuresTest {

    private final DatabaseCounters counters = new DatabaseCounters();
    private final DatabaseFailures failures = new DatabaseFailures(counters, pool());

    private static HikariDataSource pool() {
        // Never started: no connection is asked of it.
        HikariDataSource pool = new HikariDataSource();
        pool.setMaximumPoolSize(3);
        pool.setConnectionTimeout(750);
        return pool;
    }

    /** Hikari's own words when every connection stayed busy: no cause. */
    private static SQLTransientConnectionException poolExhausted() {
        return new SQLTransientConnectionException("origin - Connection is not available, request timed out after 750ms.");
    }

    @Test
    void noFreeConnectionWithinTheAcquireTimeoutIs504CountedWhetherInATransactionOrNot() {
        ResponseEntity<?> inTransaction = failures.answer(
                new CannotCreateTransactionException("Could not open JDBC Connection for transaction", poolExhausted()));
        ResponseEntity<?> plain = failures.answer(
                new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection", poolExhausted()));

        assertThat(inTransaction.getStatusCode().value()).isEqualTo(504);
        assertThat(plain.getStatusCode().value()).isEqualTo(504);
        assertThat(inTransaction.getBody()).isEqualTo(Map.of("error",
                "no database connection freed up within 750 ms (a pool of 3)"));
        assertThat(inTransaction.getHeaders().getCacheControl()).isNull();
        assertThat(counters.timeouts()).isEqualTo(2);
        assertThat(counters.failures()).isZero();
    }

    @Test
    void aPoolWaitingOnADatabaseItCannotReachIs502WithTheDriversWords() {
        SQLException refused = new SQLException("Connection to 127.0.0.1:5432 refused.", "08001",
                new ConnectException("Connection refused"));
        SQLTransientConnectionException timeout = new SQLTransientConnectionException(
                "origin - Connection is not available, request timed out after 750ms.", "08001", refused);

        ResponseEntity<?> answer = failures.answer(new CannotGetJdbcConnectionException("Failed to obtain", timeout));

        assertThat(answer.getStatusCode().value()).isEqualTo(502);
        assertThat(answer.getBody()).isEqualTo(Map.of("error", "the database failed: Connection refused"));
        assertThat(counters.failures()).isEqualTo(1);
        assertThat(counters.timeouts()).isZero();
    }

    @Test
    void aBrokenConnectionIs502AndOnlyDatabaseFailuresAreAnswered() {
        ResponseEntity<?> answer = failures.answer(new DataAccessResourceFailureException("I/O error",
                new SQLException("An I/O error occurred while sending to the backend.\n  at line 2", "08006")));

        assertThat(answer.getStatusCode().value()).isEqualTo(502);
        assertThat(answer.getBody()).isEqualTo(Map.of("error",
                "the database failed: An I/O error occurred while sending to the backend. | at line 2"));
        assertThat(DatabaseFailures.isDatabase(new DataAccessResourceFailureException("x"))).isTrue();
        assertThat(DatabaseFailures.isDatabase(new IllegalStateException("a bug"))).isFalse();
    }
}
