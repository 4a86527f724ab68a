package dev.ratecache.suite.stack;

import dev.ratecache.suite.edge.NginxEdge;
import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static dev.ratecache.suite.stack.Stacks.fresh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.AccessLog;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The edge cache, observed on the wire and at the origin's own counters. Its stale behaviours use
 * quick, which sends the origin's default stale-while-revalidate and stale-if-error: with the
 * default {@code --stale rfc} the edge serves stale only because the origin allows it (see
 * {@link EdgeStaleRulesTest} for responses that don't).
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class EdgeCacheTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, EdgeCacheTest.class, new StackSwitches().readTimeout(2));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }



    /** The first answer for {@code url} once its (1 s) entry has expired: see {@link Stacks#firstAnswerNotAHit}. */
    private static HttpResponse<String> onceExpired(String url) {
        return Stacks.firstAnswerNotAHit(stack, url);
    }

    private static long reached(String endpoint) throws Exception {
        return Stacks.reached(stack, endpoint);
    }

    @Test
    void missThenHitWhileFresh() throws Exception {
        String url = fresh("hare");
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("MISS");
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");
        assertThat(reached("hare")).isEqualTo(1);
    }

    @Test
    void expiredEntryIsServedStaleAndRevalidatedInTheBackgroundWithIfNoneMatch() throws Exception {
        String url = fresh("quick");
        Http.get(stack.frontUri(), url);

        HttpResponse<String> expired = onceExpired(url);

        assertThat(cacheStatus(expired)).isEqualTo("STALE");
        // The background refresh asked the origin with If-None-Match and got a 304.
        await().atMost(Duration.ofSeconds(5)).until(() -> stack.origin().counters().notModified("quick") == 1);
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");
        assertThat(reached("quick")).isEqualTo(2);
    }

    @Test
    void requestDuringABackgroundRefreshIsAnsweredUpdating() throws Exception {
        String url = fresh("quick");
        Http.get(stack.frontUri(), url);
        stack.origin().slow("quick", Duration.ofMillis(1500));

        // A connection each: nginx reads a kept-alive connection's next request only after the
        // background refresh that its previous request started has finished.
        AtomicReference<Instant> asked = new AtomicReference<>();
        Http.Raw stale = Stacks.firstAnswerNotAHit(() -> {
            asked.set(Instant.now());
            return Http.raw("127.0.0.1", stack.ports().front(), "GET", url);
        }, r -> r.header("X-Cache-Status"));
        Http.Raw updating = Http.raw("127.0.0.1", stack.ports().front(), "GET", url);

        assertThat(stale.header("X-Cache-Status")).isEqualTo("STALE");
        assertThat(updating.header("X-Cache-Status")).isEqualTo("UPDATING");
        // Neither waited for the 1.5 s refresh.
        assertThat(Duration.between(asked.get(), Instant.now())).isLessThan(Duration.ofMillis(1000));
    }

    @Test
    void requestWithAuthorizationBypassesTheCacheAndIsNotStored() throws Exception {
        String url = fresh("hare");
        assertThat(cacheStatus(Http.get(stack.frontUri(), url, "Authorization", "Bearer alice"))).isEqualTo("BYPASS");
        assertThat(cacheStatus(Http.get(stack.frontUri(), url, "Authorization", "Bearer bob"))).isEqualTo("BYPASS");
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("MISS");
        assertThat(reached("hare")).isEqualTo(3);
    }

    @Test
    void requestWithACookieBypassesTheCacheAndIsNotStored() throws Exception {
        String url = fresh("hare");
        assertThat(cacheStatus(Http.get(stack.frontUri(), url, "Cookie", "session=alice"))).isEqualTo("BYPASS");
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("MISS");
        assertThat(reached("hare")).isEqualTo(2);
    }

    @Test
    void responseWithSetCookieIsNotStored() throws Exception {
        String url = fresh("cookie");
        HttpResponse<String> first = Http.get(stack.frontUri(), url);
        assertThat(first.headers().firstValue("Set-Cookie")).hasValue("session=abc123");
        Http.get(stack.frontUri(), url);
        assertThat(reached("cookie")).isEqualTo(2);
    }

    /** private answers Cache-Control: private, max-age=60; nostore answers Cache-Control: no-store. */
    @ParameterizedTest(name = "{0} response is not stored")
    @ValueSource(strings = {"private", "nostore"})
    void responseTheOriginForbidsToStoreIsNotStored(String endpoint) throws Exception {
        String url = fresh(endpoint);
        Http.get(stack.frontUri(), url);
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("MISS");
        assertThat(reached(endpoint)).isEqualTo(2);
    }

    @Test
    void cacheKeyIncludesTheHost() throws Exception {
        String url = fresh("hare");
        Http.Raw first = Http.raw("127.0.0.1", stack.ports().front(), "GET", url, "Host: a.example");
        Http.Raw a = Http.raw("127.0.0.1", stack.ports().front(), "GET", url, "Host: a.example");
        Http.Raw b = Http.raw("127.0.0.1", stack.ports().front(), "GET", url, "Host: b.example");
        assertThat(first.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(a.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(b.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(reached("hare")).isEqualTo(2);
    }

    @Test
    void fiftySimultaneousMissesForOneUrlReachTheOriginOnce() throws Exception {
        String url = fresh("slow");
        List<HttpResponse<String>> all = Http.burst(stack.frontUri(), Collections.nCopies(50, url));
        assertThat(all).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
        assertThat(reached("slow")).isEqualTo(1);
    }

    @Test
    void staleContentIsServedWhileTheOriginIsStopped() throws Exception {
        String url = fresh("quick");
        String body = Http.get(stack.frontUri(), url).body();
        stack.origin().stop();
        try {
            HttpResponse<String> whileDown = onceExpired(url);
            assertThat(whileDown.statusCode()).isEqualTo(200);
            assertThat(cacheStatus(whileDown)).isEqualTo("STALE");
            assertThat(whileDown.body()).isEqualTo(body);
        } finally {
            stack.origin().start();
        }
    }

    @Test
    void staleContentIsServedWhileTheOriginErrors() throws Exception {
        String url = fresh("quick");
        String body = Http.get(stack.frontUri(), url).body();
        stack.origin().fail("quick", 500);

        HttpResponse<String> whileFailing = onceExpired(url);

        assertThat(whileFailing.statusCode()).isEqualTo(200);
        assertThat(whileFailing.body()).isEqualTo(body);
        // The background refresh got the 500 and the entry stays as it was. Where the entry may be
        // served stale on error the back end turns the 500 into a dropped connection
        // (snippets/back/origin-errors.conf), which the front end retries once when it came on a
        // kept-alive connection: the origin sees the refresh once or twice.
        await().atMost(Duration.ofSeconds(5)).until(() -> reached("quick") >= 2);
        assertThat(Http.get(stack.frontUri(), url).body()).isEqualTo(body);
    }

    @Test
    void staleContentIsServedWhileTheOriginTimesOut() throws Exception {
        String url = fresh("quick");
        String body = Http.get(stack.frontUri(), url).body();
        // Longer than the tiers' 2 s read timeout.
        stack.origin().slow("quick", Duration.ofSeconds(4));

        // The request that finds the entry expired starts the background refresh that times out.
        onceExpired(url);
        // The back end logs that refresh once it is over (its own 504, or 499 when the front end
        // gave up first): the back end's second line for this URL, after the first miss.
        AccessLog.linesFor(stack.tiers(NginxEdge.Tiers.class).back().accessLog(), url, 2, Duration.ofSeconds(15));
        HttpResponse<String> afterTimeout = Http.get(stack.frontUri(), url);

        assertThat(afterTimeout.statusCode()).isEqualTo(200);
        assertThat(cacheStatus(afterTimeout)).isIn("STALE", "UPDATING");
        assertThat(afterTimeout.body()).isEqualTo(body);
    }

    @Test
    void purgeFromAnAllowedAddressRemovesTheUrl() throws Exception {
        String url = fresh("hare");
        Http.get(stack.frontUri(), url);
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");

        Http.Raw purge = Http.raw("127.0.0.1", stack.ports().front(), "PURGE", url);

        assertThat(purge.status()).isEqualTo(200);
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("MISS");
        assertThat(reached("hare")).isEqualTo(2);
    }

    @Test
    void purgeFromAnotherAddressIsRefused() throws Exception {
        String url = fresh("hare");
        Http.get(stack.frontUri(), url);

        Http.Raw purge = Http.raw("127.0.0.2", stack.ports().front(), "PURGE", url);

        assertThat(purge.status()).isEqualTo(403);
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");
    }
}
