package dev.ratecache.appserver.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The connection pool in front of the origin's database (HikariCP, Spring Boot's default), whichever
 * database {@code spring.datasource.url} names: H2 in the origin's JVM when it names none.
 *
 * @param poolSize the most connections open at once. 10, Hikari's own default, is also the origin's
 *     default number of request threads, and a request holds one connection at a time: with the
 *     defaults no request waits for a connection, and a smaller pool makes the pool the limit
 * @param acquireTimeout how long a request waits for a free connection before the origin answers
 *     504, as PostgREST does with its {@code db-pool-acquisition-timeout} (whose default, 10 s, is
 *     this one's). At least 250 ms: Hikari replaces anything shorter with 30 s, silently
 */
public record DatabaseProperties(
        @DefaultValue("10") @Min(value = 1, message = "must be at least 1")
        @Max(value = 1000, message = "must be at most 1000")
        int poolSize,

        @DefaultValue("10s") @DurationMin(millis = 250, message = "must be at least 250ms")
        @DurationMax(minutes = 10, message = "must be at most 10m")
        Duration acquireTimeout) {
}
