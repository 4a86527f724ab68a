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
 * @param gzip whether the endpoint answers a request that accepts gzip with a gzip body of its
 *     own, with its own strong ETag and {@code Vary: Accept-Encoding} on every answer
 * @param age sent as {@code Age} in whole seconds when set, as if a cache upstream had held the
 *     response that long
 * @param dateOffset when set, the {@code Date} sent is this far from the origin's clock (negative
 *     is in the past), as an origin with a wrong clock or a response held elsewhere would send
 * @param expires sent as {@code Expires} verbatim when set, including values that are not dates
 * @param expiresAfterDate when set, {@code Expires} is the {@code Date} sent plus this
 * @param vary sent as {@code Vary} when set
 * @param cdnCacheControl sent as {@code CDN-Cache-Control} (RFC 9213) when set
 * @param lastModified sent as {@code Last-Modified} verbatim when set, beside the ETag, for
 *     requests that send both validators
 * @param writes whether unsafe methods (PUT, POST, DELETE, PATCH, extension methods) are accepted (204) rather than refused (405)
 * @param writeLocation when set, a write is answered 201 with this {@code Location}
 * @param hopByHopHeader when set, every answer sends this header (value {@code hop}) and names it in
 *     {@code Connection}: a hop-by-hop header, which no tier may store or pass on (RFC 9110 section 7.6.1)
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

        @DefaultValue("false")
        boolean gzip,

        @DurationUnit(ChronoUnit.SECONDS) @DurationMin(nanos = 0, message = "must not be negative")
        Duration age,

        @DurationUnit(ChronoUnit.SECONDS)
        Duration dateOffset,

        @Pattern(regexp = AcceptedForms.SINGLE_LINE_PATTERN, message = "must be a single non-blank line")
        String expires,

        @DurationUnit(ChronoUnit.SECONDS)
        Duration expiresAfterDate,

        @Pattern(regexp = AcceptedForms.SINGLE_LINE_PATTERN, message = "must be a single non-blank line")
        String vary,

        @Pattern(regexp = AcceptedForms.SINGLE_LINE_PATTERN, message = "must be a single non-blank line")
        String cdnCacheControl,

        @Pattern(regexp = AcceptedForms.SINGLE_LINE_PATTERN, message = "must be a single non-blank line")
        String lastModified,

        @DefaultValue("false")
        boolean writes,

        @Pattern(regexp = AcceptedForms.PATH_PATTERN, message = "must be a path starting with /")
        String writeLocation,

        @Pattern(regexp = AcceptedForms.HEADER_NAME_PATTERN, message = "must be a header name")
        String hopByHopHeader) {

    public static final String NO_CACHE_CONTROL = "none";

    /**
     * The endpoint's own Cache-Control, which replaces the origin's default; empty when none is
     * configured or it is {@value #NO_CACHE_CONTROL}. {@link OriginProperties#cacheControlOf} tells the two apart.
     */
    public Optional<String> ownCacheControlHeader() {
        if (cacheControl == null || NO_CACHE_CONTROL.equalsIgnoreCase(cacheControl.strip())) {
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

    public Optional<Duration> ageHeader() {
        return Optional.ofNullable(age);
    }

    public Optional<Duration> dateOffsetFromClock() {
        return Optional.ofNullable(dateOffset);
    }

    public Optional<String> expiresHeader() {
        return Optional.ofNullable(expires).map(String::strip);
    }

    public Optional<Duration> expiresAfterTheDate() {
        return Optional.ofNullable(expiresAfterDate);
    }

    public Optional<String> varyHeader() {
        return Optional.ofNullable(vary).map(String::strip);
    }

    public Optional<String> cdnCacheControlHeader() {
        return Optional.ofNullable(cdnCacheControl).map(String::strip);
    }

    public Optional<String> lastModifiedHeader() {
        return Optional.ofNullable(lastModified).map(String::strip);
    }

    public Optional<String> writeLocationHeader() {
        return Optional.ofNullable(writeLocation);
    }

    public Optional<String> hopByHopHeaderName() {
        return Optional.ofNullable(hopByHopHeader);
    }
}
