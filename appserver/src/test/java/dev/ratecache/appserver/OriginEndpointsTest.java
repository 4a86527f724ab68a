package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@OriginTest
class OriginEndpointsTest extends RunningOrigin {

    /** hare's delay is the default; tortoise's and snail's are the ones {@link OriginTest} configures. */
    @ParameterizedTest(name = "{0} waits its {1} ms delay before answering (within {2} ms)")
    @CsvSource({"hare, 100, 1000", "tortoise, 300, 2000", "snail, 400, 2000"})
    void endpointWaitsItsConfiguredDelayBeforeAnswering(String endpoint, long delayMs, long withinMs) {
        Timed<HttpResponse<String>> timed = Timed.of(() -> api.get("/" + endpoint));

        assertThat(timed.result().statusCode()).isEqualTo(200);
        assertThat(timed.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(delayMs))
                .isLessThan(Duration.ofMillis(withinMs));
    }

    @Test
    void answersSmallJsonNamingEndpointVersionAndServingTime() {
        Instant before = Instant.now();
        HttpResponse<String> response = api.get("/tortoise");

        JsonNode body = OriginHttp.json(response.body());
        assertThat(body.fieldNames()).toIterable().containsExactly("endpoint", "version", "servedAt");
        assertThat(body.get("endpoint").asText()).isEqualTo("tortoise");
        assertThat(body.get("version").asText()).isEqualTo("v1");
        assertThat(Instant.parse(body.get("servedAt").asText())).isBetween(before, Instant.now());
    }

    @ParameterizedTest(name = "{0} sends Cache-Control: public, max-age={1}, with the default stale permissions")
    @CsvSource({"hare, 3", "tortoise, 10", "snail, 60"})
    void sendsPublicCacheControlWithConfiguredMaxAge(String endpoint, int maxAge) {
        assertThat(api.get("/" + endpoint).headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=" + maxAge + ", stale-while-revalidate=60, stale-if-error=600");
    }

    @ParameterizedTest(name = "{0} sends ETag: \"{0}-v1\"")
    @ValueSource(strings = {"hare", "snail"})
    void sendsStrongEtagFromEndpointNameAndContentVersion(String endpoint) {
        assertThat(api.get("/" + endpoint).headers().allValues("ETag")).containsExactly("\"" + endpoint + "-v1\"");
    }

    @Test
    void sendsJsonContentType() {
        assertThat(api.get("/hare").headers().firstValue("Content-Type")).hasValue("application/json");
    }

    @Test
    void ignoresTheQueryString() {
        HttpResponse<String> response = api.get("/hare?n=17");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(OriginHttp.json(response.body()).get("endpoint").asText()).isEqualTo("hare");
        assertThat(management.getJson("/actuator/origin").at("/endpoints/hare/requests").asLong()).isEqualTo(1);
    }

    @Test
    void answers304WithEtagAndCacheControlButNoBodyWhenIfNoneMatchMatches() {
        HttpResponse<String> response = api.get("/hare", "If-None-Match", "\"hare-v1\"");

        assertThat(response.statusCode()).isEqualTo(304);
        assertThat(response.headers().allValues("ETag")).containsExactly("\"hare-v1\"");
        assertThat(response.headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=3, stale-while-revalidate=60, stale-if-error=600");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void notModifiedStillCostsTheDelay() {
        Timed<HttpResponse<String>> timed = Timed.of(() -> api.get("/tortoise", "If-None-Match", "\"tortoise-v1\""));

        assertThat(timed.result().statusCode()).isEqualTo(304);
        assertThat(timed.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @ParameterizedTest(name = "If-None-Match: {0} matches")
    @ValueSource(strings = {"\"other\", \"hare-v1\"", "W/\"hare-v1\"", "*"})
    void ifNoneMatchMatchesInAListAsWeakTagOrWildcard(String ifNoneMatch) {
        assertThat(api.get("/hare", "If-None-Match", ifNoneMatch).statusCode()).isEqualTo(304);
    }

    @Test
    void answers200WhenIfNoneMatchNamesAnotherVersion() {
        HttpResponse<String> response = api.get("/hare", "If-None-Match", "\"hare-v0\", \"tortoise-v1\"");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"endpoint\":\"hare\"");
    }

    @Test
    void unknownEndpointIs404AndCountedAsOther() {
        assertThat(api.get("/cheetah").statusCode()).isEqualTo(404);
        assertThat(management.getJson("/actuator/origin").at("/other/requests").asLong()).isEqualTo(1);
    }
}
