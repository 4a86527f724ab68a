package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A paths file with a max_age_s column (./run-tests.sh replay --use-advice writes the advised
 * lifetimes there): each path is fresh for its own lifetime, an empty one for origin.replay.max-age.
 */
@AutoConfigureObservability(tracing = false)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.replay.max-age=7s"
})
@StackTest
class ReplayLifetimesTest extends RunningOrigin {

    static final String PATHS = """
            path,requests,delay_ms,body_bytes,max_age_s
            /advised,3,0,10,120
            /not-advised,1,0,10,
            """;

    @DynamicPropertySource
    static void pathsFile(DynamicPropertyRegistry registry) {
        ReplayPathsFiles.register(registry, PATHS);
    }

    @Test
    void aPathWithItsOwnLifetimeIsFreshForIt() {
        assertThat(api.get("/advised").headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=120, stale-while-revalidate=60, stale-if-error=600");
    }

    @Test
    void aPathWithoutOneIsFreshForTheConfiguredMaxAge() {
        assertThat(api.get("/not-advised").headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=7, stale-while-revalidate=60, stale-if-error=600");
    }
}
