package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/** origin.stale-while-revalidate and origin.stale-if-error: set, off, and replaced by an endpoint's own Cache-Control. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.stale-while-revalidate=0s",
    "origin.stale-if-error=2m",
    "origin.endpoints.hare.delay=0ms",
    "origin.endpoints.strict.cache-control=public, max-age=1, must-revalidate"
})
@StackTest
class StaleDirectivesTest {

    @LocalServerPort
    int port;

    OriginHttp api;

    @BeforeEach
    void connect() {
        api = new OriginHttp(port);
    }

    @Test
    void zeroSendsNoDirectiveAndADurationIsSentInSeconds() {
        assertThat(api.get("/hare").headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=3, stale-if-error=120");
    }

    @Test
    void notModifiedCarriesTheSameDirectives() {
        assertThat(api.get("/hare", "If-None-Match", "\"hare-v1\"").headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=3, stale-if-error=120");
    }

    @Test
    void endpointsOwnCacheControlIsSentAsItIs() {
        assertThat(api.get("/strict").headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=1, must-revalidate");
    }
}
