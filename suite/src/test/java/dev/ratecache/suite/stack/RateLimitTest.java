package dev.ratecache.suite.stack;

import dev.ratecache.suite.edge.NginxEdge;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.AccessLog;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The front end's per-client limit (2 r/s, burst 3, nodelay) with the edge cache off. Each test
 * sends from its own loopback address, so each has a bucket of its own.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class RateLimitTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, RateLimitTest.class, new StackSwitches()
                .frontRate(2).frontBurst(3).frontMode(LimitMode.NODELAY).cache(false));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    /** {@code count} requests at once from {@code source}, each with its own headers. */
    static List<Http.Raw> burst(Stack stack, String source, int count, String path, String... headerFormats) throws Exception {
        return burstTo(stack, source, IntStream.range(0, count).mapToObj(i -> path + "?i=" + i).toList(), headerFormats);
    }

    /** One request to each of {@code paths} at once from {@code source}, the i-th with the header formats formatted with i. */
    static List<Http.Raw> burstTo(Stack stack, String source, List<String> paths, String... headerFormats) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(paths.size());
        try {
            List<Future<Http.Raw>> futures = IntStream.range(0, paths.size())
                    .mapToObj(i -> pool.submit(() -> Http.raw(source, stack.ports().front(), "GET", paths.get(i),
                            java.util.Arrays.stream(headerFormats).map(f -> String.format(f, i)).toArray(String[]::new))))
                    .toList();
            List<Http.Raw> responses = new java.util.ArrayList<>();
            for (Future<Http.Raw> f : futures) {
                responses.add(f.get());
            }
            return responses;
        } finally {
            pool.shutdownNow();
        }
    }

    static long count(List<Http.Raw> responses, int status) {
        return responses.stream().filter(r -> r.status() == status).count();
    }

    @Test
    void burstIsAdmittedThenRejectedWithRetryAfter() throws Exception {
        List<Http.Raw> responses = burst(stack, "127.0.0.11", 10, "/hare");

        // One at the rate plus a burst of 3; a fifth only if the burst took over 500 ms to arrive.
        assertThat(count(responses, 200)).isBetween(4L, 5L);
        assertThat(count(responses, 429)).isEqualTo(10 - count(responses, 200));
        assertThat(responses).filteredOn(r -> r.status() == 429)
                .allSatisfy(r -> assertThat(r.header("Retry-After")).isEqualTo("1"));
    }

    @Test
    void theAddressPolicyIsOnEveryAnswerAndRateLimitOnlyOnRejections() throws Exception {
        List<Http.Raw> responses = burst(stack, "127.0.0.12", 10, "/hare");

        assertThat(count(responses, 429)).isPositive();
        assertThat(responses).allSatisfy(r -> assertThat(r.header("RateLimit-Policy"))
                .isEqualTo("\"per-address\";q=2;w=1;ratecache-burst=3"));
        // limit_req tells no remaining quota: only a rejection's (none, until Retry-After) is known.
        assertThat(responses).filteredOn(r -> r.status() == 200).allSatisfy(r -> assertThat(r.header("RateLimit")).isNull());
        assertThat(responses).filteredOn(r -> r.status() == 429)
                .allSatisfy(r -> assertThat(r.header("RateLimit")).isEqualTo("\"per-address\";r=0;t=1"));
    }

    @Test
    void spoofedForwardedForDoesNotEscapeTheLimit() throws Exception {
        List<Http.Raw> responses = burst(stack, "127.0.0.12", 10, "/hare", "X-Forwarded-For: 203.0.113.%d");

        assertThat(count(responses, 200)).isBetween(4L, 5L);
        assertThat(count(responses, 429)).isGreaterThanOrEqualTo(5);
    }

    @Test
    void backEndTakesTheClientAddressFromForwardedForOnlyWhenTheFrontEndSentIt() throws Exception {
        Http.raw("127.0.0.13", stack.ports().back(), "GET", "/hare?direct", "X-Forwarded-For: 203.0.113.7");
        Http.raw("127.0.0.14", stack.ports().front(), "GET", "/hare?via-front", "X-Forwarded-For: 203.0.113.8");

        assertThat(backEndClientFor("/hare?direct")).isEqualTo("127.0.0.13");
        assertThat(backEndClientFor("/hare?via-front")).isEqualTo("127.0.0.14");
    }

    private static String backEndClientFor(String uri) {
        return AccessLog.linesFor(stack.tiers(NginxEdge.Tiers.class).back().accessLog(), uri, 1).get(0).get("client").asText();
    }

    @Test
    void securityHeadersAreOnRejectionsToo() throws Exception {
        List<Http.Raw> responses = burst(stack, "127.0.0.15", 10, "/hare");

        assertThat(responses).filteredOn(r -> r.status() == 429).isNotEmpty()
                .allSatisfy(SecurityHeaders::assertEachOnce);
    }

    @Test
    void withTheEdgeCacheOffEveryRequestReachesTheOrigin() throws Exception {
        stack.origin().reset();
        Http.Raw first = Http.raw("127.0.0.16", stack.ports().front(), "GET", "/hare");
        Http.Raw second = Http.raw("127.0.0.16", stack.ports().front(), "GET", "/hare");

        assertThat(first.header("X-Cache-Status")).isNull();
        assertThat(second.header("X-Cache-Status")).isNull();
        assertThat(stack.origin().counters().requests("hare")).isEqualTo(2);
    }
}
