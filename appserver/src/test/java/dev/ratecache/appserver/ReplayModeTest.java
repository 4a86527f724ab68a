package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The replay mode: any path answered with the size and delay its row in the paths file gives,
 * the default delay where the row has none, and the defaults for a path the file lacks.
 */
@AutoConfigureObservability(tracing = false)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.endpoints.hare.delay=0ms",
    "origin.replay.default-delay=300ms",
    "origin.replay.max-age=7s",
    "origin.replay.default-body-bytes=77"
})
@StackTest
class ReplayModeTest extends RunningOrigin {

    // Quoted where CSV needs it, percent-encoded as nginx logs $request_uri, and one written decoded.
    static final String PATHS = """
            path,requests,delay_ms,body_bytes
            /about,3,0,5000
            "/search,results/page",2,0,123
            /caf%C3%A9,1,0,33
            "/with space",1,0,44
            /slow,1,400,10
            /no-timing,1,,20
            /empty,1,0,0
            /big/download.iso,1,0,3000000
            /items/42,1,0,55
            """;

    static final Duration GENEROUS = Duration.ofSeconds(10);

    @DynamicPropertySource
    static void pathsFile(DynamicPropertyRegistry registry) {
        ReplayPathsFiles.register(registry, PATHS);
    }

    @AfterEach
    void removeInjectedFaults() {
        management.delete("/actuator/origin");
    }

    @ParameterizedTest(name = "{0} is {1} bytes")
    @CsvSource(textBlock = """
            /about,                  5000
            /about?page=2,           5000
            '/search,results/page',  123
            /caf%C3%A9,              33
            /with%20space,           44
            /empty,                  0
            /big/download.iso,       3000000
            /items/42,               55
            /items/43,               77
            /hare/but/deeper,        77
            /not-in-the-file,        77
            /,                       77
            """)
    void servesEachPathWithTheBodySizeOfItsRow(String path, int bytes) {
        HttpResponse<String> response = api.get(path);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Length")).hasValue(Integer.toString(bytes));
        assertThat(response.body()).hasSize(bytes);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
    }

    @Test
    void bodyIsTheSameTextForTheSameSize() {
        String body = api.get("/search,results/page").body();

        assertThat(body).startsWith("replayed by the ratecache origin, content v1\n");
        assertThat(api.get("/search,results/page?again").body()).isEqualTo(body);
    }

    @Test
    void headAnswersTheSizeWithoutTheBody() {
        HttpResponse<String> response = api.head("/about");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Length")).hasValue("5000");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void holdsAPathForTheDelayOfItsRow() {
        Timed<HttpResponse<String>> slow = Timed.of(() -> api.get("/slow"));

        assertThat(slow.result().statusCode()).isEqualTo(200);
        assertThat(slow.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(400)).isLessThan(GENEROUS);
    }

    @Test
    void rowWithoutADelayGetsTheDefaultDelay() {
        Timed<HttpResponse<String>> noTiming = Timed.of(() -> api.get("/no-timing"));

        assertThat(noTiming.result().body()).hasSize(20);
        assertThat(noTiming.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(GENEROUS);
    }

    @Test
    void pathMissingFromTheFileGetsTheDefaultDelay() {
        Timed<HttpResponse<String>> unlisted = Timed.of(() -> api.get("/added/by/hand"));

        assertThat(unlisted.result().statusCode()).isEqualTo(200);
        assertThat(unlisted.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(GENEROUS);
    }

    @Test
    void isFreshForTheConfiguredMaxAgeWithTheOriginsStalePermissions() {
        assertThat(api.get("/about").headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=7, stale-while-revalidate=60, stale-if-error=600");
    }

    @Test
    void sendsAStrongEntityTagAndRevalidatesWithIt() {
        String etag = api.get("/about").headers().firstValue("ETag").orElseThrow();
        HttpResponse<String> revalidated = api.get("/about", "If-None-Match", etag);

        assertThat(etag).isEqualTo("\"replay-5000b-v1\"");
        assertThat(revalidated.statusCode()).isEqualTo(304);
        assertThat(revalidated.body()).isEmpty();
        assertThat(revalidated.headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=7, stale-while-revalidate=60, stale-if-error=600");
    }

    @Test
    void configuredEndpointsKeepTheirOwnAnswers() {
        HttpResponse<String> hare = api.get("/hare");

        assertThat(hare.headers().firstValue("ETag")).hasValue("\"hare-v1\"");
        assertThat(OriginHttp.json(hare.body()).get("endpoint").asText()).isEqualTo("hare");
    }

    @Test
    void countsReplayedPathsAsTheEndpointReplayInTheShapeTheSuiteParses() {
        api.get("/about");
        api.get("/search,results/page");
        api.get("/not-in-the-file");
        api.get("/about", "If-None-Match", "\"replay-5000b-v1\"");
        api.get("/hare");

        JsonNode origin = management.getJson("/actuator/origin");
        assertThat(origin.fieldNames()).toIterable().containsExactly("total", "endpoints", "other", "items", "database");
        assertThat(origin.get("endpoints").fieldNames()).toIterable()
                .containsExactly("hare", "tortoise", "snail", "replay", "items", "places");
        assertThat(origin.at("/endpoints/replay/requests").asLong()).isEqualTo(4);
        assertThat(origin.at("/endpoints/replay/notModified").asLong()).isEqualTo(1);
        assertThat(origin.at("/endpoints/hare/requests").asLong()).isEqualTo(1);
        assertThat(origin.at("/total/requests").asLong()).isEqualTo(5);
        assertThat(management.get("/actuator/prometheus").body().lines())
                .contains("origin_requests_total{endpoint=\"replay\"} 4.0");
    }

    @Test
    void injectedFaultsReachReplayedPaths() {
        management.postJson("/actuator/origin", "{\"endpoint\":\"replay\",\"status\":503}");

        HttpResponse<String> failed = api.get("/about");

        assertThat(failed.statusCode()).isEqualTo(503);
        assertThat(failed.headers().firstValue("Cache-Control")).isEmpty();
    }
}
