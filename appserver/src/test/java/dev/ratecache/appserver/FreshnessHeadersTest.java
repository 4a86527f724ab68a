package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The freshness headers besides Cache-Control that an endpoint can be told to send, exactly as configured. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.endpoints.aged.age=58",
    "origin.endpoints.skewed.date-offset=-3600s",
    "origin.endpoints.skewed.expires-after-date=60s",
    "origin.endpoints.dated.expires-after-date=60s",
    "origin.endpoints.badexpires.cache-control=none",
    "origin.endpoints.badexpires.expires=not a date",
    "origin.endpoints.varied.vary=Accept, *",
    "origin.endpoints.targeted.cdn-cache-control=max-age=2",
    "origin.endpoints.validated.last-modified=Mon, 02 Jan 2023 00:00:00 GMT"
})
@StackTest
class FreshnessHeadersTest {

    @LocalServerPort
    int port;

    OriginHttp api;

    @BeforeEach
    void connect() {
        api = new OriginHttp(port);
    }

    private static Instant httpDate(HttpResponse<?> response, String header) {
        return ZonedDateTime.parse(response.headers().firstValue(header).orElseThrow(),
                DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    }

    @Test
    void ageIsSentInWholeSeconds() {
        assertThat(api.get("/aged").headers().allValues("Age")).containsExactly("58");
    }

    @Test
    void dateOffsetMovesTheDateAndExpiresCountsFromIt() {
        Instant before = Instant.now();
        HttpResponse<String> response = api.get("/skewed");

        Instant date = httpDate(response, "Date");
        assertThat(response.headers().allValues("Date")).hasSize(1);
        assertThat(Duration.between(before, date).toSeconds()).isBetween(-3602L, -3598L);
        assertThat(Duration.between(date, httpDate(response, "Expires"))).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void expiresAfterDateAloneCountsFromTheCurrentDate() {
        HttpResponse<String> response = api.get("/dated");

        assertThat(Duration.between(Instant.now(), httpDate(response, "Date")).abs()).isLessThan(Duration.ofSeconds(3));
        assertThat(Duration.between(httpDate(response, "Date"), httpDate(response, "Expires")))
                .isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void expiresIsSentVerbatimEvenWhenItIsNoDate() {
        HttpResponse<String> response = api.get("/badexpires");

        assertThat(response.headers().allValues("Expires")).containsExactly("not a date");
        assertThat(response.headers().firstValue("Cache-Control")).isEmpty();
    }

    @Test
    void varyAndCdnCacheControlAreSentAsConfigured() {
        assertThat(api.get("/varied").headers().allValues("Vary")).containsExactly("Accept, *");
        HttpResponse<String> targeted = api.get("/targeted");
        assertThat(targeted.headers().allValues("CDN-Cache-Control")).containsExactly("max-age=2");
        // The default Cache-Control, with the origin's default stale permissions.
        assertThat(targeted.headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=0, stale-while-revalidate=60, stale-if-error=600");
    }

    @Test
    void lastModifiedIsSentVerbatimBesideTheEtag() {
        HttpResponse<String> validated = api.get("/validated");

        assertThat(validated.headers().allValues("Last-Modified")).containsExactly("Mon, 02 Jan 2023 00:00:00 GMT");
        assertThat(validated.headers().allValues("ETag")).containsExactly("\"validated-v1\"");
    }

    @Test
    void endpointsWithoutTheseSettingsSendNoneOfThem() {
        HttpResponse<String> response = api.get("/hare");

        assertThat(response.headers().map().keySet())
                .noneMatch(name -> name.equalsIgnoreCase("Age") || name.equalsIgnoreCase("Expires")
                        || name.equalsIgnoreCase("Vary") || name.equalsIgnoreCase("CDN-Cache-Control")
                        || name.equalsIgnoreCase("Last-Modified"));
    }
}
