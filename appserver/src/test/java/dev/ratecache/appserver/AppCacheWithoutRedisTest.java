package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@code origin.app-cache=redis} with no Redis at all: the origin starts, is healthy and answers from the database. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.app-cache=redis",
    "origin.items.count=100"
})
@StackTest
class AppCacheWithoutRedisTest extends RunningOrigin {

    @DynamicPropertySource
    static void noRedisThere(DynamicPropertyRegistry registry) {
        int nothingListens = dev.ratecache.proc.Ports.free();
        registry.add("spring.data.redis.port", () -> nothingListens);
    }

    @Test
    void readsAndWritesAreAnsweredFromTheDatabaseAndTheErrorsCounted() {
        for (int i = 0; i < 5; i++) {
            Timed<HttpResponse<String>> read = Timed.of(() -> api.get("/items/7"));
            assertThat(read.result().statusCode()).isEqualTo(200);
            assertThat(read.elapsed()).isLessThan(Duration.ofSeconds(2));
        }
        assertThat(api.putJson("/items/7", "{\"name\":\"x\"}").statusCode()).isEqualTo(200);

        JsonNode items = management.getJson("/actuator/origin").get("items");
        assertThat(items.at("/database/reads").asLong()).isEqualTo(5);
        assertThat(items.at("/appCache/errors").asLong()).isGreaterThanOrEqualTo(5);
        assertThat(items.at("/appCache/lastError").asText()).contains("items::7");
        assertThat(management.get("/actuator/health").statusCode()).isEqualTo(200);
    }
}
