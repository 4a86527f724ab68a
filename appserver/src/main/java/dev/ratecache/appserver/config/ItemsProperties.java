package dev.ratecache.appserver.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationUnit;

/**
 * The {@code /items} resource: rows of a real embedded database that writes change.
 *
 * @param count how many items are seeded at start-up, ids 1 to count. 10,000 is enough that a
 *     load spread over them misses every cache for a while, and seeds in milliseconds
 * @param queryCost added to every database statement while it holds its pooled connection. The
 *     embedded database answers in microseconds, which would make any cache in front look
 *     pointless; 5 ms is a round trip plus an indexed lookup on a database server elsewhere in the
 *     data centre under modest load, so a miss costs like one
 * @param maxAge the {@code max-age} of {@code GET /items/{id}}, with the origin's stale permissions
 *     added. 5 s, because items are edited: a cache in front may show the old version that long
 *     after a write, while a hot item read 100 times a second still reaches the origin only once
 *     every 5 s. A bare number means seconds; 0 makes every cache revalidate
 */
public record ItemsProperties(
        @DefaultValue("10000") @PositiveOrZero(message = "must not be negative")
        @Max(value = 10_000_000, message = "must be at most 10000000")
        int count,

        @DefaultValue("5ms") @DurationMin(nanos = 0, message = "must not be negative")
        Duration queryCost,

        @DefaultValue("5s") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(nanos = 0, message = "must not be negative")
        Duration maxAge) {
}
