package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@OriginTest
class OriginManagementTest extends RunningOrigin {

    @AfterEach
    void removeInjectedFaults() {
        management.delete("/actuator/origin");
    }

    JsonNode origin() {
        return management.getJson("/actuator/origin");
    }

    @Test
    void reportsCountsInTheShapeTheSuiteParses() {
        JsonNode origin = origin();

        assertThat(origin.fieldNames()).toIterable().containsExactly("total", "endpoints", "other", "items", "database");
        assertThat(origin.get("other").fieldNames()).toIterable().containsExactly("requests");
        assertThat(origin.get("endpoints").fieldNames()).toIterable()
                .containsExactlyInAnyOrder("hare", "tortoise", "snail", "items", "places");
        assertThat(origin.get("database").fieldNames()).toIterable()
                .containsExactly("product", "queries", "timeouts", "failures", "lastFailure", "pool");
        assertThat(origin.at("/database/pool").fieldNames()).toIterable().containsExactly("max", "active", "idle",
                "pending", "acquisitions", "acquireMsTotal", "acquireMsMax", "timeouts", "usages", "usageMsTotal");
        assertThat(origin.at("/database/product").asText()).startsWith("H2 ");
        assertThat(origin.at("/database/pool/max").asLong()).isEqualTo(10);
        assertThat(origin.get("items").fieldNames()).toIterable()
                .containsExactly("requests", "database", "appCache");
        assertThat(origin.at("/items/database").fieldNames()).toIterable().containsExactly("reads", "writes");
        for (JsonNode counts : List.of(origin.get("total"), origin.at("/endpoints/hare"))) {
            assertThat(counts.fieldNames()).toIterable()
                    .containsExactly("requests", "notModified", "inFlight", "peakInFlight");
        }
    }

    @Test
    void countsRequestsPerEndpointAndInTotal() {
        api.get("/hare");
        api.get("/hare?n=2");
        api.get("/tortoise");

        JsonNode origin = origin();
        assertThat(origin.at("/endpoints/hare/requests").asLong()).isEqualTo(2);
        assertThat(origin.at("/endpoints/tortoise/requests").asLong()).isEqualTo(1);
        assertThat(origin.at("/endpoints/snail/requests").asLong()).isZero();
        assertThat(origin.at("/other/requests").asLong()).isZero();
        assertThat(origin.at("/total/requests").asLong()).isEqualTo(3);
    }

    @Test
    void countsRequestsNoEndpointTookAsOtherAndInTheTotal() {
        assertThat(api.get("/cheetah").statusCode()).isEqualTo(404);
        assertThat(api.get("/hare/and/more").statusCode()).isEqualTo(404);
        assertThat(api.put("/hare", "x").statusCode()).isEqualTo(405);
        api.get("/hare");

        JsonNode origin = origin();
        assertThat(origin.at("/other/requests").asLong()).isEqualTo(3);
        assertThat(origin.at("/endpoints/hare/requests").asLong()).isEqualTo(1);
        assertThat(origin.at("/total/requests").asLong()).isEqualTo(4);
        assertThat(origin.at("/total/inFlight").asInt()).isZero();
    }

    @Test
    void readingAndResettingTheCountersIsNotCounted() {
        origin();
        management.get("/actuator/prometheus");
        management.delete("/actuator/origin");
        origin();

        assertThat(origin().at("/total/requests").asLong()).isZero();
    }

    @Test
    void counts304sSeparatelyAsWellAsAsRequests() {
        api.get("/hare");
        api.get("/hare", "If-None-Match", "\"hare-v1\"");

        JsonNode origin = origin();
        assertThat(origin.at("/endpoints/hare/requests").asLong()).isEqualTo(2);
        assertThat(origin.at("/endpoints/hare/notModified").asLong()).isEqualTo(1);
        assertThat(origin.at("/total/notModified").asLong()).isEqualTo(1);
    }

    @Test
    void tracksInFlightAndPeakInFlightOfConcurrentRequests() {
        // A long injected delay keeps all five in flight long enough to be seen under any load.
        management.postJson("/actuator/origin", "{\"endpoint\":\"tortoise\",\"delay\":\"2s\"}");
        List<CompletableFuture<HttpResponse<String>>> requests = IntStream.range(0, 5)
                .mapToObj(i -> api.getAsync("/tortoise?n=" + i)).toList();

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> assertThat(origin().at("/endpoints/tortoise/inFlight").asInt()).isEqualTo(5));
        assertThat(origin().at("/total/inFlight").asInt()).isEqualTo(5);
        requests.forEach(CompletableFuture::join);

        JsonNode origin = origin();
        assertThat(origin.at("/endpoints/tortoise/inFlight").asInt()).isZero();
        assertThat(origin.at("/endpoints/tortoise/peakInFlight").asInt()).isEqualTo(5);
        assertThat(origin.at("/total/peakInFlight").asInt()).isEqualTo(5);
        assertThat(origin.at("/endpoints/hare/peakInFlight").asInt()).isZero();
    }

    @Test
    void deleteResetsAllCounters() {
        api.get("/hare");
        api.get("/cheetah");
        api.get("/hare", "If-None-Match", "*");

        assertThat(management.delete("/actuator/origin").statusCode()).isIn(200, 204);

        JsonNode origin = origin();
        assertThat(origin.at("/other/requests").asLong()).isZero();
        for (JsonNode counts : List.of(origin.get("total"), origin.at("/endpoints/hare"))) {
            assertThat(counts.get("requests").asLong()).isZero();
            assertThat(counts.get("notModified").asLong()).isZero();
            assertThat(counts.get("inFlight").asInt()).isZero();
            assertThat(counts.get("peakInFlight").asInt()).isZero();
        }
    }

    @Test
    void deletePutsTheItemsBackAsTheyWereAtStartUp() {
        assertThat(api.putJson("/items/5", "{\"name\":\"renamed\"}").statusCode()).isEqualTo(200);
        assertThat(api.getJson("/items/5").get("version").asLong()).isEqualTo(2);
        long created = OriginHttp.json(api.postJson("/items", "{\"name\":\"new\"}").body()).get("id").asLong();

        management.delete("/actuator/origin");

        JsonNode item = api.getJson("/items/5");
        assertThat(item.get("version").asLong()).isEqualTo(1);
        assertThat(item.get("name").asText()).isEqualTo("item-5");
        assertThat(api.get("/items/" + created).statusCode()).as("a created item is gone").isEqualTo(404);
        long again = OriginHttp.json(api.postJson("/items", "{\"name\":\"new\"}").body()).get("id").asLong();
        assertThat(again).as("ids start over where the seed ends").isEqualTo(created);
    }

    @Test
    void injectedStatusIsAnsweredWithoutCacheHeadersUntilReset() {
        HttpResponse<String> injected = management.postJson("/actuator/origin",
                "{\"endpoint\":\"hare\",\"status\":500}");
        assertThat(injected.statusCode()).isEqualTo(200);

        HttpResponse<String> failing = api.get("/hare");
        assertThat(failing.statusCode()).isEqualTo(500);
        assertThat(failing.headers().firstValue("Cache-Control")).isEmpty();
        assertThat(failing.headers().firstValue("ETag")).isEmpty();
        assertThat(api.get("/tortoise").statusCode()).isEqualTo(200);
        assertThat(origin().at("/endpoints/hare/requests").asLong()).isEqualTo(1);

        management.delete("/actuator/origin");
        assertThat(api.get("/hare").statusCode()).isEqualTo(200);
    }

    @Test
    void injectedDelayReplacesTheConfiguredDelayUntilReset() {
        management.postJson("/actuator/origin", "{\"endpoint\":\"hare\",\"delay\":\"1200ms\"}");

        assertThat(Timed.of(() -> api.get("/hare")).elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(1200));

        management.delete("/actuator/origin");
        assertThat(Timed.of(() -> api.get("/hare")).elapsed()).isLessThan(Duration.ofMillis(1200));
    }

    @Test
    void injectingIntoAnUnknownEndpointIsABadRequest() {
        HttpResponse<String> response = management.postJson("/actuator/origin",
                "{\"endpoint\":\"cheetah\",\"status\":500}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("cheetah");
    }

    @Test
    void prometheusPublishesTheSameCountersPerEndpoint() {
        api.get("/hare");
        api.get("/hare", "If-None-Match", "\"hare-v1\"");

        String metrics = management.get("/actuator/prometheus").body();

        assertThat(metrics).containsPattern("(?m)^origin_requests_total\\{endpoint=\"hare\"} 2\\.0$")
                .containsPattern("(?m)^origin_not_modified_total\\{endpoint=\"hare\"} 1\\.0$")
                .containsPattern("(?m)^origin_in_flight\\{endpoint=\"hare\"} 0\\.0$")
                .containsPattern("(?m)^origin_in_flight_peak\\{endpoint=\"hare\"} 1\\.0$")
                .containsPattern("(?m)^origin_requests_total\\{endpoint=\"snail\"} 0\\.0$")
                .containsPattern("(?m)^origin_other_requests_total 0\\.0$");
    }

    @Test
    void healthIsUp() {
        HttpResponse<String> health = management.get("/actuator/health");

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(OriginHttp.json(health.body()).get("status").asText()).isEqualTo("UP");
    }

    @Test
    void exposesOnlyHealthOriginPrometheusAndInfo() {
        JsonNode links = management.getJson("/actuator").get("_links");

        assertThat(links.fieldNames()).toIterable()
                .containsExactlyInAnyOrder("self", "health", "health-path", "origin", "prometheus", "info");
        assertThat(management.get("/actuator/env").statusCode()).isEqualTo(404);
    }

    @ParameterizedTest(name = "{0} is not served on the API port")
    @ValueSource(strings = {"/actuator/origin", "/actuator/health"})
    void managementIsNotServedOnTheApiPort(String path) {
        assertThat(api.get(path).statusCode()).isEqualTo(404);
    }
}
