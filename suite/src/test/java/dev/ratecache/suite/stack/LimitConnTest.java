package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.RateLimitTest.burst;
import static dev.ratecache.suite.stack.RateLimitTest.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** limit_conn, off by default, switched on at 2 concurrent requests per client. */
@StackTest
@ExtendWith(SharedOrigin.class)
class LimitConnTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, LimitConnTest.class, new StackSwitches().limitConn(2).frontLimit(false).cache(false));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void concurrentRequestsBeyondTheLimitAreRejectedWithRetryAfter() throws Exception {
        // /slow takes 1.5 s, so the first two are still running when the others arrive.
        List<Http.Raw> responses = burst(stack, "127.0.0.21", 5, "/slow");

        assertThat(count(responses, 200)).isEqualTo(2);
        assertThat(count(responses, 429)).isEqualTo(3);
        assertThat(responses).filteredOn(r -> r.status() == 429)
                .allSatisfy(r -> assertThat(r.header("Retry-After")).isEqualTo("1"));
    }
}
