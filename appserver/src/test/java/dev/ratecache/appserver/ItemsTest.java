package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@code /items}: real H2, real HTTP, the default configuration (10,000 items, no app cache). The
 * context is shared with the other {@link OriginTest} classes, so each test uses items of its own.
 */
@OriginTest
class ItemsTest extends RunningOrigin {

    private static final String CACHE_CONTROL = "public, max-age=5, stale-while-revalidate=60, stale-if-error=600";

    private JsonNode items() {
        return management.getJson("/actuator/origin").get("items");
    }

    private HttpResponse<String> put(String path, String json) {
        return api.putJson(path, json);
    }

    @Test
    void aSeededItemIsServedWithItsVersionInTheBodyAndTheETag() {
        HttpResponse<String> response = api.get("/items/42");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode item = OriginHttp.json(response.body());
        assertThat(item.fieldNames()).toIterable().containsExactly("id", "name", "version", "updatedAt");
        assertThat(item.get("id").asLong()).isEqualTo(42);
        assertThat(item.get("name").asText()).isEqualTo("item-42");
        long version = item.get("version").asLong();
        assertThat(response.headers().firstValue("ETag")).hasValue("\"item-42-v" + version + "\"");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue(CACHE_CONTROL);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
    }

    @Test
    void allTenThousandItemsAreSeededAndNoMore() {
        assertThat(api.get("/items/1").statusCode()).isEqualTo(200);
        assertThat(api.get("/items/10000").statusCode()).isEqualTo(200);
        assertThat(api.get("/items/10000000").statusCode()).isEqualTo(404);
    }

    @Test
    void whatNamesNoItemIsNotFound() {
        for (String path : List.of("/items/0", "/items/-3", "/items/abc", "/items/99999999999999999999")) {
            assertThat(api.get(path).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(put("/items/9999999", "{\"name\":\"x\"}").statusCode()).isEqualTo(404);
        assertThat(api.delete("/items/9999999").statusCode()).isEqualTo(404);
    }

    @Test
    void aMatchingIfNoneMatchIsNotModifiedWithTheValidatorsAndCounted() {
        String etag = api.get("/items/43").headers().firstValue("ETag").orElseThrow();

        HttpResponse<String> response = api.get("/items/43", "If-None-Match", etag);

        assertThat(response.statusCode()).isEqualTo(304);
        assertThat(response.body()).isEmpty();
        assertThat(response.headers().firstValue("ETag")).hasValue(etag);
        assertThat(response.headers().firstValue("Cache-Control")).hasValue(CACHE_CONTROL);
        assertThat(api.get("/items/43", "If-None-Match", "\"item-43-v999\"").statusCode()).isEqualTo(200);
        JsonNode origin = management.getJson("/actuator/origin");
        assertThat(origin.at("/endpoints/items/requests").asLong()).isEqualTo(3);
        assertThat(origin.at("/endpoints/items/notModified").asLong()).isEqualTo(1);
        assertThat(origin.at("/items/requests/GET/200").asLong()).isEqualTo(2);
        assertThat(origin.at("/items/requests/GET/304").asLong()).isEqualTo(1);
    }

    @Test
    void putIncrementsTheVersionAndAnswersTheNewOne() {
        long before = api.getJson("/items/44").get("version").asLong();

        HttpResponse<String> response = put("/items/44", "{\"name\":\"renamed\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode item = OriginHttp.json(response.body());
        assertThat(item.get("version").asLong()).isEqualTo(before + 1);
        assertThat(item.get("name").asText()).isEqualTo("renamed");
        assertThat(response.headers().firstValue("ETag")).hasValue("\"item-44-v" + (before + 1) + "\"");
        HttpResponse<String> read = api.get("/items/44");
        assertThat(OriginHttp.json(read.body())).isEqualTo(item);
        assertThat(read.headers().firstValue("ETag")).hasValue("\"item-44-v" + (before + 1) + "\"");
    }

    @Test
    void aWriteWithoutANameIsABadRequestThatChangesNothing() {
        long before = api.getJson("/items/45").get("version").asLong();

        for (String body : List.of("", "not json", "{}", "{\"name\":\"  \"}", "{\"name\":7}",
                "{\"name\":\"" + "x".repeat(201) + "\"}")) {
            HttpResponse<String> response = put("/items/45", body);
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertThat(OriginHttp.json(response.body()).get("error").asText()).as(body).isNotBlank();
        }
        assertThat(api.postJson("/items", "{}").statusCode()).isEqualTo(400);
        assertThat(api.getJson("/items/45").get("version").asLong()).isEqualTo(before);
    }

    @Test
    void postCreatesAnItemAtVersionOneWhereLocationSays() {
        HttpResponse<String> response = api.postJson("/items", "{\"name\":\"new one\"}");

        assertThat(response.statusCode()).isEqualTo(201);
        JsonNode created = OriginHttp.json(response.body());
        long id = created.get("id").asLong();
        assertThat(id).isGreaterThan(10_000);
        assertThat(created.get("version").asLong()).isEqualTo(1);
        assertThat(response.headers().firstValue("Location")).hasValue("/items/" + id);
        assertThat(response.headers().firstValue("ETag")).hasValue("\"item-" + id + "-v1\"");
        assertThat(api.getJson("/items/" + id)).isEqualTo(created);
        long next = OriginHttp.json(api.postJson("/items", "{\"name\":\"another\"}").body()).get("id").asLong();
        assertThat(next).isGreaterThan(id);
    }

    @Test
    void deleteRemovesTheItem() {
        assertThat(api.delete("/items/46").statusCode()).isEqualTo(204);

        assertThat(api.get("/items/46").statusCode()).isEqualTo(404);
        assertThat(api.delete("/items/46").statusCode()).isEqualTo(404);
        assertThat(items().at("/requests/DELETE/204").asLong()).isEqualTo(1);
        assertThat(items().at("/requests/DELETE/404").asLong()).isEqualTo(1);
    }

    @Test
    void concurrentPutsOnOneItemGiveDistinctConsecutiveVersions() {
        long before = api.getJson("/items/47").get("version").asLong();
        int writers = 20;

        List<Long> versions;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<CompletableFuture<HttpResponse<String>>> puts = IntStream.range(0, writers)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> put("/items/47", "{\"name\":\"w" + i + "\"}"), pool))
                    .toList();
            versions = puts.stream().map(CompletableFuture::join)
                    .peek(response -> assertThat(response.statusCode()).isEqualTo(200))
                    .map(response -> OriginHttp.json(response.body()).get("version").asLong())
                    .sorted()
                    .toList();
        }
        finally {
            pool.shutdownNow();
        }

        assertThat(versions).containsExactlyElementsOf(
                IntStream.rangeClosed(1, writers).mapToObj(i -> before + i).toList());
        assertThat(api.getJson("/items/47").get("version").asLong()).isEqualTo(before + writers);
    }

    @Test
    void withTheAppCacheOffEveryReadIsADatabaseQuery() {
        api.get("/items/48");
        api.get("/items/48");
        api.get("/items/48", "If-None-Match", "*");
        put("/items/48", "{\"name\":\"w\"}");

        JsonNode items = items();
        assertThat(items.at("/database/reads").asLong()).isEqualTo(3);
        assertThat(items.at("/database/writes").asLong()).isEqualTo(1);
        assertThat(items.get("appCache").fieldNames()).toIterable()
                .containsExactly("mode", "hits", "misses", "errors", "lastError");
        assertThat(items.at("/appCache/mode").asText()).isEqualTo("off");
        assertThat(items.at("/appCache/hits").asLong()).isZero();
        assertThat(items.at("/appCache/misses").asLong()).isZero();
        assertThat(items.at("/appCache/errors").asLong()).isZero();
    }

    @Test
    void aReadCostsAtLeastTheQueryCost() {
        assertThat(Timed.of(() -> api.get("/items/49")).elapsed()).isGreaterThanOrEqualTo(java.time.Duration.ofMillis(5));
    }

    @Test
    void injectedFaultsReachItems() {
        management.postJson("/actuator/origin", "{\"endpoint\":\"items\",\"status\":503}");

        HttpResponse<String> response = api.get("/items/50");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Cache-Control")).isEmpty();
        assertThat(items().at("/requests/GET/503").asLong()).isEqualTo(1);
        assertThat(items().at("/database/reads").asLong()).isZero();
        management.delete("/actuator/origin");
        assertThat(api.get("/items/50").statusCode()).isEqualTo(200);
    }

    @Test
    void prometheusPublishesTheDatabaseAndAppCacheCounters() {
        api.get("/items/51");
        put("/items/51", "{\"name\":\"w\"}");

        assertThat(management.get("/actuator/prometheus").body().lines()).contains(
                "origin_requests_total{endpoint=\"items\"} 2.0",
                "origin_database_queries_total{operation=\"read\"} 1.0",
                "origin_database_queries_total{operation=\"write\"} 1.0",
                "origin_app_cache_lookups_total{result=\"hit\"} 0.0",
                "origin_app_cache_lookups_total{result=\"miss\"} 0.0",
                "origin_app_cache_errors_total 0.0");
    }
}
