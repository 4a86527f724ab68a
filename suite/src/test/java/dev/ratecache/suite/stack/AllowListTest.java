package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.RateLimitTest.burst;
import static dev.ratecache.suite.stack.RateLimitTest.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --allow 127.0.7.0/24 with a per-client limit of 1 r/s (no burst, nodelay) and a back limit of
 * 2 r/s burst 5 nodelay. A front end rejection carries RateLimit (one zone counts each request
 * here); the back end's does not, which tells the two apart.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class AllowListTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, AllowListTest.class, new StackSwitches().allow(List.of("127.0.7.0/24"))
                .frontRate(1).frontBurst(0).frontMode(LimitMode.NODELAY)
                .backRate(2).backBurst(5).backMode(LimitMode.NODELAY).cache(false));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void anAllowedNetworkIsNeverLimitedAtTheFrontButTheBackLimitStillHoldsIt() throws Exception {
        stack.origin().reset();
        List<Http.Raw> responses = burst(stack, "127.0.7.9", 15, "/hare");

        assertThat(responses).allSatisfy(r -> {
            assertThat(r.header("RateLimit")).as("no front end rejection").isNull();
            assertThat(r.header("RateLimit-Policy")).as("no per-client policy").isNull();
        });
        // The back end's 1 + 5 at once, and one more per half second the burst took to arrive.
        assertThat(count(responses, 200)).isBetween(6L, 9L);
        assertThat(count(responses, 429)).isEqualTo(15 - count(responses, 200));
        assertThat(Stacks.reached(stack, "hare")).isEqualTo(count(responses, 200));
    }

    @Test
    void anAddressOutsideTheAllowedNetworksIsLimited() throws Exception {
        List<Http.Raw> responses = burst(stack, "127.0.8.9", 5, "/hare");

        assertThat(responses.stream().filter(r -> r.header("RateLimit") != null).count())
                .as("front end rejections").isBetween(3L, 4L);
        assertThat(responses).allSatisfy(r -> assertThat(r.header("RateLimit-Policy"))
                .isEqualTo("\"per-address\";q=1;w=1;ratecache-burst=0"));
    }
}
