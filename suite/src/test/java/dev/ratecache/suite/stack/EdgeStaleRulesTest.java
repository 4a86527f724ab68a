package dev.ratecache.suite.stack;

import dev.ratecache.suite.edge.NginxEdge;
import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static dev.ratecache.suite.stack.Stacks.fresh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.AccessLog;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.Waits;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The edge cache serves an expired entry only where the origin allowed it (RFC 9111 section
 * 4.2.4, RFC 5861), with the default {@code --stale rfc}: through both tiers, at the origin's own
 * counters. Each endpoint sends exactly the Cache-Control its behaviour needs
 * ({@link SharedOrigin#ENDPOINTS}): plain, no permission to serve stale; swr,
 * stale-while-revalidate for a minute; swrbrief, for one second; sie, stale-if-error for a minute;
 * mustrevalidate, proxyrevalidate, smaxage, each forbidding stale (RFC 9111 sections 5.2.2.2,
 * 5.2.2.8, 5.2.2.10); mrsie, prsie, smsie, the same three beside a stale-if-error, which they
 * override. All fresh for 1 s.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class EdgeStaleRulesTest {
    private static final StackSwitches SWITCHES = new StackSwitches().readTimeout(2);
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, EdgeStaleRulesTest.class, SWITCHES);
    }

    /**
     * What a client gets when the origin answers {@code originStatus} and the expired entry may not
     * be served stale: that status, where the front end tells the back end so (the native module's
     * $upstream_cache_stale_if_error); the front end's 502 without the module, whose back end drops
     * the connection for any expired entry held (snippets/back/origin-errors.conf).
     */
    private static int failureWithoutPermission(int originStatus) {
        return SWITCHES.ageSourceInForce() == AgeSource.NATIVE ? originStatus : 502;
    }

    @AfterAll
    static void stop() {
        stack.close();
    }



    private static long reached(String endpoint) throws Exception {
        return Stacks.reached(stack, endpoint);
    }

    /**
     * What the back end answered the front end for its STALE answer to {@code url}, as its access
     * log says: empty when it served the entry without asking, "502" for each attempt that ended
     * in a dropped connection.
     */
    private static String backEndAnswersBehindTheStaleAnswer(String url) {
        return await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> AccessLog.linesFor(stack.tiers(NginxEdge.Tiers.class).front().accessLog(), url, 1).stream()
                        .filter(line -> "STALE".equals(line.path("cache").asText())).findFirst(), Optional::isPresent)
                .map(line -> line.path("upstream_status").asText()).orElseThrow();
    }

    @Test
    void expiredEntryWithoutPermissionIsNotServedStaleEvenWhileAnotherRequestRefreshesIt() throws Exception {
        String url = Stacks.store(stack, "plain").url();
        long stored = reached("plain");
        stack.origin().slow("plain", Duration.ofMillis(1500));

        // The first request to find the entry expired goes to the origin and stays there 1.5 s.
        CompletableFuture<Http.Raw> refreshing = CompletableFuture.supplyAsync(() -> Stacks.firstAnswerNotAHit(
                () -> Http.raw("127.0.0.1", stack.ports().front(), "GET", url), r -> r.header("X-Cache-Status")));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> stack.origin().counters().endpoints().get("plain").inFlight() == 1);
        Http.Raw during = Http.raw("127.0.0.1", stack.ports().front(), "GET", url);
        Http.Raw first = refreshing.get(30, TimeUnit.SECONDS);

        // Both waited for the origin: a 304 (REVALIDATED) or a new body (EXPIRED), never the stored
        // entry as it was (STALE, UPDATING).
        assertThat(first.header("X-Cache-Status")).isIn("REVALIDATED", "EXPIRED");
        assertThat(during.status()).isEqualTo(200);
        assertThat(during.header("X-Cache-Status")).isIn("REVALIDATED", "EXPIRED");
        assertThat(reached("plain")).isEqualTo(stored + 2);
    }

    @Test
    void staleWhileRevalidateServesTheExpiredEntryAndRefreshesItInTheBackground() throws Exception {
        Stacks.Stored entry = Stacks.store(stack, "swr");
        String url = entry.url();
        String stored = entry.body();
        long before = reached("swr");

        HttpResponse<String> expired = Stacks.firstAnswerNotAHit(stack, url);

        assertThat(cacheStatus(expired)).isEqualTo("STALE");
        assertThat(expired.body()).isEqualTo(stored);
        // The background refresh asked the origin with If-None-Match and got a 304.
        await().atMost(Duration.ofSeconds(5)).until(() -> stack.origin().counters().notModified("swr") == 1);
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");
        assertThat(reached("swr")).isEqualTo(before + 1);
    }

    @Test
    void pastItsStaleWhileRevalidateWindowTheClientWaitsForTheOrigin() throws Exception {
        String url = Stacks.store(stack, "swrbrief").url();
        long before = reached("swrbrief");
        // max-age=1 plus stale-while-revalidate=1: nothing may serve it stale after that.
        Waits.outlast(Duration.ofSeconds(2));

        HttpResponse<String> expired = Http.get(stack.frontUri(), url);

        assertThat(cacheStatus(expired)).isEqualTo("REVALIDATED");
        assertThat(reached("swrbrief")).isEqualTo(before + 1);
    }

    @Test
    void staleIfErrorServesTheExpiredEntryWhileTheOriginErrors() throws Exception {
        Stacks.Stored entry = Stacks.store(stack, "sie");
        String url = entry.url();
        String stored = entry.body();
        long before = reached("sie");
        stack.origin().fail("sie", 500);

        HttpResponse<String> whileFailing = Stacks.firstAnswerNotAHit(stack, url);

        assertThat(whileFailing.statusCode()).isEqualTo(200);
        assertThat(cacheStatus(whileFailing)).isEqualTo("STALE");
        assertThat(whileFailing.body()).isEqualTo(stored);
        // Served after the origin was asked and failed, not instead of asking it: the back end
        // dropped the connection on the origin's 500, and the front end counted that an error.
        assertThat(reached("sie")).isGreaterThanOrEqualTo(before + 1);
        assertThat(backEndAnswersBehindTheStaleAnswer(url)).startsWith("502");
    }

    @Test
    void withoutStaleIfErrorTheOriginsErrorReachesTheClient() throws Exception {
        String url = Stacks.store(stack, "plain").url();
        stack.origin().fail("plain", 500);

        HttpResponse<String> whileFailing = Stacks.firstAnswerNotAHit(stack, url);

        assertThat(whileFailing.statusCode()).isEqualTo(failureWithoutPermission(500));
        assertThat(cacheStatus(whileFailing)).isEqualTo("EXPIRED");
    }

    @ParameterizedTest(name = "the origin's {0}")
    @ValueSource(ints = {500, 503, 504})
    void withNothingStoredTheOriginsOwnErrorStatusReachesTheClient(int status) throws Exception {
        String url = fresh("plain");
        long before = reached("plain");
        stack.origin().fail("plain", status);

        HttpResponse<String> answer = Http.get(stack.frontUri(), url);

        assertThat(answer.statusCode()).isEqualTo(status);
        assertThat(cacheStatus(answer)).isEqualTo("MISS");
        // Asked once: a dropped connection would have been retried.
        assertThat(reached("plain")).isEqualTo(before + 1);
    }

    /**
     * The responses that forbid serving them stale, each stored before the first case: their
     * lifetimes run out together, not one case after another. Each case makes its own endpoint
     * fail (faults are cleared before each test) and then asks.
     */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class WhileTheOriginErrors {
        private static final List<String> ENDPOINTS =
                List.of("mustrevalidate", "proxyrevalidate", "smaxage", "mrsie", "prsie", "smsie");
        private final Map<String, String> urls = new HashMap<>();

        @BeforeAll
        void storeEach() {
            ENDPOINTS.forEach(endpoint -> urls.put(endpoint, Stacks.store(stack, endpoint).url()));
        }

        List<String> endpoints() {
            return ENDPOINTS;
        }

        @ParameterizedTest(name = "{0}: never stale while the origin errors")
        @MethodSource("endpoints")
        void responseThatForbidsStaleIsNeverServedStale(String endpoint) throws Exception {
            stack.origin().fail(endpoint, 500);

            HttpResponse<String> whileFailing = Stacks.firstAnswerNotAHit(stack, urls.get(endpoint));

            assertThat(whileFailing.statusCode()).isEqualTo(failureWithoutPermission(500));
            assertThat(cacheStatus(whileFailing)).isEqualTo("EXPIRED");
        }
    }

    /**
     * The origin stopped (connections refused), once for all the cases: each stores its entry
     * first, and stopping and starting the origin's JVM is the slow part.
     */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class WhileTheOriginIsDown {
        private static final List<String> ENDPOINTS = List.of("sie", "mustrevalidate", "proxyrevalidate", "smaxage");
        /** Each endpoint's URL and the body the edge stored for it. */
        private final Map<String, String> urls = new HashMap<>();
        private final Map<String, String> bodies = new HashMap<>();

        @BeforeAll
        void storeThenStopTheOrigin() {
            ENDPOINTS.forEach(endpoint -> {
                Stacks.Stored entry = Stacks.store(stack, endpoint);
                urls.put(endpoint, entry.url());
                bodies.put(endpoint, entry.body());
            });
            stack.origin().stop();
        }

        @AfterAll
        void startTheOrigin() throws Exception {
            stack.origin().start();
        }

        @Test
        void staleIfErrorServesTheExpiredEntry() {
            String url = urls.get("sie");
            HttpResponse<String> whileDown = Stacks.firstAnswerNotAHit(stack, url);

            assertThat(whileDown.statusCode()).isEqualTo(200);
            assertThat(cacheStatus(whileDown)).isEqualTo("STALE");
            assertThat(whileDown.body()).isEqualTo(bodies.get("sie"));
            // Served after the back end was asked and dropped the connection, not instead of asking.
            assertThat(backEndAnswersBehindTheStaleAnswer(url)).startsWith("502");
        }

        @ParameterizedTest(name = "{0}: never stale while the origin is down")
        @ValueSource(strings = {"mustrevalidate", "proxyrevalidate", "smaxage"})
        void responseThatForbidsStaleIsNeverServedStale(String endpoint) {
            HttpResponse<String> whileDown = Stacks.firstAnswerNotAHit(stack, urls.get(endpoint));

            assertThat(whileDown.statusCode()).isEqualTo(502);
            assertThat(cacheStatus(whileDown)).isEqualTo("EXPIRED");
        }
    }
}
