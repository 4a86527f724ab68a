package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A Redis that hangs (connection open, nothing answered) is worse than one that stops: only the
 * command timeout (200 ms) stands between it and every request. Reads still answer promptly from
 * the database, and once Redis goes on the cache is used again.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.app-cache=redis",
    "origin.items.count=1000"
})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@StackTest
class RedisHangsMidRunTest extends RunningOriginWithRedis {

    @Test
    void readsAnswerPromptlyFromTheDatabaseWhileRedisHangs() throws java.io.IOException {
        api.get("/items/301");

        redis.pause();
        try {
            for (int i = 0; i < 5; i++) {
                Timed<HttpResponse<String>> read = Timed.of(() -> api.get("/items/301"));
                assertThat(read.result().statusCode()).isEqualTo(200);
                assertThat(read.elapsed()).as("read %d", i).isLessThan(RedisStoppedMidRunTest.PROMPTLY);
            }
            JsonNode appCache = management.getJson("/actuator/origin").at("/items/appCache");
            assertThat(appCache.get("errors").asLong()).isGreaterThanOrEqualTo(5);
            assertThat(appCache.get("lastError").asText()).containsIgnoringCase("timeout");
        }
        finally {
            redis.resume();
        }

        // The item stored before the hang is still there (30 s TTL): reads find it again.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            long hits = management.getJson("/actuator/origin").at("/items/appCache/hits").asLong();
            assertThat(api.get("/items/301").statusCode()).isEqualTo(200);
            assertThat(management.getJson("/actuator/origin").at("/items/appCache/hits").asLong()).isEqualTo(hits + 1);
        });
    }
}
