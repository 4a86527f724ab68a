package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.RateLimitTest.burst;
import static dev.ratecache.suite.stack.RateLimitTest.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tiers of API keys (X-Api-Key), all 1 r/s nodelay, told apart by their bursts: free 1, pro 10, and
 * the anonymous tier (--front-burst 0) for every other key. A request without a valid key is
 * refused (--missing-key reject). The address ceiling is off, so only the tiers are seen. Each
 * test sends from its own loopback address and with keys of its own (a key's bucket follows it to
 * any address); a burst that took over a second to send may get one more request through.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class KeyTiersTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        Path dir = TestDirs.fresh(KeyTiersTest.class, "tiers");
        // "default" is one of map's own words: the config must still take it as a key.
        Files.writeString(dir.resolve("tiers.txt"), "# name rate burst mode keys\nfree 1 1 nodelay free-1,free-2,default\n"
                + "pro 1 10 nodelay @pro.keys\n");
        Files.writeString(dir.resolve("pro.keys"), "pro-1\npro-2\n");
        stack = Stacks.around(origin, KeyTiersTest.class, new StackSwitches().limitKey(LimitKey.parse("header:X-Api-Key"))
                .tiers(dir.resolve("tiers.txt")).missingKey(MissingKey.REJECT).addressCeiling(AddressCeiling.OFF)
                .frontRate(1).frontBurst(0).frontMode(LimitMode.NODELAY).cache(false));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void aKeyGetsItsTiersLimitAndPolicy() throws Exception {
        List<Http.Raw> pro = burst(stack, "127.0.5.1", 12, "/hare", "X-Api-Key: pro-1");
        List<Http.Raw> free = burst(stack, "127.0.5.2", 5, "/hare", "X-Api-Key: free-1");

        assertThat(count(pro, 200)).isBetween(11L, 12L);
        assertThat(count(free, 200)).isBetween(2L, 3L);
        assertThat(pro).allSatisfy(r -> assertThat(r.header("RateLimit-Policy")).isEqualTo("\"pro\";q=1;w=1;ratecache-burst=10"));
        assertThat(free).allSatisfy(r -> assertThat(r.header("RateLimit-Policy")).isEqualTo("\"free\";q=1;w=1;ratecache-burst=1"));
        assertThat(free).filteredOn(r -> r.status() == 429).isNotEmpty()
                .allSatisfy(r -> assertThat(r.header("RateLimit")).isEqualTo("\"free\";r=0;t=1"));
    }

    @Test
    void anUnknownKeyGetsTheAnonymousTier() throws Exception {
        List<Http.Raw> responses = burst(stack, "127.0.5.3", 5, "/hare", "X-Api-Key: stranger");

        assertThat(count(responses, 200)).isBetween(1L, 2L);
        assertThat(responses).allSatisfy(r -> assertThat(r.header("RateLimit-Policy"))
                .isEqualTo("\"anonymous\";q=1;w=1;ratecache-burst=0"));
    }

    @Test
    void aCaseVariantOfAKeyIsCountedInTheAnonymousTier() throws Exception {
        // nginx's map matches keys ignoring case: PRO-2 was in pro-2's tier with a bucket of its own, so
        // rotating the case of one pro key gave fresh pro buckets.
        List<Http.Raw> variant = burst(stack, "127.0.5.6", 5, "/hare", "X-Api-Key: PRO-2");

        assertThat(variant).allSatisfy(r -> assertThat(r.header("RateLimit-Policy"))
                .isEqualTo("\"anonymous\";q=1;w=1;ratecache-burst=0"));
        // The anonymous tier's burst of 0, not pro's 10.
        assertThat(count(variant, 200)).isBetween(1L, 2L);
    }

    @Test
    void eachKeyOfATierHasABucketOfItsOwn() throws Exception {
        // Keys of their own: a key's bucket is the same whatever the address, and another test spends free-1's.
        List<Http.Raw> first = burst(stack, "127.0.5.4", 5, "/hare", "X-Api-Key: free-2");
        List<Http.Raw> second = burst(stack, "127.0.5.4", 5, "/hare", "X-Api-Key: default");

        assertThat(count(first, 200)).isBetween(2L, 3L);
        assertThat(count(second, 200)).isBetween(2L, 3L);
        assertThat(second.get(0).header("RateLimit-Policy")).startsWith("\"free\";");
    }

    @Test
    void aRequestWithoutAValidKeyIsRefusedWith401AndOneLine() throws Exception {
        stack.origin().reset();
        Http.Raw keyless = Http.raw("127.0.5.5", stack.ports().front(), "GET", "/hare");
        Http.Raw tooLong = Http.raw("127.0.5.5", stack.ports().front(), "GET", "/hare", "X-Api-Key: " + "p".repeat(257));

        for (Http.Raw r : List.of(keyless, tooLong)) {
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.body()).endsWith("\n").doesNotContain("<").contains("X-Api-Key").hasLineCount(1);
            assertThat(r.header("Content-Type")).startsWith("text/plain");
            assertThat(r.header("WWW-Authenticate")).isEqualTo("ApiKey header=\"X-Api-Key\"");
        }
        assertThat(Stacks.reached(stack, "hare")).isZero();
    }

    @Test
    void theRefusalOfAKeylessRequestCarriesTheAnonymousTiersPolicy() throws Exception {
        Http.Raw keyless = Http.raw("127.0.5.8", stack.ports().front(), "GET", "/hare");

        assertThat(keyless.status()).isEqualTo(401);
        assertThat(keyless.header("RateLimit-Policy")).isEqualTo("\"anonymous\";q=1;w=1;ratecache-burst=0");
    }
}
