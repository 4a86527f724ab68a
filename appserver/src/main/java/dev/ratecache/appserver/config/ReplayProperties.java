package dev.ratecache.appserver.config;

import jakarta.validation.constraints.PositiveOrZero;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationUnit;

/**
 * The replay mode, in which the origin stands in for the site whose access log the suite replays:
 * it answers any path, with the delay and body size the suite learned from the log.
 *
 * @param pathsFile the per-path figures the suite wrote (CSV: {@code path,requests,delay_ms,body_bytes});
 *     unset, the origin serves only its endpoints
 * @param defaultDelay the delay of a path whose row has no delay (the log had no timing for it) and
 *     of a path the file does not list. 50 ms rather than 0: an origin that answers instantly has
 *     no capacity limit for the tiers in front to protect, whereas 50 ms on the 10 request threads
 *     caps it at about 200 responses per second, like a quick dynamic page
 * @param maxAge how long every replayed response is fresh ({@code Cache-Control: public, max-age=N});
 *     one figure for all paths because a log does not record what the origin sent. The suite's
 *     {@code --freshness} sets it. 10 s, the freshness of /tortoise, by default; a bare number means seconds
 * @param defaultBodyBytes the body size of a path the file does not list. A small page's worth: the
 *     file lists every path the log had, so only a hand-edited replay reaches this
 */
public record ReplayProperties(
        Path pathsFile,

        @DefaultValue("50ms") @DurationMin(nanos = 0, message = "must not be negative")
        Duration defaultDelay,

        @DefaultValue("10s") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(nanos = 0, message = "must not be negative")
        Duration maxAge,

        @DefaultValue("1024") @PositiveOrZero(message = "must not be negative")
        long defaultBodyBytes) {

    public boolean enabled() {
        return pathsFile != null;
    }
}
