package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.testkit.StackTest;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * stale-while-revalidate against a small origin that sends exactly the headers under test. An
 * entry is made stale on arrival with an Age the origin claims (max-age=10 with Age: 20 is 10 s
 * stale), so no test waits for an entry to expire; a revalidation is held at the origin to see
 * what the client answers meanwhile.
 */
@StackTest
class StaleWhileRevalidateTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
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

    /** A path of its own, stale by 10 s within a 30 s window on arrival, fresh again after its 304 (Age: 0). */
    private static String staleInWindow() {
        String path = "/swr-" + paths.incrementAndGet();
        origin.serve(path, "max-age=10, stale-while-revalidate=30", 20, 0);
        return path;
    }

    @Test
    void staleResponseInsideTheWindowIsAnsweredAtOnceWhileTheOriginStillHoldsItsRevalidation() throws Exception {
        String path = staleInWindow();
        CountDownLatch held = origin.holdRevalidations(path);
        try (RateCacheClient client = RateCacheClient.create()) {
            RateCacheResponse first = client.get(origin.url(path));

            RateCacheResponse stale = client.get(origin.url(path));

            assertThat(first.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(stale.source()).isEqualTo(ResponseSource.STALE_WHILE_REVALIDATING);
            assertThat(stale.code()).isEqualTo(200);
            assertThat(stale.bodyString()).isEqualTo(first.bodyString());
            assertThat(stale.networkRequests()).isZero();
            assertThat(stale.isStale()).isTrue();
            // The revalidation is on the wire, and held there: the answer did not wait for it.
            await().atMost(PATIENCE).until(() -> origin.revalidations(path) == 1);
            assertThat(held.getCount()).isOne();
            held.countDown();
        }
    }

    @Test
    void backgroundRevalidationRefreshesTheEntry() throws Exception {
        String path = staleInWindow();
        try (RateCacheClient client = RateCacheClient.create()) {
            client.get(origin.url(path));
            assertThat(client.get(origin.url(path)).source()).isEqualTo(ResponseSource.STALE_WHILE_REVALIDATING);

            // The 304 (Age: 0) makes the entry fresh: until it is stored the entry is still stale and
            // its revalidation still pending, so asking again starts no other.
            await().atMost(PATIENCE).until(() -> client.get(origin.url(path)).source() == ResponseSource.CACHE);

            assertThat(origin.requests(path)).isEqualTo(2);
            assertThat(origin.revalidations(path)).isEqualTo(1);
            ClientStats stats = client.stats();
            assertThat(stats.backgroundRevalidationCount()).isEqualTo(1);
            assertThat(stats.networkCount()).isEqualTo(2);
            assertThat(stats.staleWhileRevalidatingCount()).isEqualTo(stats.requestCount() - 2);
            assertThat(stats.staleCount()).isEqualTo(stats.staleWhileRevalidatingCount());
            assertThat(stats.staleIfErrorCount()).isZero();
        }
    }

    @Test
    void atMostOneBackgroundRevalidationPerEntryAtATime() throws Exception {
        String path = staleInWindow();
        CountDownLatch held = origin.holdRevalidations(path);
        try (RateCacheClient client = RateCacheClient.builder().revalidationThreads(4).build()) {
            client.get(origin.url(path));
            for (int i = 0; i < 5; i++) {
                assertThat(client.get(origin.url(path)).source()).isEqualTo(ResponseSource.STALE_WHILE_REVALIDATING);
            }
            await().atMost(PATIENCE).until(() -> origin.revalidations(path) == 1);
            for (int i = 0; i < 5; i++) {
                assertThat(client.get(origin.url(path)).source()).isEqualTo(ResponseSource.STALE_WHILE_REVALIDATING);
            }

            assertThat(origin.revalidations(path)).isEqualTo(1);
            assertThat(client.stats().staleWhileRevalidatingCount()).isEqualTo(10);
            held.countDown();
        }
    }

    @Test
    void staleResponsePastTheWindowIsRevalidatedBeforeItIsAnswered() throws Exception {
        // 40 s stale, the window 30 s.
        String path = "/past-window";
        origin.serve(path, "max-age=10, stale-while-revalidate=30", 50, 50);
        assertRevalidatedBeforeAnswering(path, RateCacheClient.create());
    }

    @Test
    void mustRevalidateResponseIsNeverServedWhileRevalidating() throws Exception {
        String path = "/must-revalidate";
        origin.serve(path, "max-age=10, must-revalidate, stale-while-revalidate=30", 20, 20);
        assertRevalidatedBeforeAnswering(path, RateCacheClient.create());
    }

    @Test
    void noCacheResponseIsNeverServedWhileRevalidating() throws Exception {
        // Fresh by max-age, stale by Age, within the window: no-cache still sends every use to the origin.
        String path = "/no-cache";
        origin.serve(path, "no-cache, max-age=10, stale-while-revalidate=30", 20, 20);
        assertRevalidatedBeforeAnswering(path, RateCacheClient.create());
    }

    @Test
    void withoutRevalidationThreadsAStaleResponseIsRevalidatedBeforeItIsAnswered() throws Exception {
        assertRevalidatedBeforeAnswering(staleInWindow(), RateCacheClient.builder().revalidationThreads(0).build());
    }

    /** The second request for {@code path} waits for its own 304 (then closes {@code client}). */
    private static void assertRevalidatedBeforeAnswering(String path, RateCacheClient client) throws Exception {
        try (client) {
            client.get(origin.url(path));

            RateCacheResponse second = client.get(origin.url(path));

            assertThat(second.source()).isEqualTo(ResponseSource.VALIDATED);
            assertThat(second.networkRequests()).isEqualTo(1);
            assertThat(origin.revalidations(path)).isEqualTo(1);
            assertThat(client.stats().staleCount()).isZero();
            assertThat(client.stats().backgroundRevalidationCount()).isZero();
        }
    }

    @Test
    void backgroundRevalidationStaysInTheCredentialsOfTheRequestThatStartedIt() throws Exception {
        String path = "/private-swr";
        origin.serve(path, "private, max-age=10, stale-while-revalidate=30", 20, 0);
        try (RateCacheClient client = RateCacheClient.create()) {
            get(client, path, "Bearer alice");
            assertThat(get(client, path, "Bearer alice").source()).isEqualTo(ResponseSource.STALE_WHILE_REVALIDATING);
            await().atMost(PATIENCE).until(() -> get(client, path, "Bearer alice").source() == ResponseSource.CACHE);
            assertThat(origin.seen(path)).filteredOn(SmallOrigin.Seen::conditional)
                    .extracting(SmallOrigin.Seen::authorization).containsExactly("Bearer alice");

            // Alice's refreshed entry went back into her scope, nowhere else.
            assertThat(get(client, path, null).source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(get(client, path, "Bearer bob").source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(origin.seen(path)).extracting(SmallOrigin.Seen::authorization)
                    .containsExactly("Bearer alice", "Bearer alice", null, "Bearer bob");
        }
    }

    private static RateCacheResponse get(RateCacheClient client, String path, String authorization) throws Exception {
        HttpGet get = new HttpGet(origin.url(path));
        if (authorization != null) {
            get.setHeader("Authorization", authorization);
        }
        return client.execute(get);
    }

    @Test
    void closeStopsTheBackgroundRevalidationOnTheWire() throws Exception {
        String path = staleInWindow();
        CountDownLatch held = origin.holdRevalidations(path);
        try {
            RateCacheClient client = RateCacheClient.create();
            client.get(origin.url(path));
            client.get(origin.url(path));
            await().atMost(PATIENCE).until(() -> origin.revalidations(path) == 1);
            assertThat(revalidatingThreads()).isOne();

            client.close();

            // Its connection is cut while the origin still holds the answer: the thread ends.
            await().atMost(PATIENCE).until(() -> revalidatingThreads() == 0);
        } finally {
            held.countDown();
        }
    }

    /** Threads running one of httpclient5-cache's background revalidations now. */
    private static long revalidatingThreads() {
        return Thread.getAllStackTraces().values().stream()
                .filter(frames -> java.util.Arrays.stream(frames)
                        .anyMatch(f -> f.getClassName().startsWith("org.apache.hc.client5.http.impl.cache.DefaultCacheRevalidator")))
                .count();
    }

    @Test
    void revalidationThreadsOutOfRangeAreRefusedWithTheRange() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RateCacheClient.builder().revalidationThreads(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("revalidationThreads must be from 0 to 64 (got -1)");
    }
}
