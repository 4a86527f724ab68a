package dev.ratecache.appserver.api;

import dev.ratecache.appserver.config.EndpointProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

/**
 * The headers an endpoint is configured to send besides Cache-Control: Age, Date, Expires, Vary,
 * CDN-Cache-Control, Last-Modified and a hop-by-hop header named in Connection, so that a test can put exactly
 * these on the wire and see what the caches in front make of them.
 */
final class ConfiguredHeaders {

    static final String CDN_CACHE_CONTROL = "CDN-Cache-Control";

    private ConfiguredHeaders() {
    }

    static <B extends ResponseEntity.HeadersBuilder<B>> B add(B response, EndpointProperties config, Clock clock) {
        config.ageHeader().ifPresent(age -> response.header(HttpHeaders.AGE, Long.toString(age.toSeconds())));
        dateToSend(config, clock).ifPresent(date -> {
            response.headers(h -> h.setDate(date.toEpochMilli()));
            config.expiresAfterTheDate().ifPresent(
                    lifetime -> response.headers(h -> h.setExpires(date.plus(lifetime).toEpochMilli())));
        });
        config.expiresHeader().ifPresent(value -> response.header(HttpHeaders.EXPIRES, value));
        config.varyHeader().ifPresent(value -> response.header(HttpHeaders.VARY, value));
        config.cdnCacheControlHeader().ifPresent(value -> response.header(CDN_CACHE_CONTROL, value));
        config.lastModifiedHeader().ifPresent(value -> response.header(HttpHeaders.LAST_MODIFIED, value));
        config.hopByHopHeaderName().ifPresent(name -> {
            response.header(name, "hop");
            response.header(HttpHeaders.CONNECTION, name);
        });
        return response;
    }

    /**
     * The Date to send when the endpoint's dates are configured; empty leaves it to the server.
     * Whole seconds, as the header carries them, so that Expires - Date is exactly as configured.
     */
    private static Optional<Instant> dateToSend(EndpointProperties config, Clock clock) {
        if (config.dateOffsetFromClock().isEmpty() && config.expiresAfterTheDate().isEmpty()) {
            return Optional.empty();
        }
        Duration offset = config.dateOffsetFromClock().orElse(Duration.ZERO);
        return Optional.of(clock.instant().truncatedTo(ChronoUnit.SECONDS).plus(offset));
    }
}
