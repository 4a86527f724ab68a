package dev.ratecache.appserver.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationUnit;
import org.springframework.validation.annotation.Validated;

/**
 * The origin's content: which endpoints exist, how long each takes and how it may be cached.
 *
 * <p>Unknown fields are refused so that a typo such as {@code delai} stops start-up instead of
 * silently measuring the default.
 *
 * <p>{@code staleWhileRevalidate} and {@code staleIfError} are the origin's permission to caches
 * to serve a response after it expired (RFC 5861, RFC 9111 section 4.2.4): while they refresh it,
 * and while the origin fails. They are added to every endpoint's default
 * {@code Cache-Control: public, max-age=N}; zero sends none; an endpoint's own
 * {@code cache-control} replaces the whole header, these included. A bare number means seconds.
 *
 * <p>{@code replay} turns on the replay mode, in which the origin answers any path.
 *
 * <p>{@code items} is the database-backed {@code /items} resource. {@code appCache} puts a Redis
 * cache-aside in front of its reads ({@code off} by default, so the origin needs no Redis), with
 * entries kept for {@code appCacheTtl}: 30 s, longer than the items' max-age, so that the app
 * cache absorbs the refreshes of the caches in front while a write, which evicts, is still seen at
 * once. The TTL bounds how long a read that raced a write can leave an old version in Redis.
 *
 * <p>{@code places} is the read-only {@code /places} queries; {@code database} the connection pool
 * both resources share.
 */
@Validated
@ConfigurationProperties(prefix = OriginProperties.PREFIX, ignoreUnknownFields = false)
public record OriginProperties(
        @DefaultValue("v1")
        @NotNull
        @Pattern(regexp = AcceptedForms.CONTENT_VERSION_PATTERN, message = "not a valid content version")
        String contentVersion,

        @DefaultValue
        @NotNull
        Map<@Pattern(regexp = AcceptedForms.ENDPOINT_NAME_PATTERN, message = "not a valid endpoint name") String,
            @Valid @NotNull EndpointProperties> endpoints,

        @DefaultValue("0s") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(nanos = 0, message = "must not be negative")
        Duration staleWhileRevalidate,

        @DefaultValue("0s") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(nanos = 0, message = "must not be negative")
        Duration staleIfError,

        @DefaultValue
        @NotNull
        @Valid
        ReplayProperties replay,

        @DefaultValue
        @NotNull
        @Valid
        ItemsProperties items,

        @DefaultValue
        @NotNull
        @Valid
        PlacesProperties places,

        @DefaultValue
        @NotNull
        @Valid
        DatabaseProperties database,

        @DefaultValue("off")
        @NotNull
        AppCacheMode appCache,

        @DefaultValue("30s") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(millis = 1, message = "must be positive")
        Duration appCacheTtl) {

    public static final String PREFIX = "origin";

    /** The Cache-Control {@code endpoint} sends, or empty when it sends none. */
    public Optional<String> cacheControlOf(EndpointProperties endpoint) {
        if (endpoint.cacheControl() != null) {
            return endpoint.ownCacheControlHeader();
        }
        return Optional.of(publicCacheControl(endpoint.maxAge()));
    }

    /**
     * The origin's default Cache-Control for a response fresh for {@code maxAge}, with the stale
     * permissions; every endpoint without its own Cache-Control and every replayed path send it.
     */
    public String publicCacheControl(Duration maxAge) {
        return "public, max-age=" + maxAge.toSeconds()
                + directive("stale-while-revalidate", staleWhileRevalidate)
                + directive("stale-if-error", staleIfError);
    }

    /**
     * As {@link #publicCacheControl(Duration)}, with a separate lifetime for shared caches
     * ({@code s-maxage}, RFC 9111 section 5.2.2.10), which the edge takes in place of max-age.
     */
    public String sharedCacheControl(Duration maxAge, Duration sMaxage) {
        return "public, max-age=" + maxAge.toSeconds() + ", s-maxage=" + sMaxage.toSeconds()
                + directive("stale-while-revalidate", staleWhileRevalidate)
                + directive("stale-if-error", staleIfError);
    }

    private static String directive(String name, Duration value) {
        return value.isZero() ? "" : ", " + name + "=" + value.toSeconds();
    }
}
