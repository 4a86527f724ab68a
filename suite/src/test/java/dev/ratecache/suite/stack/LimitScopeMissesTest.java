package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.RateLimitTest.burst;
import static dev.ratecache.suite.stack.RateLimitTest.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --limit-scope misses with keys in X-Api-Key, 1 r/s per key with a burst of 1 (nodelay), and the
 * default address ceiling (ten times that): the back end counts only what the edge cache missed.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class LimitScopeMissesTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, LimitScopeMissesTest.class, new StackSwitches()
                .limitKey(LimitKey.parse("header:X-Api-Key")).limitScope(LimitScope.MISSES)
                .frontRate(1).frontBurst(1).frontMode(LimitMode.NODELAY).backRate(1000).backBurst(1000));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void aThousandHitsFromOneKeyDoNotRejectThatKeysNextMiss() throws Exception {
        String cached = Stacks.fresh("lasting");
        HttpResponse<String> first = Http.get(stack.frontUri(), cached, "X-Api-Key", "hit-key");
        assertThat(first.statusCode()).isEqualTo(200);

        // Counted at the edge, at 1 r/s, nearly all of these would be rejected and the bucket would
        // be full when the miss below arrives; as it is, the first miss left room for one more.
        for (int i = 0; i < 1000; i++) {
            HttpResponse<String> hit = Http.get(stack.frontUri(), cached, "X-Api-Key", "hit-key");
            assertThat(hit.statusCode()).as("hit %d", i).isEqualTo(200);
            assertThat(Stacks.cacheStatus(hit)).as("hit %d", i).isEqualTo("HIT");
            assertThat(hit.headers().firstValue("RateLimit-Policy")).as("hit %d", i).isPresent();
        }
        HttpResponse<String> miss = Http.get(stack.frontUri(), Stacks.fresh("lasting"), "X-Api-Key", "hit-key");

        assertThat(Stacks.cacheStatus(miss)).isEqualTo("MISS");
        assertThat(miss.statusCode()).isEqualTo(200);
    }

    @Test
    void missesFromOneKeyAreLimitedBehindTheCache() throws Exception {
        stack.origin().reset();
        List<Http.Raw> responses = burst(stack, "127.0.9.1", 5, "/hare", "X-Api-Key: miss-key");

        assertThat(count(responses, 200)).isBetween(2L, 3L);
        assertThat(count(responses, 429)).isEqualTo(5 - count(responses, 200));
        assertThat(responses).filteredOn(r -> r.status() == 429)
                .allSatisfy(r -> assertThat(r.header("Retry-After")).isEqualTo("1"));
        assertThat(Stacks.reached(stack, "hare")).isEqualTo(count(responses, 200));
    }

    @Test
    void theBackEndTakesTheKeyOnlyFromTheEdge() throws Exception {
        // Straight to the back end, naming someone else's key: not believed, so counted by the
        // sender's address, not in that key's bucket, which the edge's request then finds full.
        List<Http.Raw> direct = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            direct.add(Http.raw("127.0.9.2", stack.ports().back(), "GET", Stacks.fresh("hare"), "X-Limit-Key: victim-key"));
        }
        Http.Raw viaEdge = Http.raw("127.0.9.3", stack.ports().front(), "GET", Stacks.fresh("hare"), "X-Api-Key: victim-key");

        assertThat(count(direct, 429)).as("the sender's own address bucket").isGreaterThanOrEqualTo(1);
        assertThat(viaEdge.status()).isEqualTo(200);
    }
}
