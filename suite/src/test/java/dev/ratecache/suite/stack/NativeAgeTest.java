package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.Stacks.fresh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The edge's Age from the native module (nginx/modules/age, {@code $upstream_cache_age}), on the
 * wire, one behaviour a test, in the manner of nginx-tests' proxy_cache_age.t: the edge tier as
 * the suite renders it with {@code --age-source native}, in front of the shared origin. Each
 * endpoint sends what its behaviour needs ({@link SharedOrigin#ENDPOINTS}): lasting, max-age=60;
 * aged, the same with Age: 7; swr, max-age=1 with stale-while-revalidate; plain, max-age=1 and no
 * permission to serve stale, so an expired entry is revalidated while the client waits.
 *
 * <p>Age is whole seconds on nginx's clock, the test's bounds whole seconds on its own: each
 * comparison with the test's clock allows a second either way, measured from a mark taken before
 * the entry was stored (the upper bound) or after (the lower).
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class NativeAgeTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        Path module = AgeSource.module();
        Required.that(module != null && Files.isRegularFile(module),
                "the native Age module is not built (./run-tests.sh builds it into " + AgeSource.MODULE + ")");
        stack = Stacks.around(origin, NativeAgeTest.class, new StackSwitches().ageSource(AgeSource.NATIVE));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static Http.Raw get(String url, String... headers) {
        return Http.raw("127.0.0.1", stack.ports().front(), "GET", url, headers);
    }

    private static long age(Http.Raw response) {
        return Long.parseLong(response.header("Age"));
    }

    /** Whole seconds from {@code since} to now. */
    private static long secondsSince(Instant since) {
        return Duration.between(since, Instant.now()).toSeconds();
    }

    /**
     * Asks for {@code url} until the edge answers a HIT whose Age is at least {@code age}: the
     * entry's own clock, read on the wire. Asking is harmless: a HIT leaves the entry as it was.
     */
    private static void awaitHitAged(String url, long age) {
        await("a HIT with Age >= " + age).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> get(url), r -> "HIT".equals(r.header("X-Cache-Status"))
                        && r.header("Age") != null && age(r) >= age);
    }

    @Test
    void ageGrowsWithTheTimeTheEntryIsHeld() {
        String url = fresh("lasting");
        Instant asked = Instant.now();
        Http.Raw miss = get(url);
        Instant answered = Instant.now();
        Http.Raw firstHit = get(url);

        awaitHitAged(url, age(firstHit) + 2);
        long atLeast = secondsSince(answered);
        Http.Raw laterHit = get(url);
        long atMost = secondsSince(asked);

        assertThat(miss.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(firstHit.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(age(firstHit)).isBetween(0L, secondsSince(asked) + 1);
        assertThat(laterHit.allValues("Age")).hasSize(1);
        assertThat(age(laterHit)).isGreaterThan(age(firstHit)).isBetween(atLeast - 1, atMost + 1);
    }

    @Test
    void theAgeAResponseArrivedWithIsAddedToItsTimeInTheCache() {
        String url = fresh("aged");
        Instant asked = Instant.now();
        get(url);
        Instant answered = Instant.now();

        awaitHitAged(url, 7 + 2);
        long atLeast = secondsSince(answered);
        Http.Raw hit = get(url);
        long atMost = secondsSince(asked);

        // One Age: the stored one is replaced, not repeated.
        assertThat(hit.allValues("Age")).hasSize(1);
        assertThat(age(hit)).isBetween(7 + atLeast - 1, 7 + atMost + 1);
    }

    @Test
    void aMissPassesTheAgeFromBehindAsItCame() {
        Http.Raw miss = get(fresh("aged"));

        assertThat(miss.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(miss.allValues("Age")).containsExactly("7");
    }

    @Test
    void aStaleAnswerIsOlderThanItsLifetime() {
        String url = fresh("swr");
        Instant asked = Instant.now();
        get(url);

        Http.Raw stale = Stacks.firstAnswerNotAHit(() -> get(url), r -> r.header("X-Cache-Status"));
        long atMost = secondsSince(asked);

        // max-age=1: nginx answers STALE once its whole-second clock is 2 s past the store, so the
        // age a client sees says the answer is stale to it too.
        assertThat(stale.header("X-Cache-Status")).isEqualTo("STALE");
        assertThat(stale.allValues("Age")).hasSize(1);
        assertThat(age(stale)).isBetween(2L, atMost + 1);
    }

    @Test
    void aRevalidatedAnswerIsAgeZeroAndItsHitsCountFromTheRevalidation() {
        String url = fresh("plain");
        get(url);

        Http.Raw revalidated = Stacks.firstAnswerNotAHit(() -> get(url), r -> r.header("X-Cache-Status"));
        Instant validated = Instant.now();
        Http.Raw hit = get(url);
        long sinceValidation = secondsSince(validated);

        // The origin's 304 makes the entry as good as new: nginx keeps its stored Date, but the
        // module counts from the revalidation, not from the first fetch 2 s or more before (njs,
        // counting from that Date, says 2 or more here).
        assertThat(revalidated.header("X-Cache-Status")).isEqualTo("REVALIDATED");
        assertThat(revalidated.allValues("Age")).containsExactly("0");
        assertThat(hit.header("X-Cache-Status")).isEqualTo("HIT");
        // The mark is taken after nginx stamped the revalidation: a second more than the others allow.
        assertThat(age(hit)).isBetween(0L, sinceValidation + 2);
    }

    @Test
    void aBypassSendsNoAgeEvenForAnEntryTheCacheHolds() {
        String url = fresh("lasting");
        get(url);
        awaitHitAged(url, 1);

        Http.Raw bypass = get(url, "Authorization: Bearer alice");

        assertThat(bypass.header("X-Cache-Status")).isEqualTo("BYPASS");
        assertThat(bypass.allValues("Age")).isEmpty();
    }
}
