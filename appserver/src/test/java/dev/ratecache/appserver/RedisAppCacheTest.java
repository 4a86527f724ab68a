package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.testkit.StackTest;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import redis.clients.jedis.Jedis;

/**
 * {@code origin.app-cache=redis} with a real redis-server of the test's own: cache-aside on reads,
 * counted the same by Redis and by the origin, and evicted by writes. Redis's keyspace counters
 * are read before any EXISTS or PTTL, which count there too.
 */
// Metrics export is on because the Prometheus counters are part of the contract.
@AutoConfigureObservability(tracing = false)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.app-cache=redis",
    "origin.app-cache-ttl=30s",
    "origin.items.count=1000",
    // Counts here must be exact, so a busy machine must not turn a slow lookup into a cache error;
    // RedisStoppedMidRunTest keeps the default 200 ms.
    "spring.data.redis.timeout=2s"
})
// The context's Redis goes with the class, so the context must too.
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@StackTest
class RedisAppCacheTest extends RunningOriginWithRedis {

    private boolean exists(String key) {
        try (Jedis keys = redis.client()) {
            return keys.exists(key);
        }
    }

    private JsonNode items() {
        return management.getJson("/actuator/origin").get("items");
    }

    @Test
    void aMissThenAHitAreCountedInRedisAndAtTheDatabase() throws IOException {
        long hits = redis.stats().keyspaceHits();
        long misses = redis.stats().keyspaceMisses();

        HttpResponse<String> miss = api.get("/items/101");
        HttpResponse<String> hit = api.get("/items/101");

        assertThat(miss.statusCode()).isEqualTo(200);
        assertThat(hit.statusCode()).isEqualTo(200);
        assertThat(OriginHttp.json(hit.body())).isEqualTo(OriginHttp.json(miss.body()));
        assertThat(hit.headers().firstValue("ETag")).isEqualTo(miss.headers().firstValue("ETag"));
        assertThat(redis.stats().keyspaceMisses()).isEqualTo(misses + 1);
        assertThat(redis.stats().keyspaceHits()).isEqualTo(hits + 1);
        JsonNode items = items();
        assertThat(items.at("/database/reads").asLong()).isEqualTo(1);
        assertThat(items.at("/appCache/mode").asText()).isEqualTo("redis");
        assertThat(items.at("/appCache/misses").asLong()).isEqualTo(1);
        assertThat(items.at("/appCache/hits").asLong()).isEqualTo(1);
        assertThat(items.at("/appCache/errors").asLong()).isZero();
        assertThat(items.at("/appCache/lastError").isNull()).isTrue();
    }

    @Test
    void anEntryIsTheItemAsJsonAndExpiresAfterTheTtl() throws IOException {
        HttpResponse<String> response = api.get("/items/105");

        try (Jedis keys = redis.client()) {
            assertThat(OriginHttp.json(keys.get("items::105"))).isEqualTo(OriginHttp.json(response.body()));
            assertThat(keys.pttl("items::105")).isPositive().isLessThanOrEqualTo(30_000);
        }
    }

    @Test
    void aPutEvictsAndTheNextReadGetsTheNewVersionFromTheDatabase() throws IOException {
        api.get("/items/102");
        long version = api.getJson("/items/102").get("version").asLong();
        assertThat(items().at("/database/reads").asLong()).isEqualTo(1);

        HttpResponse<String> put = api.putJson("/items/102", "{\"name\":\"renamed\"}");
        assertThat(put.statusCode()).isEqualTo(200);
        long misses = redis.stats().keyspaceMisses();
        HttpResponse<String> read = api.get("/items/102");

        assertThat(OriginHttp.json(read.body()).get("version").asLong()).isEqualTo(version + 1);
        assertThat(OriginHttp.json(read.body()).get("name").asText()).isEqualTo("renamed");
        assertThat(read.headers().firstValue("ETag")).hasValue("\"item-102-v" + (version + 1) + "\"");
        assertThat(redis.stats().keyspaceMisses()).isEqualTo(misses + 1);
        JsonNode items = items();
        assertThat(items.at("/database/reads").asLong()).isEqualTo(2);
        assertThat(items.at("/database/writes").asLong()).isEqualTo(1);
        assertThat(items.at("/appCache/hits").asLong()).isEqualTo(1);
        assertThat(items.at("/appCache/misses").asLong()).isEqualTo(2);

        assertThat(api.getJson("/items/102").get("version").asLong()).isEqualTo(version + 1);
        assertThat(items().at("/database/reads").asLong()).as("the new version is cached").isEqualTo(2);
    }

    @Test
    void aDeleteEvicts() throws IOException {
        api.get("/items/103");
        assertThat(exists("items::103")).isTrue();

        assertThat(api.delete("/items/103").statusCode()).isEqualTo(204);

        assertThat(exists("items::103")).isFalse();
        assertThat(api.get("/items/103").statusCode()).isEqualTo(404);
    }

    @Test
    void aMissingItemIsNotCachedSoACreatedOneIsSeenAtOnce() throws IOException {
        assertThat(api.get("/items/1001").statusCode()).isEqualTo(404);
        assertThat(exists("items::1001")).isFalse();

        HttpResponse<String> created = api.postJson("/items", "{\"name\":\"first new\"}");

        assertThat(created.headers().firstValue("Location")).hasValue("/items/1001");
        assertThat(api.get("/items/1001").statusCode()).isEqualTo(200);
    }

    @Test
    void aRevalidationFromTheCacheIsNotModifiedWithoutADatabaseQuery() {
        String etag = api.get("/items/104").headers().firstValue("ETag").orElseThrow();

        assertThat(api.get("/items/104", "If-None-Match", etag).statusCode()).isEqualTo(304);

        JsonNode items = items();
        assertThat(items.at("/database/reads").asLong()).isEqualTo(1);
        assertThat(items.at("/appCache/hits").asLong()).isEqualTo(1);
    }

    @Test
    void aPlacesQueryIsCachedAsideInItsOwnCacheKeyedByTheQuery() throws IOException {
        long queries = management.getJson("/actuator/origin").at("/database/queries").asLong();

        HttpResponse<String> miss = api.get("/places?code=1228");
        HttpResponse<String> hit = api.get("/places?code=1228&n=2");
        HttpResponse<String> region = api.get("/places?region=R043");

        assertThat(hit.body()).isEqualTo(miss.body());
        assertThat(hit.headers().firstValue("ETag")).isEqualTo(miss.headers().firstValue("ETag"));
        assertThat(OriginHttp.json(region.body())).hasSize(50);
        JsonNode counters = management.getJson("/actuator/origin");
        assertThat(counters.at("/database/queries").asLong()).as("the code's second read came from Redis")
                .isEqualTo(queries + 2);
        assertThat(counters.at("/items/appCache/hits").asLong()).isEqualTo(1);
        assertThat(counters.at("/items/appCache/misses").asLong()).isEqualTo(2);
        try (Jedis keys = redis.client()) {
            assertThat(OriginHttp.json(keys.get("places::code=1228"))).isEqualTo(OriginHttp.json(miss.body()));
            assertThat(keys.exists("places::region=R043")).isTrue();
            assertThat(keys.pttl("places::code=1228")).isPositive().isLessThanOrEqualTo(30_000);
        }
    }

    @Test
    void prometheusPublishesTheAppCacheLookups() {
        api.get("/items/106");
        api.get("/items/106");

        assertThat(management.get("/actuator/prometheus").body().lines()).contains(
                "origin_app_cache_lookups_total{result=\"hit\"} 1.0",
                "origin_app_cache_lookups_total{result=\"miss\"} 1.0",
                "origin_database_queries_total{operation=\"read\"} 1.0");
    }
}
