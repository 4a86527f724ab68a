package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.RateLimitTest.burst;
import static dev.ratecache.suite.stack.RateLimitTest.burstTo;
import static dev.ratecache.suite.stack.RateLimitTest.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The per-client limit keyed on a cookie (--limit-key cookie:session) and on a query argument
 * (--limit-key arg:api_key), each 1 r/s burst 2 nodelay with the address ceiling off, as in
 * LimitKeyTest. A burst of 5 at once from one address under one bucket gets 3 through (4 if sending
 * it took over a second) and the rest 429; five keys of their own all get through. Rejections are
 * counted, not 200s: the origin may answer a control character in the query with 400.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class CookieAndArgKeysTest {
    private static Stack cookie;
    private static Stack arg;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        StackSwitches keyed = new StackSwitches().addressCeiling(AddressCeiling.OFF).frontRate(1).frontBurst(2)
                .frontMode(LimitMode.NODELAY).cache(false);
        cookie = Stacks.around(origin, TestDirs.fresh(CookieAndArgKeysTest.class, "cookie"),
                keyed.copy().limitKey(LimitKey.parse("cookie:session")));
        arg = Stacks.around(origin, TestDirs.fresh(CookieAndArgKeysTest.class, "arg"),
                keyed.copy().limitKey(LimitKey.parse("arg:api_key")));
    }

    @AfterAll
    static void stop() {
        java.util.stream.Stream.of(cookie, arg).filter(java.util.Objects::nonNull).forEach(Stack::close);
    }

    /** One request a key at once from {@code source}, the i-th with {@code keys.get(i)} as its api_key argument. */
    private static List<Http.Raw> argKeys(String source, List<String> keys) throws Exception {
        return burstTo(arg, source, IntStream.range(0, keys.size()).mapToObj(i -> "/hare?i=" + i + "&api_key=" + keys.get(i))
                .toList());
    }

    /**
     * {@code oneBucket}, five requests at once, shared one bucket (1 or 2 rejected); {@code fiveBuckets},
     * five more, had one each (none rejected).
     */
    private static void oneBucketThenFive(List<Http.Raw> oneBucket, String why, List<Http.Raw> fiveBuckets) {
        assertThat(count(oneBucket, 429)).as(why).isBetween(1L, 2L);
        assertThat(count(fiveBuckets, 429)).as("five keys, five buckets").isZero();
    }

    @Test
    void eachCookieKeyHasABucketOfItsOwnAtOneAddress() throws Exception {
        List<Http.Raw> one = burst(cookie, "127.0.10.1", 5, "/hare", "Cookie: theme=dark; session=cookie-one");
        List<Http.Raw> each = burst(cookie, "127.0.10.1", 5, "/hare", "Cookie: session=cookie-%d");

        oneBucketThenFive(one, "one key, one bucket", each);
        assertThat(one).allSatisfy(r -> assertThat(r.header("RateLimit-Policy")).startsWith("\"anonymous\";q=1;"));
    }

    @Test
    void aRequestWithoutTheCookieFallsBackToItsAddressLimit() throws Exception {
        // Another cookie is no key: five requests with five of them share their address's bucket.
        List<Http.Raw> otherCookie = burst(cookie, "127.0.10.2", 5, "/hare", "Cookie: theme=%d");

        assertThat(count(otherCookie, 429)).isBetween(1L, 2L);
    }

    @Test
    void eachArgKeyHasABucketOfItsOwnAtOneAddress() throws Exception {
        List<Http.Raw> one = argKeys("127.0.11.1", List.of("arg-one", "arg-one", "arg-one", "arg-one", "arg-one"));
        List<Http.Raw> each = argKeys("127.0.11.1", List.of("arg-a", "arg-b", "arg-c", "arg-d", "arg-e"));

        oneBucketThenFive(one, "one key, one bucket", each);
    }

    @Test
    void anArgKeyWithAPercentEncodedControlCharacterCountsAsMissing() throws Exception {
        // nginx does not decode $arg_NAME: %00-%1f and %7f are control characters the key would carry.
        // Five different keys: were they keys, each would have a bucket of its own and none would be rejected.
        List<Http.Raw> control = argKeys("127.0.11.2", List.of("key%00", "key%1f", "key%7F", "key%0a", "key%1B"));
        // Printable characters percent-encoded stay keys, each its own.
        List<Http.Raw> printable = argKeys("127.0.11.3", List.of("key%20", "key%41", "key%7e", "key%2F", "key%80"));

        oneBucketThenFive(control, "counted by their one address", printable);
    }

    @Test
    void anArgKeyOver256BytesCountsAsMissing() throws Exception {
        List<Http.Raw> tooLong = argKeys("127.0.11.4", IntStream.range(0, 5).mapToObj(i -> "k".repeat(256) + i).toList());
        List<Http.Raw> longest = argKeys("127.0.11.5", IntStream.range(0, 5).mapToObj(i -> "k".repeat(255) + i).toList());

        oneBucketThenFive(tooLong, "257-byte keys, counted by their one address", longest);
    }
}
