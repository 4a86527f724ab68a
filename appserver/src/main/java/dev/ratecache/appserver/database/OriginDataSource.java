package dev.ratecache.appserver.database;

import com.zaxxer.hikari.HikariDataSource;
import dev.ratecache.appserver.config.DatabaseProperties;
import dev.ratecache.appserver.config.OriginProperties;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The origin's one connection pool: Spring Boot's own datasource (spring.datasource.url, username,
 * password; H2 in this JVM when no URL is given), sized by {@code origin.database}, which is
 * validated with the other origin properties. Declared here rather than through
 * {@code spring.datasource.hikari.*} because Hikari takes a bad timeout without a word (anything
 * under 250 ms becomes 30 s). Micrometer's Hikari meters bind to it as to Boot's own.
 */
@Configuration(proxyBeanMethods = false)
class OriginDataSource {

    static final String POOL_NAME = "origin";

    @Bean
    HikariDataSource dataSource(DataSourceProperties connection, OriginProperties origin) {
        HikariDataSource pool = connection.initializeDataSourceBuilder().type(HikariDataSource.class).build();
        DatabaseProperties sizing = origin.database();
        pool.setPoolName(POOL_NAME);
        pool.setMaximumPoolSize(sizing.poolSize());
        // A fixed pool: the connections a run measures are open before it starts, not opened by its first requests.
        pool.setMinimumIdle(sizing.poolSize());
        pool.setConnectionTimeout(sizing.acquireTimeout().toMillis());
        // Never longer than the acquire timeout: a dead database must not hold a request past it.
        pool.setValidationTimeout(Math.min(sizing.acquireTimeout().toMillis(), 5000));
        return pool;
    }
}
