package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.RateLimitTest.burst;
import static dev.ratecache.suite.stack.RateLimitTest.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Queueing inside the burst (nginx's default) and 503 as the rejection status, as in the reference experiment. */
@StackTest
@ExtendWith(SharedOrigin.class)
class QueueingAnd503Test {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, QueueingAnd503Test.class, new StackSwitches()
                .frontRate(5).frontBurst(5).rejectStatus(503).cache(false));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void rejectionsAre503WithRetryAfterWhenSwitched() throws Exception {
        List<Http.Raw> responses = burst(stack, "127.0.0.31", 12, "/hare");

        assertThat(count(responses, 200)).isBetween(6L, 7L);
        assertThat(count(responses, 503)).isEqualTo(12 - count(responses, 200));
        assertThat(responses).filteredOn(r -> r.status() == 503)
                .allSatisfy(r -> assertThat(r.header("Retry-After")).isEqualTo("1"));
    }

    @Test
    void requestsInsideTheBurstAreQueuedAtTheRateNotRejected() throws Exception {
        Instant start = Instant.now();
        List<Http.Raw> responses = burst(stack, "127.0.0.32", 6, "/hare");
        Duration took = Duration.between(start, Instant.now());

        assertThat(count(responses, 200)).isEqualTo(6);
        // Five queued behind the first at 5 r/s: the last leaves about 1 s after the first.
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(800));
    }
}
