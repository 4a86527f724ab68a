package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.RateLimitTest.burst;
import static dev.ratecache.suite.stack.RateLimitTest.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The per-client limit keyed on a header (X-Api-Key), 1 r/s burst 2 nodelay, with the address
 * ceiling off so that only the key's limit is seen. Each test sends from its own loopback address
 * and its own keys. A burst of 5 at once gets 3 through (1 + burst 2), or 4 if sending it took
 * over a second.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class LimitKeyTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, LimitKeyTest.class, new StackSwitches().limitKey(LimitKey.parse("header:X-Api-Key"))
                .addressCeiling(AddressCeiling.OFF).frontRate(1).frontBurst(2).frontMode(LimitMode.NODELAY).cache(false));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void eachKeyHasABucketOfItsOwnAtOneAddress() throws Exception {
        List<Http.Raw> first = burst(stack, "127.0.1.1", 5, "/hare", "X-Api-Key: key-one");
        List<Http.Raw> second = burst(stack, "127.0.1.1", 5, "/hare", "X-Api-Key: key-two");

        assertThat(count(first, 200)).isBetween(3L, 4L);
        assertThat(count(second, 200)).isBetween(3L, 4L);
    }

    @Test
    void aRequestWithoutAKeyFallsBackToItsAddressLimit() throws Exception {
        List<Http.Raw> keyless = burst(stack, "127.0.1.2", 5, "/hare");
        Http.Raw otherAddress = Http.raw("127.0.1.3", stack.ports().front(), "GET", "/hare");

        assertThat(count(keyless, 200)).isBetween(3L, 4L);
        assertThat(otherAddress.status()).isEqualTo(200);
    }

    @Test
    void aKeyOver256BytesCountsAsMissing() throws Exception {
        // Five different keys: were they keys, each would have a bucket of its own and all would pass.
        List<Http.Raw> tooLong = burst(stack, "127.0.1.4", 5, "/hare", "X-Api-Key: " + "k".repeat(254) + "%03d");
        List<Http.Raw> longest = burst(stack, "127.0.1.5", 5, "/hare", "X-Api-Key: " + "k".repeat(253) + "%03d");

        assertThat(count(tooLong, 200)).as("257-byte keys, counted by their one address").isBetween(3L, 4L);
        assertThat(count(longest, 200)).as("256-byte keys, each its own").isEqualTo(5);
    }

    @Test
    void aKeyWithAControlCharacterCountsAsMissing() throws Exception {
        // A tab (0x09) inside a value is valid HTTP, so the origin answers 200; other control characters
        // reach it too (nginx refuses only NUL, CR and LF) and the suite's origin answers them 400.
        List<Http.Raw> tab = burst(stack, "127.0.1.6", 5, "/hare", "X-Api-Key: key\t%d");
        List<Http.Raw> soh = burst(stack, "127.0.1.8", 5, "/hare", "X-Api-Key: key\u0001%d");

        assertThat(count(tab, 200)).isBetween(3L, 4L);
        assertThat(count(soh, 429)).as("rejected by the address's limit").isBetween(1L, 2L);
    }

    @Test
    void everyAnswerCarriesThePolicyAndARejectionSaysNothingIsLeftUntilRetryAfter() throws Exception {
        List<Http.Raw> responses = burst(stack, "127.0.1.7", 6, "/hare", "X-Api-Key: key-seven");

        String policy = "\"anonymous\";q=1;w=1;ratecache-burst=2";
        assertThat(responses).allSatisfy(r -> assertThat(r.header("RateLimit-Policy")).isEqualTo(policy));
        assertThat(responses).filteredOn(r -> r.status() == 200).isNotEmpty()
                .allSatisfy(r -> assertThat(r.header("RateLimit")).isNull());
        assertThat(responses).filteredOn(r -> r.status() == 429).isNotEmpty().allSatisfy(r -> {
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat(r.header("RateLimit")).isEqualTo("\"anonymous\";r=0;t=1");
        });
    }
}
