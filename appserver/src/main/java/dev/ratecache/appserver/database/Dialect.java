package dev.ratecache.appserver.database;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

/**
 * What differs between the two databases the origin runs on: how a write returns the row it
 * wrote in the same statement, and how a run of numbers is generated for seeding. Everything else
 * the origin sends is SQL both take as it is.
 */
public enum Dialect {
    /** H2: a data change delta table, {@code SELECT ... FROM FINAL TABLE (UPDATE ...)}; SYSTEM_RANGE. */
    H2 {
        @Override
        public String returning(String change, String columns) {
            return "SELECT " + columns + " FROM FINAL TABLE (" + change + ")";
        }

        @Override
        public String numbers() {
            return "SYSTEM_RANGE(1, ?) AS n";
        }
    },
    /** PostgreSQL: {@code UPDATE ... RETURNING}; generate_series. */
    POSTGRESQL {
        @Override
        public String returning(String change, String columns) {
            return change + " RETURNING " + columns;
        }

        @Override
        public String numbers() {
            return "generate_series(1, ?) AS n(x)";
        }
    };

    /** {@code change} (an UPDATE or INSERT) as one statement that answers the rows it wrote, their {@code columns}. */
    public abstract String returning(String change, String columns);

    /** A FROM item of the whole numbers 1 to the statement's parameter, as the column {@code n.x}. */
    public abstract String numbers();

    /** The dialect of the database behind {@code metadata}; H2 or PostgreSQL, nothing else. */
    public static Dialect of(DatabaseMetaData metadata) throws SQLException {
        String product = metadata.getDatabaseProductName();
        if (product.toLowerCase(Locale.ROOT).contains("postgres")) {
            return POSTGRESQL;
        }
        if (product.toLowerCase(Locale.ROOT).contains("h2")) {
            return H2;
        }
        throw new IllegalStateException("the origin runs on H2 or PostgreSQL; spring.datasource.url names "
                + product + " (" + metadata.getURL() + ")");
    }
}
