package dev.ratecache.appserver.items;

import dev.ratecache.appserver.accounting.DatabaseCounters;
import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.database.Database;
import dev.ratecache.appserver.database.Dialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The items table. Every method is one SQL statement, counted as a read or a write, and costs
 * {@code origin.items.query-cost} on top, spent while the statement's pooled connection is held,
 * as a round trip to a database server would hold it: the pool (Hikari's default 10) is then a
 * limit, as it is in a real app.
 *
 * <p>Writes are atomic in one statement: PostgreSQL's {@code UPDATE ... RETURNING}, or H2's form
 * of it, {@code FINAL TABLE (UPDATE ...)} ({@link Dialect}), so the version is incremented by the
 * database and the row read back is exactly the one this write produced, even with concurrent
 * writes to the same item.
 */
@Repository
public class ItemStore {

    private static final String COLUMNS = "id, name, version, updated_at";

    private static final RowMapper<Item> ITEM = ItemStore::item;

    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final TransactionTemplate transaction;
    private final DatabaseCounters counters;
    private final Duration queryCost;
    private final Clock clock = Clock.systemUTC();

    ItemStore(JdbcTemplate jdbc, Database database, PlatformTransactionManager transactions, DatabaseCounters counters,
            OriginProperties properties) {
        this.jdbc = jdbc;
        this.dialect = database.dialect();
        this.transaction = new TransactionTemplate(transactions);
        this.counters = counters;
        this.queryCost = properties.items().queryCost();
    }

    public Optional<Item> find(long id) {
        return statement(counters::read, () -> jdbc.query(
                "SELECT " + COLUMNS + " FROM items WHERE id = ?", ITEM, id).stream().findFirst());
    }

    /** Renames the item and increments its version; empty when there is no such item. */
    public Optional<Item> update(long id, String name) {
        return statement(counters::wrote, () -> jdbc.query(dialect.returning(
                "UPDATE items SET name = ?, version = version + 1, updated_at = ? WHERE id = ?", COLUMNS),
                ITEM, name, now(), id).stream().findFirst());
    }

    /** Whether there was such an item. */
    public boolean delete(long id) {
        return statement(counters::wrote, () -> jdbc.update("DELETE FROM items WHERE id = ?", id) > 0);
    }

    public Item create(String name) {
        return statement(counters::wrote, () -> jdbc.queryForObject(dialect.returning(
                "INSERT INTO items (name, version, updated_at) VALUES (?, 1, ?)", COLUMNS), ITEM, name, now()));
    }

    // In a transaction only so that the connection is taken from the pool before the cost is spent
    // and given back after the statement, as a real round trip would hold it.
    private <T> T statement(Runnable count, Supplier<T> sql) {
        count.run();
        return transaction.execute(status -> {
            spendQueryCost();
            return sql.get();
        });
    }

    private void spendQueryCost() {
        try {
            TimeUnit.NANOSECONDS.sleep(queryCost.toNanos());
        }
        catch (InterruptedException ex) {
            // Only a shutdown interrupts; run the statement anyway and let the container stop.
            Thread.currentThread().interrupt();
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock);
    }

    private static Item item(ResultSet row, int rowNumber) throws SQLException {
        OffsetDateTime updatedAt = row.getObject("updated_at", OffsetDateTime.class);
        return new Item(row.getLong("id"), row.getString("name"), row.getLong("version"),
                updatedAt.withOffsetSameInstant(ZoneOffset.UTC).toInstant());
    }
}
