package dev.ratecache.appserver.config;

import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationUnit;

/**
 * One endpoint of the origin.
 *
 * @param delay how long the request thread is held before answering
 * @param maxAge the {@code max-age} of the default {@code Cache-Control: public, max-age=N}; a bare
 *     number means seconds because that is the unit HTTP uses
 * @param cacheControl replaces the whole Cache-Control header when set; {@value #NO_CACHE_CONTROL}
 *     sends none, so the tiers fall back to their own defaults
 * @param setCookie sent as {@code Set-Cookie} when set, to show how the tiers treat personalised
 *     responses
 * @param xFrameOptions sent as {@code X-Frame-Options} when set, to show that the origin's own
 *     security headers win over the tiers' defaults
 * @param contentSecurityPolicy sent as {@code Content-Security-Policy} when set, likewise
 * @param age sent as {@code Age} in whole seconds when set, as a cache behind the tiers would
 * @param gzip whether the endpoint answers a request that accepts gzip with a gzip body of its
 *     own, with its own strong ETag and {@code Vary: Accept-Encoding} on every answer
 */
public record EndpointProperties(
        @DefaultValue("0ms") @DurationMin(nanos = 0, message = "must not be negative")
        Duration delay,

        @DefaultValue("0s") @DurationUnit(ChronoUnit.SECONDS) @DurationMin(nanos = 0, message = "must not be negative")
        Duration maxAge,

        @Pattern(regexp = AcceptedForms.SINGLE_LINE_PATTERN, message = "must be a single non-blank line")
        String cacheControl,

        @Pattern(regexp = AcceptedForms.SINGLE_LINE_PATTERN, message = "must be a single non-blank line")
        String setCookie,

        @Pattern(regexp = AcceptedForms.SINGLE_LINE_PATTERN, message = "must be a single non-blank line")
        String xFrameOptions,

        @Pattern(regexp = AcceptedForms.SINGLE_LINE_PATTERN, message = "must be a single non-blank line")
        String contentSecurityPolicy,

        @DurationUnit(ChronoUnit.SECONDS) @DurationMin(nanos = 0, message = "must not be negative")
        Duration age,

        @DefaultValue("false")
        boolean gzip) {

    public static final String NO_CACHE_CONTROL = "none";

    /** The Cache-Control value to send, or empty when none should be sent. */
    public Optional<String> cacheControlHeader() {
        if (cacheControl == null) {
            return Optional.of("public, max-age=" + maxAge.toSeconds());
        }
        if (NO_CACHE_CONTROL.equalsIgnoreCase(cacheControl.strip())) {
            return Optional.empty();
        }
        return Optional.of(cacheControl.strip());
    }

    public Optional<String> setCookieHeader() {
        return Optional.ofNullable(setCookie).map(String::strip);
    }

    public Optional<String> xFrameOptionsHeader() {
        return Optional.ofNullable(xFrameOptions).map(String::strip);
    }

    public Optional<String> contentSecurityPolicyHeader() {
        return Optional.ofNullable(contentSecurityPolicy).map(String::strip);
    }

    /** The Age value to send, in whole seconds, or empty when none should be sent. */
    public Optional<String> ageHeader() {
        return Optional.ofNullable(age).map(a -> Long.toString(a.toSeconds()));
    }
}
