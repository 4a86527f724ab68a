package dev.ratecache.appserver.items;

import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.database.Database;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Fills the items table (created by schema.sql) before the origin takes requests: ids 1 to
 * {@code origin.items.count}, each at version 1.
 *
 * <p>One INSERT ... SELECT over a run of numbers (H2's SYSTEM_RANGE, PostgreSQL's generate_series)
 * rather than a row per statement, so 10,000 items take milliseconds and even a million take
 * about a second. Spring Boot runs schema.sql before any bean that uses a JdbcTemplate is created,
 * so the table is there; on a PostgreSQL whose data folder an earlier start left, with the items
 * it left, which are replaced.
 */
@Component
public class ItemSeed implements InitializingBean {

    private final JdbcTemplate jdbc;
    private final Database database;
    private final int count;
    private long tookMillis;

    ItemSeed(JdbcTemplate jdbc, Database database, OriginProperties properties) {
        this.jdbc = jdbc;
        this.database = database;
        this.count = properties.items().count();
    }

    @Override
    public void afterPropertiesSet() {
        long start = System.nanoTime();
        reseed();
        tookMillis = (System.nanoTime() - start) / 1_000_000;
    }

    /**
     * Puts every item back as it was at start-up (ids 1 to count, version 1, the created ones gone),
     * so that a new measurement does not inherit the versions an earlier one wrote. Not counted as
     * database queries: it is the suite's reset, not the API's work.
     */
    public void reseed() {
        jdbc.update("DELETE FROM items");
        seed();
    }

    private void seed() {
        jdbc.update("INSERT INTO items (id, name, version, updated_at) "
                + "SELECT n.x, 'item-' || CAST(n.x AS VARCHAR(20)), 1, CURRENT_TIMESTAMP FROM "
                + database.dialect().numbers(), count);
        // Explicit ids do not move the identity on, so POST /items would collide with item 1.
        jdbc.execute("ALTER TABLE items ALTER COLUMN id RESTART WITH " + (count + 1L));
    }

    public int count() {
        return count;
    }

    public long tookMillis() {
        return tookMillis;
    }
}
