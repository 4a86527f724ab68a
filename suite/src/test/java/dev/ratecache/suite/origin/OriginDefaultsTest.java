package dev.ratecache.suite.origin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.Repo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OriginDefaultsTest {

    @Test
    void theSuiteHoldsTheOriginsOwnApplicationYml() throws IOException {
        try (InputStream checkout = Files.newInputStream(Repo.root().resolve("appserver/src/main/resources/application.yml"))) {
            assertThat(OriginDefaults.get()).isEqualTo(OriginDefaults.read(checkout));
        }
    }

    @Test
    void itReadsTheEndpointsTheStalePermissionTheReplaysDefaultsAndTheThreads() {
        OriginDefaults d = OriginDefaults.read(yml("""
                origin:
                  endpoints:
                    hare:     { delay: 100ms, max-age: 3s }
                    tortoise: { delay: 2s,    max-age: 10 }
                  stale-while-revalidate: 60s
                  stale-if-error: 600
                  replay:
                    default-delay: 50
                    max-age: 10s
                  database:
                    pool-size: 10
                    acquire-timeout: 10s
                server:
                  tomcat:
                    threads:
                      max: 10
                """));

        assertThat(d.endpoints()).containsExactly(
                new Endpoint("hare", Duration.ofMillis(100), Duration.ofSeconds(3)),
                new Endpoint("tortoise", Duration.ofSeconds(2), Duration.ofSeconds(10)));
        assertThat(d.staleWhileRevalidate()).isEqualTo(Duration.ofSeconds(60));
        // A bare number is in seconds, the unit the origin binds lifetimes in.
        assertThat(d.staleIfError()).isEqualTo(Duration.ofSeconds(600));
        // Bare numbers in the origin's units: milliseconds for a delay, seconds for a lifetime.
        assertThat(d.replayDefaultDelay()).isEqualTo(Duration.ofMillis(50));
        assertThat(d.replayMaxAge()).isEqualTo(Duration.ofSeconds(10));
        assertThat(d.threads()).isEqualTo(10);
        assertThat(d.poolSize()).isEqualTo(10);
        assertThat(d.acquireTimeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aValueTheSuiteNeedsMissingFromTheFileIsNamed() {
        assertThatThrownBy(() -> OriginDefaults.read(yml("""
                origin:
                  endpoints:
                    hare: { delay: 100ms }
                """))).isInstanceOf(IllegalStateException.class)
                .hasMessage("appserver's application.yml sets no origin.endpoints.hare.max-age");
    }

    private static InputStream yml(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
