package dev.ratecache.appserver.database;

import java.sql.DatabaseMetaData;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** Which database the origin runs on, asked once at start-up: its dialect and its name and version, for the ready line and the counters. */
@Component
public class Database {

    private final Dialect dialect;
    private final String product;

    Database(JdbcTemplate jdbc) {
        record Found(Dialect dialect, String product) {}
        Found found = jdbc.execute((ConnectionCallback<Found>) connection -> {
            DatabaseMetaData metadata = connection.getMetaData();
            return new Found(Dialect.of(metadata), metadata.getDatabaseProductName() + " "
                    + metadata.getDatabaseProductVersion());
        });
        this.dialect = found.dialect();
        this.product = found.product();
    }

    public Dialect dialect() {
        return dialect;
    }

    /** For example "PostgreSQL 15.18 (Debian 15.18-0+deb12u1)" or "H2 2.3.232 (2024-08-11)". */
    public String product() {
        return product;
    }
}
