package dev.ratecache.appserver.config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationUnit;

/**
 * {@code /places}: postal-code-like rows (code, town, region) queried from the database, which
 * never change while the origin runs.
 *
 * @param maxAge the {@code max-age} of every answer, for private caches (browsers, the client
 *     library). Short, so that a client sees a new data set within seconds of a restart
 * @param sMaxage the {@code s-maxage}, for shared caches (the edge): a day, as the API of the
 *     HAProxy experiment this endpoint comes from sent. A bare number means seconds
 */
public record PlacesProperties(
        @DefaultValue("10s") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(nanos = 0, message = "must not be negative")
        Duration maxAge,

        @DefaultValue("1d") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(nanos = 0, message = "must not be negative")
        Duration sMaxage) {
}
