package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Waits;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client behind the edge cache counts freshness from the edge's Age, not from when it
 * received a response: an entry that sat in the edge for most of its lifetime is not kept for a
 * whole lifetime again.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class EdgeAgeTest {
    private static final Duration MAX_AGE = Duration.ofSeconds(6);
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = TestStacks.start(origin, EdgeAgeTest.class, new StackSwitches().frontLimit(false).backLimit(false));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void anEntryThatAgedInTheEdgeExpiresInTheClientWhenItsEdgeLifetimeEnds() throws Exception {
        String path = TestStacks.fresh("six");
        Http.get(stack.frontUri(), path);
        // Let the edge's entry age 4 s of its 6 s, read on the wire: a HIT leaves the entry as it was.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> Http.get(stack.frontUri(), path), r -> "HIT".equals(r.headers().firstValue("X-Cache-Status")
                        .orElse("")) && r.headers().firstValue("Age").map(Long::parseLong).orElse(0L) >= 4);

        try (RateCacheClient client = RateCacheClient.create()) {
            RateCacheResponse first = client.get(stack.frontUri() + path);
            Instant received = Instant.now();
            long age = Long.parseLong(first.header("Age"));
            // Past the lifetime the edge's Age leaves (plus a second: Age is whole seconds), well before a
            // lifetime counted from the client's receipt. Waited, not asked: asking would revalidate.
            Waits.past(Duration.ofSeconds(MAX_AGE.toSeconds() - age).plusMillis(1100));
            assertThat(Duration.between(received, Instant.now())).as("still inside a lifetime from receipt")
                    .isLessThan(MAX_AGE.minusMillis(500));

            RateCacheResponse second = client.get(stack.frontUri() + path);

            assertThat(first.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(second.source()).isNotEqualTo(ResponseSource.CACHE);
            assertThat(second.networkRequests()).isPositive();
        }
    }
}
