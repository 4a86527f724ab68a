package dev.ratecache.appserver.places;

import dev.ratecache.appserver.database.Database;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Fills the places table (created by schema.sql) before the origin takes requests, unless it holds
 * them already: a PostgreSQL data folder that an earlier start left keeps its rows, and seeding
 * again must not double them. The rows follow from their number alone, so every start has the same.
 *
 * <p>Row n (1 to {@value #ROWS}) has the code {@code 1000 + (n - 1) / 5} (codes 1000 to 2999, five
 * towns each), the town {@code Town-n} and the region {@code R001} to {@code R200}, n's remainder
 * after 200 (fifty towns each): {@code /places?code=1227} answers 5 rows, {@code /places?region=R042} 50.
 */
@Component
public class PlaceSeed implements InitializingBean {

    static final int ROWS = 10_000;
    /** Towns per code, and per region: the small and the medium query's rows. */
    public static final int PER_CODE = 5;
    public static final int PER_REGION = 50;

    private final JdbcTemplate jdbc;
    private final Database database;
    private boolean seeded;

    PlaceSeed(JdbcTemplate jdbc, Database database) {
        this.jdbc = jdbc;
        this.database = database;
    }

    @Override
    public void afterPropertiesSet() {
        Integer rows = jdbc.queryForObject("SELECT COUNT(*) FROM places", Integer.class);
        if (rows != null && rows == ROWS) {
            return;
        }
        // Any other count is a seed that was cut short: start over.
        jdbc.update("DELETE FROM places");
        jdbc.update("INSERT INTO places (id, code, town, region) SELECT n.x, "
                + "CAST(1000 + (n.x - 1) / " + PER_CODE + " AS VARCHAR(8)), "
                + "'Town-' || CAST(n.x AS VARCHAR(8)), "
                + "'R' || LPAD(CAST(MOD(n.x - 1, " + ROWS / PER_REGION + ") + 1 AS VARCHAR(3)), 3, '0') "
                + "FROM " + database.dialect().numbers(), ROWS);
        seeded = true;
    }

    /** Whether this start wrote the rows, rather than finding them. */
    public boolean seeded() {
        return seeded;
    }

    public int rows() {
        return ROWS;
    }
}
