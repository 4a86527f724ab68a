package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static dev.ratecache.suite.stack.Stacks.fresh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How long the edge cache keeps a response, computed as RFC 9111 says (sections 4.1, 4.2.1,
 * 4.2.3, 5.3) and RFC 9213 adds, from exactly the headers the origin sends. Each endpoint has a
 * lifetime of 60 s as nginx alone would read it and about 2 s as the RFCs do, so a busy machine
 * can't blur the two: "expires within 10 s" can only mean the rule was applied.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
// One instance for the class, so that a subclass (FreshnessRulesOverTlsTest) changes the switches by
// overriding switches(): JUnit runs a superclass's static @BeforeAll even where a subclass hides it.
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FreshnessRulesTest {
    private Stack stack;

    /** The back end would give /badexpires a minute of its own, were the origin silent. */
    StackSwitches switches() {
        return new StackSwitches().freshness("/badexpires", 60);
    }

    @BeforeAll
    void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, getClass(), switches());
    }

    @AfterAll
    void stop() {
        Stacks.closeAll(stack);
    }

    private long reached(String endpoint) throws Exception {
        return Stacks.reached(stack, endpoint);
    }

    /**
     * Stored (a HIT right after the MISS), then no longer answered from the cache within 10 s;
     * returns the first answer.
     */
    private HttpResponse<String> storedThenExpiresWithinSeconds(String endpoint) throws Exception {
        String url = fresh(endpoint);
        HttpResponse<String> first = Http.get(stack.frontUri(), url);
        assertThat(cacheStatus(first)).isEqualTo("MISS");
        assertThat(first.headers().firstValue("X-Accel-Expires")).as("stays between the tiers").isEmpty();
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");

        Stacks.firstAnswerNotAHit(stack, url);

        await().atMost(Duration.ofSeconds(5)).until(() -> reached(endpoint) == 2);
        return first;
    }

    @Test
    void ageFromUpstreamShortensFreshness() throws Exception {
        // max-age=60 with Age: 58: two seconds left.
        storedThenExpiresWithinSeconds("aged58");
    }

    @Test
    void dateInThePastCountsAsAge() throws Exception {
        // max-age=60, sent with a Date 58 s old: the apparent age leaves two seconds.
        storedThenExpiresWithinSeconds("lagging");
    }

    @Test
    void expiresCountsFromTheResponsesDateNotTheEdgesClock() throws Exception {
        // An origin clock an hour fast: Expires = its Date + 2 s, which is an hour ahead of the edge's clock.
        storedThenExpiresWithinSeconds("ahead");
    }

    @Test
    void invalidExpiresMeansAlreadyExpired() throws Exception {
        String url = fresh("badexpires");
        HttpResponse<String> first = Http.get(stack.frontUri(), url);
        HttpResponse<String> second = Http.get(stack.frontUri(), url);

        assertThat(first.headers().allValues("Expires")).containsExactly("not a date");
        assertThat(cacheStatus(second)).isEqualTo("MISS");
        assertThat(reached("badexpires")).isEqualTo(2);
    }

    /** varyall sends Vary: *, varylist Vary: Accept, *; both with max-age=60. */
    @ParameterizedTest(name = "{0}: never a HIT")
    @ValueSource(strings = {"varyall", "varylist"})
    void varyWithAStarAnywhereIsNeverServedFromCache(String endpoint) throws Exception {
        String url = fresh(endpoint);
        for (int i = 0; i < 3; i++) {
            assertThat(cacheStatus(Http.get(stack.frontUri(), url, "Accept", "application/json"))).isEqualTo("MISS");
        }
        assertThat(reached(endpoint)).isEqualTo(3);
    }

    @Test
    void cdnCacheControlRulesTheEdgeAndLeavesCacheControlToTheClient() throws Exception {
        // Cache-Control: public, max-age=60 and CDN-Cache-Control: max-age=2.
        HttpResponse<String> first = storedThenExpiresWithinSeconds("targeted");

        assertThat(first.headers().allValues("Cache-Control")).containsExactly("public, max-age=60");
        assertThat(first.headers().allValues("CDN-Cache-Control")).containsExactly("max-age=2");
    }

    /** RFC 9213: CDN-Cache-Control forbidding storage wins over a Cache-Control that allows it. */
    @ParameterizedTest(name = "CDN-Cache-Control of {0}")
    @ValueSource(strings = {"cdnnostore", "cdnprivate"})
    void cdnCacheControlThatForbidsStoringIsNeverStored(String endpoint) throws Exception {
        String url = fresh(endpoint);
        for (int i = 0; i < 3; i++) {
            assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("MISS");
        }
        assertThat(reached(endpoint)).isEqualTo(3);
    }

    /**
     * RFC 9213: a CDN-Cache-Control with a max-age replaces, at this shared cache, a Cache-Control
     * that refuses storing; the client, whose cache obeys Cache-Control, still gets it as sent.
     */
    @ParameterizedTest(name = "Cache-Control: {1}")
    @CsvSource({"cdnovernostore, no-store", "cdnoverprivate, private", "cdnovermaxage0, 'public, max-age=0'"})
    void cdnCacheControlWithAMaxAgeIsStoredWhateverCacheControlRefuses(String endpoint, String cacheControl)
            throws Exception {
        String url = fresh(endpoint);
        HttpResponse<String> miss = Http.get(stack.frontUri(), url);
        HttpResponse<String> hit = Http.get(stack.frontUri(), url);

        assertThat(cacheStatus(miss)).isEqualTo("MISS");
        assertThat(cacheStatus(hit)).isEqualTo("HIT");
        assertThat(reached(endpoint)).isEqualTo(1);
        for (HttpResponse<String> answer : List.of(miss, hit)) {
            assertThat(answer.headers().allValues("Cache-Control")).containsExactly(cacheControl);
            assertThat(answer.headers().allValues("CDN-Cache-Control")).containsExactly("max-age=60");
            assertThat(answer.headers().firstValue("X-Accel-Expires")).as("stays between the tiers").isEmpty();
        }
    }

    /**
     * Never stored, each request reaching the origin: the CDN-Cache-Control beside Cache-Control:
     * no-store, which alone would have the edge keep it, was ignored. It still reaches the client
     * as sent, so the origin did send it.
     */
    private void cdnCacheControlIgnoredForNoStore(String endpoint, String cdnCacheControl) throws Exception {
        String url = fresh(endpoint);
        HttpResponse<String> first = Http.get(stack.frontUri(), url);
        HttpResponse<String> second = Http.get(stack.frontUri(), url);

        assertThat(List.of(cacheStatus(first), cacheStatus(second))).containsExactly("MISS", "MISS");
        assertThat(reached(endpoint)).isEqualTo(2);
        assertThat(first.headers().allValues("CDN-Cache-Control")).containsExactly(cdnCacheControl);
        assertThat(first.headers().allValues("Cache-Control")).containsExactly("no-store");
    }

    /**
     * RFC 9213 section 2.1: a CDN-Cache-Control that fails to parse as a Structured Field
     * Dictionary (RFC 9651) is ignored, and Cache-Control rules: "&&&&&" is no member at all.
     */
    @Test
    void aCdnCacheControlThatIsNotAStructuredDictionaryIsIgnoredForCacheControl() throws Exception {
        cdnCacheControlIgnoredForNoStore("cdnnotadict", "max-age=10000, &&&&&");
    }

    /** RFC 9213 section 2.1: max-age is an Integer; a String "10000" is the wrong type, and the field is ignored. */
    @Test
    void aCdnCacheControlWhoseMaxAgeIsAStringIsIgnoredForCacheControl() throws Exception {
        cdnCacheControlIgnoredForNoStore("cdnquotedmaxage", "max-age=\"10000\"");
    }

    /**
     * More fields that a lenient split on commas read as max-age=10000, and that RFC 9651 fails or
     * RFC 9213 finds of the wrong type: keys are lower case, a comma needs a member after it, a
     * String escapes only a quote or a backslash, and s-maxage (which wins over max-age) is an
     * Integer, not a Decimal.
     */
    static Stream<Arguments> otherInvalidCdnCacheControls() {
        return Stream.of(
                Arguments.of("cdnuppercase", "Max-Age=10000"),
                Arguments.of("cdntrailingcomma", "max-age=10000,"),
                Arguments.of("cdnbadescape", "max-age=10000, note=\"\\q\""),
                Arguments.of("cdndecimalsmaxage", "max-age=10000, s-maxage=10000.0"));
    }

    @ParameterizedTest(name = "CDN-Cache-Control: {1}")
    @MethodSource("otherInvalidCdnCacheControls")
    void anInvalidCdnCacheControlIsIgnoredForCacheControl(String endpoint, String cdnCacheControl) throws Exception {
        cdnCacheControlIgnoredForNoStore(endpoint, cdnCacheControl);
    }

    /**
     * RFC 9213 section 2.1 maps no-store to Boolean true: no-store=1 is the wrong type, so the field
     * is ignored the other way round too, and Cache-Control: public, max-age=60 has it stored.
     */
    @Test
    void aCdnCacheControlWhoseNoStoreHasAValueIsIgnoredAndCacheControlHasItStored() throws Exception {
        String url = fresh("cdnnostorevalue");
        HttpResponse<String> miss = Http.get(stack.frontUri(), url);
        HttpResponse<String> hit = Http.get(stack.frontUri(), url);

        assertThat(List.of(cacheStatus(miss), cacheStatus(hit))).containsExactly("MISS", "HIT");
        assertThat(reached("cdnnostorevalue")).isEqualTo(1);
        assertThat(miss.headers().allValues("CDN-Cache-Control")).containsExactly("no-store=1");
    }

    /**
     * The parser refuses only what RFC 9651 does: parameters (which RFC 9213 ignores), an inner
     * list and a byte sequence beside max-age=60 leave it read, stored in spite of no-store.
     */
    @Test
    void aCdnCacheControlWithParametersAndOtherMembersIsStillRead() throws Exception {
        String url = fresh("cdnrich");
        HttpResponse<String> miss = Http.get(stack.frontUri(), url);
        HttpResponse<String> hit = Http.get(stack.frontUri(), url);

        assertThat(List.of(cacheStatus(miss), cacheStatus(hit))).containsExactly("MISS", "HIT");
        assertThat(reached("cdnrich")).isEqualTo(1);
        assertThat(miss.headers().allValues("CDN-Cache-Control"))
                .containsExactly("max-age=60;by=origin, note=(\"a\" 1);x, hint=:aGk=:");
    }
}
