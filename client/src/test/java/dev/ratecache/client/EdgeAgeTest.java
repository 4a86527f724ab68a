package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Waits;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.StackTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client behind the edge cache counts freshness from the edge's Age, not from when it
 * received a response: an entry that sat in the edge for most of its lifetime is not kept for a
 * whole lifetime again.
 */
@StackTest
class EdgeAgeTest {
    private static final Duration MAX_AGE = Duration.ofSeconds(6);
    private static Stack stack;

    @BeforeAll
    static void start() throws Exception {
        List<String> endpoints = new ArrayList<>(TestStacks.ENDPOINTS);
        endpoints.addAll(List.of("--origin.endpoints.six.delay=0ms", "--origin.endpoints.six.max-age=6s"));
        stack = Stack.start(new NginxSwitches().frontLimit(false).backLimit(false), StackPorts.free(),
                TestStacks.freshDir(EdgeAgeTest.class), 10, endpoints);
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void anEntryThatAgedInTheEdgeExpiresInTheClientWhenItsEdgeLifetimeEnds() throws Exception {
        String path = TestStacks.fresh("six");
        Instant stored = Instant.now();
        Http.get(stack.frontUri(), path);
        // Let the edge's entry age 4 s of its 6 s: asking the edge leaves it as it was.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> Http.get(stack.frontUri(), path), r -> "HIT".equals(r.headers().firstValue("X-Cache-Status")
                        .orElse("")) && Duration.between(stored, Instant.now()).toMillis() >= 4000);

        try (RateCacheClient client = RateCacheClient.create()) {
            RateCacheResponse first = client.get(stack.frontUri() + path);
            Instant received = Instant.now();
            // Past the edge's lifetime (6 s from storing, plus the Date's whole-second rounding),
            // well before a lifetime counted from the client's receipt (about 4 s later still).
            Waits.past(Duration.between(Instant.now(), stored.plus(MAX_AGE).plusMillis(2000)));
            assertThat(Duration.between(received, Instant.now())).as("still inside a lifetime from receipt")
                    .isLessThan(MAX_AGE.minusMillis(500));

            RateCacheResponse second = client.get(stack.frontUri() + path);

            assertThat(first.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(second.source()).isNotEqualTo(ResponseSource.CACHE);
            assertThat(second.networkRequests()).isPositive();
        }
    }
}
