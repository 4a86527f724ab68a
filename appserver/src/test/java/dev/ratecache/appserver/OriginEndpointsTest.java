package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

@OriginTest
class OriginEndpointsTest extends RunningOrigin {

    @Test
    void hareWaitsItsDelayBeforeAnswering() {
        Timed<HttpResponse<String>> timed = Timed.of(() -> api.get("/hare"));

        assertThat(timed.result().statusCode()).isEqualTo(200);
        assertThat(timed.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(100)).isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void tortoiseAndSnailWaitTheirConfiguredDelays() {
        Timed<HttpResponse<String>> tortoise = Timed.of(() -> api.get("/tortoise"));
        Timed<HttpResponse<String>> snail = Timed.of(() -> api.get("/snail"));

        assertThat(tortoise.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(Duration.ofSeconds(2));
        assertThat(snail.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(400)).isLessThan(Duration.ofSeconds(2));
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

    @Test
    void sendsPublicCacheControlWithConfiguredMaxAge() {
        assertThat(api.get("/hare").headers().allValues("Cache-Control")).containsExactly("public, max-age=3");
        assertThat(api.get("/tortoise").headers().allValues("Cache-Control")).containsExactly("public, max-age=10");
        assertThat(api.get("/snail").headers().allValues("Cache-Control")).containsExactly("public, max-age=60");
    }

    @Test
    void sendsStrongEtagFromEndpointNameAndContentVersion() {
        assertThat(api.get("/hare").headers().allValues("ETag")).containsExactly("\"hare-v1\"");
        assertThat(api.get("/snail").headers().allValues("ETag")).containsExactly("\"snail-v1\"");
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
        assertThat(response.headers().allValues("Cache-Control")).containsExactly("public, max-age=3");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void notModifiedStillCostsTheDelay() {
        Timed<HttpResponse<String>> timed = Timed.of(() -> api.get("/tortoise", "If-None-Match", "\"tortoise-v1\""));

        assertThat(timed.result().statusCode()).isEqualTo(304);
        assertThat(timed.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void ifNoneMatchMatchesInAListAsWeakTagOrWildcard() {
        assertThat(api.get("/hare", "If-None-Match", "\"other\", \"hare-v1\"").statusCode()).isEqualTo(304);
        assertThat(api.get("/hare", "If-None-Match", "W/\"hare-v1\"").statusCode()).isEqualTo(304);
        assertThat(api.get("/hare", "If-None-Match", "*").statusCode()).isEqualTo(304);
    }

    @Test
    void answers200WhenIfNoneMatchNamesAnotherVersion() {
        HttpResponse<String> response = api.get("/hare", "If-None-Match", "\"hare-v0\", \"tortoise-v1\"");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"endpoint\":\"hare\"");
    }

    @Test
    void unknownEndpointIs404AndNotCounted() {
        assertThat(api.get("/cheetah").statusCode()).isEqualTo(404);
        assertThat(management.getJson("/actuator/origin").at("/total/requests").asLong()).isZero();
    }
}
