package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The app cache is an optimisation: when its Redis stops during a run, the origin keeps answering
 * from the database, promptly, and its counters say what went wrong.
 */
// Metrics export is on because the Prometheus counters are part of the contract.
@AutoConfigureObservability(tracing = false)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.app-cache=redis",
    "origin.items.count=1000"
})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@StackTest
class RedisStoppedMidRunTest extends RunningOriginWithRedis {

    /** Far above a database read (5 ms) and Redis's timeouts (200 ms), far below a hang. */
    static final Duration PROMPTLY = Duration.ofSeconds(2);

    @Test
    void theOriginKeepsAnsweringFromTheDatabaseAndCountsTheErrors() {
        api.get("/items/201");
        api.get("/items/201");
        assertThat(management.getJson("/actuator/origin").at("/items/appCache/hits").asLong()).isEqualTo(1);

        redis.close();
        assertThat(redis.isRunning()).isFalse();
        management.delete("/actuator/origin");

        int reads = 20;
        for (int i = 0; i < reads; i++) {
            long id = 201 + i % 5;
            Timed<HttpResponse<String>> read = Timed.of(() -> api.get("/items/" + id));
            assertThat(read.result().statusCode()).as("read %d of /items/%d", i, id).isEqualTo(200);
            assertThat(OriginHttp.json(read.result().body()).get("id").asLong()).isEqualTo(id);
            assertThat(read.elapsed()).as("read %d of /items/%d", i, id).isLessThan(PROMPTLY);
        }
        Timed<HttpResponse<String>> write = Timed.of(() -> api.putJson("/items/202", "{\"name\":\"while down\"}"));
        assertThat(write.result().statusCode()).isEqualTo(200);
        assertThat(write.elapsed()).isLessThan(PROMPTLY);
        assertThat(api.getJson("/items/202").get("name").asText()).isEqualTo("while down");

        JsonNode items = management.getJson("/actuator/origin").get("items");
        assertThat(items.at("/database/reads").asLong()).as("every read went to the database").isEqualTo(reads + 1);
        assertThat(items.at("/appCache/hits").asLong()).isZero();
        assertThat(items.at("/appCache/errors").asLong()).isGreaterThanOrEqualTo(reads);
        assertThat(items.at("/appCache/lastError").asText()).isNotBlank();
        assertThat(management.get("/actuator/prometheus").body())
                .containsPattern("(?m)^origin_app_cache_errors_total [1-9][0-9]*\\.0$");
        assertThat(management.get("/actuator/health").statusCode()).isEqualTo(200);
    }
}
