package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.Waits;
import dev.ratecache.suite.nginx.LimitMode;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.testkit.StackTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rate-limit rejections from the real front end: 4 requests/s per client with a burst of 1,
 * rejected at once with 429 and Retry-After: 1. The back end has no limit and no tier caches.
 */
@StackTest
class RateLimitTest {
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);
    /** Scheduling and loopback slack on a busy 2-core machine, on top of what is expected. */
    private static final long SLACK_MS = 400;

    private static Stack stack;
    private static RateCacheClient probe;

    @BeforeAll
    static void start() throws Exception {
        stack = TestStacks.start(RateLimitTest.class, new NginxSwitches()
                .frontRate(4).frontBurst(1).frontMode(LimitMode.NODELAY).retryAfter(1).rejectStatus(429)
                .backLimit(false).cache(false));
        probe = RateCacheClient.builder().noCache().retryPolicy(RetryPolicy.none()).build();
    }

    @AfterAll
    static void stop() throws Exception {
        probe.close();
        stack.close();
    }

    @BeforeEach
    void resetOrigin() throws Exception {
        stack.origin().reset();
    }

    @AfterEach
    void clearFaults() throws Exception {
        stack.origin().reset();
    }

    private static String url(String path) {
        return stack.frontUri() + path;
    }

    /**
     * Fills this client's bucket at the front end: waits until a request passes, then sends
     * requests until one is rejected. A request sent right after is rejected too.
     */
    private static void overTheLimit() {
        await().atMost(Duration.ofSeconds(5)).until(() -> probe.get(url("/quick")).code() == 200);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ZERO).pollDelay(Duration.ZERO)
                .until(() -> probe.get(url("/quick")).code() == 429);
    }

    /** The statuses the front end logged for {@code path}, once there are {@code expected}. */
    private static List<Integer> statusesAtTheFrontEnd(String path, int expected) {
        List<Integer> statuses = new ArrayList<>();
        for (JsonNode line : TestStacks.frontLog(stack, path, expected)) {
            statuses.add(line.path("status").asInt());
        }
        return statuses;
    }

    @Test
    void retryAfterIsHonouredBeforeTheRetry() throws Exception {
        String path = TestStacks.fresh("quick");
        RetryPolicy exact = RetryPolicy.builder().retryAfterJitter(0).build();
        try (RateCacheClient client = RateCacheClient.builder().retryPolicy(exact).build()) {
            overTheLimit();
            long t0 = System.nanoTime();
            RateCacheResponse r = client.get(url(path));
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

            assertThat(r.code()).isEqualTo(200);
            assertThat(r.retries()).isEqualTo(1);
            assertThat(r.retryWait()).isBetween(RETRY_AFTER, RETRY_AFTER.plusMillis(SLACK_MS));
            assertThat(elapsedMs).isBetween(RETRY_AFTER.toMillis(), RETRY_AFTER.toMillis() + SLACK_MS);
            assertThat(statusesAtTheFrontEnd(path, 2)).containsExactly(429, 200);
            ClientStats stats = client.stats();
            assertThat(stats.retryCount(429)).isEqualTo(1);
            assertThat(stats.retryWait()).isEqualTo(r.retryWait());
            assertThat(stats.rejectedCount()).isZero();
            assertThat(stats.networkCount()).isEqualTo(2);
        }
    }

    @Test
    void waitIsCappedAtMaxWaitWhateverRetryAfterSays() throws Exception {
        String path = TestStacks.fresh("quick");
        Duration cap = Duration.ofMillis(300);
        RetryPolicy capped = RetryPolicy.builder().maxWait(cap).maxRetries(5).build();
        try (RateCacheClient client = RateCacheClient.builder().retryPolicy(capped).build()) {
            overTheLimit();
            long t0 = System.nanoTime();
            RateCacheResponse r = client.get(url(path));
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

            assertThat(r.code()).isEqualTo(200);
            assertThat(r.retries()).isBetween(1, 2);
            // Each wait was the cap, not the 1 s the server asked for.
            assertThat(r.retryWait()).isBetween(cap.multipliedBy(r.retries()),
                    cap.multipliedBy(r.retries()).plusMillis(SLACK_MS / 2));
            assertThat(elapsedMs).isLessThan(RETRY_AFTER.toMillis());
            assertThat(statusesAtTheFrontEnd(path, r.retries() + 1)).hasSize(r.retries() + 1).endsWith(200);
        }
    }

    @Test
    void postIsNeverRetried() throws Exception {
        String path = TestStacks.fresh("quick");
        try (RateCacheClient client = RateCacheClient.create()) {
            overTheLimit();
            long t0 = System.nanoTime();
            RateCacheResponse r = client.execute(new HttpPost(url(path)));
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

            // Had it been repeated after the Retry-After, the origin would have answered 405.
            assertThat(r.code()).isEqualTo(429);
            assertThat(r.retries()).isZero();
            assertThat(elapsedMs).isLessThan(RETRY_AFTER.toMillis());
            assertThat(statusesAtTheFrontEnd(path, 1)).containsExactly(429);
            assertThat(client.stats().rejectedCount()).isEqualTo(1);
            assertThat(client.stats().retryCount()).isZero();
        }
    }

    @Test
    void noRetryIsStartedThatWouldOverrunTheBudget() throws Exception {
        String path = TestStacks.fresh("quick");
        RetryPolicy tight = RetryPolicy.builder().budget(Duration.ofMillis(500)).build();
        try (RateCacheClient client = RateCacheClient.builder().retryPolicy(tight).build()) {
            overTheLimit();
            long t0 = System.nanoTime();
            RateCacheResponse r = client.get(url(path));
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

            assertThat(r.code()).isEqualTo(429);
            assertThat(r.header("Retry-After")).isEqualTo("1");
            assertThat(r.retries()).isZero();
            assertThat(elapsedMs).isLessThan(500);
            assertThat(statusesAtTheFrontEnd(path, 1)).containsExactly(429);
            assertThat(client.stats().rejectedCount()).isEqualTo(1);
        }
    }

    @Test
    void withoutRetryAfterTheBackoffIsExponentialAndJittered() throws Exception {
        // The origin's own 503s, through the back end (no limit there): no Retry-After.
        stack.origin().fail("quick", 503);
        Duration first = Duration.ofMillis(100);
        RetryPolicy policy = RetryPolicy.builder().initialBackoff(first).maxRetries(3).build();
        try (RateCacheClient client = RateCacheClient.builder().noCache().retryPolicy(policy).build()) {
            RateCacheResponse r = client.get(stack.backUri() + TestStacks.fresh("quick"));

            assertThat(r.code()).isEqualTo(503);
            assertThat(r.header("Retry-After")).isNull();
            assertThat(r.retries()).isEqualTo(3);
            assertThat(stack.origin().counters().requests("quick")).isEqualTo(4);
            // Steps of 100, 200 and 400 ms, each between half and all of its step.
            assertThat(r.retryWait()).isBetween(Duration.ofMillis(350), Duration.ofMillis(700 + SLACK_MS / 2));
            assertThat(client.stats().retryCount(503)).isEqualTo(3);
            assertThat(client.stats().rejectedCount()).isEqualTo(1);
        }
    }

    @Test
    void responseFromTheCacheIsNeverRetriedNorSent() throws Exception {
        String path = TestStacks.fresh("hare");
        try (RateCacheClient client = RateCacheClient.create()) {
            RateCacheResponse first = client.get(url(path));
            assertThat(first.code()).isEqualTo(200);
            overTheLimit();

            RateCacheResponse r = client.get(url(path));

            // Fresh for 3 s: answered at once while the front end would reject this client.
            assertThat(r.source()).isEqualTo(ResponseSource.CACHE);
            assertThat(r.retries()).isZero();
            assertThat(r.networkRequests()).isZero();
            // Nothing after the first call's own exchanges (retried once if the bucket was full then).
            assertThat(statusesAtTheFrontEnd(path, first.networkRequests())).hasSize(first.networkRequests()).endsWith(200);
            assertThat(client.stats().retryCount()).isEqualTo(first.retries());
        }
    }

    @Test
    void rejectedRevalidationIsRetriedAndEndsValidated() throws Exception {
        String path = TestStacks.fresh("quick");
        try (RateCacheClient client = RateCacheClient.create()) {
            await().atMost(Duration.ofSeconds(5)).until(() -> client.get(url(path)).code() == 200);
            // Until the 1 s entry has expired in the client's cache: a deliberate wait, since asking
            // the client would revalidate the entry before the test is over the limit.
            Waits.outlast(Duration.ofSeconds(1));
            overTheLimit();

            RateCacheResponse r = client.get(url(path));

            assertThat(r.code()).isEqualTo(200);
            assertThat(r.source()).isEqualTo(ResponseSource.VALIDATED);
            assertThat(r.retries()).isEqualTo(1);
            assertThat(stack.origin().counters().notModified("quick")).isEqualTo(1);
        }
    }

    @Test
    void throttleKeepsTheClientUnderTheServersLimit() throws Exception {
        int requests = 9;
        // Unthrottled, the same burst is rejected in part: the limit is real.
        try (RateCacheClient unthrottled = RateCacheClient.builder().noCache().retryPolicy(RetryPolicy.none()).build()) {
            assertThat(burst(unthrottled, requests)).contains(429);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> probe.get(url("/quick")).code() == 200);
        // A request that passes leaves at most one request in the bucket (burst 1), which drains
        // in 250 ms at 4 r/s; the throttled burst must start on an empty bucket. A deliberate wait:
        // a probe to see whether it has drained would fill it again.
        Waits.past(Duration.ofMillis(600));

        try (RateCacheClient throttled = RateCacheClient.builder().noCache().retryPolicy(RetryPolicy.none())
                .throttle(3, 1).build()) {
            long t0 = System.nanoTime();
            List<Integer> statuses = burst(throttled, requests);
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

            assertThat(statuses).containsOnly(200);
            // The first token is there at once, the next 8 one every 333 ms.
            assertThat(elapsedMs).isGreaterThanOrEqualTo((requests - 1) * 1000L / 3 - 50);
            assertThat(throttled.stats().throttleWait()).isPositive();
        }
    }

    /** {@code n} requests for fresh URLs from 3 threads at once; their statuses. */
    private static List<Integer> burst(RateCacheClient client, int n) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Callable<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                calls.add(() -> client.get(url(TestStacks.fresh("quick"))).code());
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : pool.invokeAll(calls)) {
                statuses.add(f.get());
            }
            return statuses;
        } finally {
            pool.shutdownNow();
        }
    }
}
