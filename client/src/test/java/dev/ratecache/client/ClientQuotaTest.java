package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Quotas as the edge announces them (issue 38's contract), against a small origin that answers
 * like the edge: both policies in RateLimit-Policy, the quota's RateLimit on every answer, and the
 * quota-exceeded 429 with Retry-After. Windows of 2 or 3 s, so that no test waits long; times
 * are the origin's arrival times, with wide margins (the tests share 2 cores).
 */
@StackTest
class ClientQuotaTest {
    private static final long MS = 1_000_000;
    private static final AtomicInteger paths = new AtomicInteger();
    private static SmallOrigin origin;

    @BeforeAll
    static void start() throws Exception {
        origin = new SmallOrigin();
    }

    @AfterAll
    static void stop() {
        origin.close();
    }

    /** A path of its own under a fresh quota of {@code limit} per {@code windowSeconds}. */
    private static String quota(int limit, int windowSeconds) {
        String path = "/quota-" + paths.incrementAndGet();
        origin.quota(path, "quota", limit, windowSeconds);
        return path;
    }

    private static List<RateCacheResponse> send(RateCacheClient client, String path, int n) throws Exception {
        List<RateCacheResponse> responses = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            responses.add(client.get(origin.url(path)));
        }
        return responses;
    }

    private static List<Integer> statusesAtTheOrigin(String path) {
        return origin.seen(path).stream().map(SmallOrigin.Seen::answered).toList();
    }

    private static double secondsBetween(SmallOrigin.Seen a, SmallOrigin.Seen b) {
        return (b.atNanos() - a.atNanos()) / 1e9;
    }

    @Test
    void pacedClientSpreadsWhatRemainsOverTheWindow() throws Exception {
        String path = quota(6, 3);
        try (RateCacheClient client = RateCacheClient.builder().noCache().paceToPolicy(true).build()) {
            List<RateCacheResponse> responses = send(client, path, 6);

            assertThat(responses).extracting(RateCacheResponse::code).containsOnly(200);
            assertThat(statusesAtTheOrigin(path)).hasSize(6).containsOnly(200);
            // The first answer says 5 left in 3 s: one every 0.6 s or more (t is whole seconds,
            // rounded up), never all at once.
            List<SmallOrigin.Seen> seen = origin.seen(path);
            for (int i = 1; i < seen.size(); i++) {
                assertThat(secondsBetween(seen.get(i - 1), seen.get(i))).as("gap before request %d", i + 1).isGreaterThan(0.35);
            }
            assertThat(secondsBetween(seen.get(0), seen.get(5))).isBetween(2.4, 10.0);
            assertThat(responses.get(0).rateLimit("quota")).isEqualTo(new RateLimitStatus("quota", 5, Duration.ofSeconds(3)));
            ClientStats stats = client.stats();
            assertThat(stats.retryCount()).isZero();
            assertThat(stats.quotaRejectedCount()).isZero();
            assertThat(stats.throttleWait()).isGreaterThan(Duration.ofSeconds(2));
        }
    }

    @Test
    void unpacedClientSpendsTheQuotaAtOnceAndItsRejectionIsCountedApart() throws Exception {
        String path = quota(6, 3);
        String burst = "/burst-" + paths.incrementAndGet();
        origin.fail(burst, 429);
        try (RateCacheClient client = RateCacheClient.builder().noCache().retryPolicy(RetryPolicy.none()).build()) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new RateCacheMetrics(client).bindTo(registry);
            List<RateCacheResponse> responses = send(client, path, 7);
            RateCacheResponse tooFast = client.get(origin.url(burst));

            assertThat(responses.subList(0, 6)).extracting(RateCacheResponse::code).containsOnly(200);
            List<SmallOrigin.Seen> seen = origin.seen(path);
            assertThat(secondsBetween(seen.get(0), seen.get(5))).isLessThan(2.0);
            RateCacheResponse rejected = responses.get(6);
            assertThat(rejected.code()).isEqualTo(429);
            assertThat(rejected.isQuotaExceeded()).isTrue();
            assertThat(rejected.violatedPolicies()).containsExactly("quota");
            assertThat(rejected.rateLimit("quota").remaining()).isZero();
            assertThat(rejected.rateLimit("quota").reset()).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(3));
            assertThat(rejected.header("Retry-After")).isNotNull();
            assertThat(rejected.bodyString()).contains("quota-exceeded");
            assertThat(tooFast.code()).isEqualTo(429);
            assertThat(tooFast.isQuotaExceeded()).isFalse();
            ClientStats stats = client.stats();
            assertThat(stats.rejectedCount()).isEqualTo(2);
            assertThat(stats.quotaRejectedCount()).isEqualTo(1);
            assertThat(stats.toString()).contains("quotaRejected=1");
            assertThat(ClientStats.empty().plus(stats).plus(stats).quotaRejectedCount()).isEqualTo(2);
            assertThat(registry.get("ratecache.client.quota.rejected").functionCounter().count()).isEqualTo(1);
            assertThat(registry.get("ratecache.client.rejected").functionCounter().count()).isEqualTo(2);
        }
    }

    @Test
    void quotaRejectionIsRetriedNoSoonerThanItsReset() throws Exception {
        String path = quota(2, 2);
        try (RateCacheClient client = RateCacheClient.builder().noCache().build()) {
            List<RateCacheResponse> responses = send(client, path, 3);

            assertThat(responses).extracting(RateCacheResponse::code).containsOnly(200);
            assertThat(statusesAtTheOrigin(path)).containsExactly(200, 200, 429, 200);
            List<SmallOrigin.Seen> seen = origin.seen(path);
            // The retry came once the window that began with the first request had ended.
            assertThat(secondsBetween(seen.get(0), seen.get(3))).isGreaterThanOrEqualTo(2.0);
            assertThat(secondsBetween(seen.get(2), seen.get(3))).isGreaterThan(0.9);
            RateCacheResponse retried = responses.get(2);
            assertThat(retried.retries()).isEqualTo(1);
            assertThat(retried.retryWait()).isGreaterThan(Duration.ofMillis(900));
            ClientStats stats = client.stats();
            assertThat(stats.retryCount(429)).isEqualTo(1);
            assertThat(stats.quotaRejectedCount()).isZero();
            assertThat(stats.rejectedCount()).isZero();
        }
    }

    @Test
    void quotaRejectionWhoseResetIsBeyondMaxWaitIsAnsweredAtOnceWhereABurstRejectionIsRetried() throws Exception {
        String path = quota(1, 60);
        String burst = "/burst-" + paths.incrementAndGet();
        origin.fail(burst, 429);
        RetryPolicy retries = RetryPolicy.builder().maxRetries(1).maxWait(Duration.ofSeconds(1)).build();
        try (RateCacheClient client = RateCacheClient.builder().noCache().retryPolicy(retries).build()) {
            client.get(origin.url(path));
            long start = System.nanoTime();
            RateCacheResponse rejected = client.get(origin.url(path));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            RateCacheResponse tooFast = client.get(origin.url(burst));

            assertThat(rejected.code()).isEqualTo(429);
            assertThat(rejected.isQuotaExceeded()).isTrue();
            assertThat(rejected.retries()).isZero();
            assertThat(took).isLessThan(Duration.ofSeconds(1));
            assertThat(origin.requests(path)).isEqualTo(2);
            assertThat(tooFast.retries()).isEqualTo(1);
            assertThat(origin.requests(burst)).isEqualTo(2);
            ClientStats stats = client.stats();
            assertThat(stats.quotaRejectedCount()).isEqualTo(1);
            assertThat(stats.rejectedCount()).isEqualTo(2);
        }
    }

    @Test
    void pacedClientHoldsItsNextRequestUntilTheSpentQuotaResets() throws Exception {
        String path = quota(2, 2);
        try (RateCacheClient spender = RateCacheClient.builder().noCache().build();
                RateCacheClient paced = RateCacheClient.builder().noCache().paceToPolicy(true)
                        .retryPolicy(RetryPolicy.none()).build()) {
            send(spender, path, 2);
            RateCacheResponse rejected = paced.get(origin.url(path));
            RateCacheResponse after = paced.get(origin.url(path));

            assertThat(rejected.code()).isEqualTo(429);
            assertThat(after.code()).isEqualTo(200);
            assertThat(statusesAtTheOrigin(path)).containsExactly(200, 200, 429, 200);
            List<SmallOrigin.Seen> seen = origin.seen(path);
            assertThat(secondsBetween(seen.get(0), seen.get(3))).isGreaterThanOrEqualTo(2.0);
            assertThat(after.throttleWait()).isGreaterThan(Duration.ofMillis(900));
            assertThat(paced.stats().quotaRejectedCount()).isEqualTo(1);
        }
    }
}
