package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.RateLimitTest.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Keys in a query argument, with the default per-key limit (100 r/s burst 200) and an address
 * ceiling of 1 r/s burst 3: a client that makes up a new key per request still gets no more than
 * the ceiling from its address.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class AddressCeilingTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, AddressCeilingTest.class, new StackSwitches().limitKey(LimitKey.parse("arg:key"))
                .addressCeiling(AddressCeiling.parse("1,3")).cache(false));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void aClientRotatingKeysIsHeldToItsAddressCeiling() throws Exception {
        List<Http.Raw> responses = new java.util.ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(10);
        try {
            List<java.util.concurrent.Future<Http.Raw>> futures = java.util.stream.IntStream.range(0, 10)
                    .mapToObj(i -> pool.submit(() -> Http.raw("127.0.6.3", stack.ports().front(), "GET",
                            "/hare?key=rotated-" + i))).toList();
            for (var f : futures) {
                responses.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(count(responses, 200)).isBetween(4L, 5L);
        // Both policies are in force; nginx does not say which rejected, so no RateLimit is sent.
        assertThat(responses).allSatisfy(r -> assertThat(r.header("RateLimit-Policy")).isEqualTo(
                "\"anonymous\";q=100;w=1;ratecache-burst=200, \"address-ceiling\";q=1;w=1;ratecache-burst=3"));
        assertThat(responses).filteredOn(r -> r.status() == 429).isNotEmpty()
                .allSatisfy(r -> assertThat(r.header("RateLimit")).isNull());
    }
}
