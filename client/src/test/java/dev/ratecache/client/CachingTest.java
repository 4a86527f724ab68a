package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Waits;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The client's cache, seen at the origin's counters: no rate limit and no edge cache in between. */
@StackTest
@ExtendWith(SharedOrigin.class)
class CachingTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = TestStacks.open(origin);
    }


    private static String url(String path) {
        return stack.frontUri() + path;
    }

    private static long reached(String endpoint) throws Exception {
        return stack.origin().counters().requests(endpoint);
    }

    /**
     * Lets a response with max-age=1 (brief, mustrevalidate, staleok) expire in the client's cache.
     * A deliberate wait, not a poll: the only way to ask the client whether an entry is still fresh
     * is a request, which would revalidate it and count in the statistics these tests check.
     */
    private static void untilExpired() {
        Waits.outlast(Duration.ofSeconds(1));
    }

    @Test
    void freshResponseIsAnsweredFromTheCacheAndCountedAsAHit() throws Exception {
        String path = TestStacks.fresh("hare");
        try (RateCacheClient client = RateCacheClient.create()) {
            RateCacheResponse first = client.get(url(path));
            RateCacheResponse second = client.get(url(path));

            assertThat(first.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(second.source()).isEqualTo(ResponseSource.CACHE);
            assertThat(second.networkRequests()).isZero();
            assertThat(second.bodyString()).isEqualTo(first.bodyString());
            assertThat(reached("hare")).isEqualTo(1);
            ClientStats stats = client.stats();
            assertThat(stats.requestCount()).isEqualTo(2);
            assertThat(stats.networkCount()).isEqualTo(1);
            assertThat(stats.hitCount()).isEqualTo(1);
            assertThat(stats.missCount()).isEqualTo(1);
            assertThat(stats.validationCount()).isZero();
        }
    }

    @Test
    void expiredResponseIsRevalidatedWithA304AndCountedAsAValidation() throws Exception {
        // Fresh for 2 s: the 304's Date is rounded down to the second, so a 1 s lifetime could be
        // over by the request right after it.
        String path = TestStacks.fresh("brief2");
        try (RateCacheClient client = RateCacheClient.create()) {
            String body = client.get(url(path)).bodyString();
            Waits.outlast(Duration.ofSeconds(2));

            RateCacheResponse revalidated = client.get(url(path));

            assertThat(revalidated.code()).isEqualTo(200);
            assertThat(revalidated.source()).isEqualTo(ResponseSource.VALIDATED);
            assertThat(revalidated.bodyString()).isEqualTo(body);
            assertThat(stack.origin().counters().notModified("brief2")).isEqualTo(1);
            assertThat(reached("brief2")).isEqualTo(2);
            // Fresh again after the 304.
            assertThat(client.get(url(path)).source()).isEqualTo(ResponseSource.CACHE);
            ClientStats stats = client.stats();
            assertThat(stats.requestCount()).isEqualTo(3);
            assertThat(stats.networkCount()).isEqualTo(2);
            assertThat(stats.missCount()).isEqualTo(1);
            assertThat(stats.validationCount()).isEqualTo(1);
            assertThat(stats.hitCount()).isEqualTo(1);
        }
    }

    @Test
    void responseFetchedWithOneCredentialIsNeverServedForAnother() throws Exception {
        String path = TestStacks.fresh("private");
        try (RateCacheClient client = RateCacheClient.create()) {
            assertThat(get(client, path, "Bearer alice").source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(get(client, path, "Bearer alice").source()).isEqualTo(ResponseSource.CACHE);
            assertThat(reached("private")).isEqualTo(1);

            assertThat(get(client, path, "Bearer bob").source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(reached("private")).isEqualTo(2);
            assertThat(get(client, path, null).source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(reached("private")).isEqualTo(3);

            // Each kept its own entry.
            assertThat(get(client, path, "Bearer bob").source()).isEqualTo(ResponseSource.CACHE);
            assertThat(get(client, path, "Bearer alice").source()).isEqualTo(ResponseSource.CACHE);
            assertThat(get(client, path, null).source()).isEqualTo(ResponseSource.CACHE);
            assertThat(reached("private")).isEqualTo(3);
        }
    }

    private static RateCacheResponse get(RateCacheClient client, String path, String authorization) throws Exception {
        HttpGet get = new HttpGet(url(path));
        if (authorization != null) {
            get.setHeader("Authorization", authorization);
        }
        return client.execute(get);
    }

    @Test
    void sharedCacheDoesNotStorePrivateResponses() throws Exception {
        String path = TestStacks.fresh("private");
        try (RateCacheClient client = RateCacheClient.builder().sharedCache(true).build()) {
            client.get(url(path));
            RateCacheResponse second = client.get(url(path));

            assertThat(second.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(reached("private")).isEqualTo(2);
        }
    }

    @Test
    void fileBackedCacheKeepsBodiesOnDiskAndDeletesThemOnClose(@TempDir Path dir) throws Exception {
        String path = TestStacks.fresh("hare");
        RateCacheClient client = RateCacheClient.builder().cache(dir.resolve("cache"), 1024 * 1024).build();
        try (client) {
            String body = client.get(url(path)).bodyString();
            RateCacheResponse hit = client.get(url(path));

            assertThat(hit.source()).isEqualTo(ResponseSource.CACHE);
            assertThat(hit.bodyString()).isEqualTo(body);
            assertThat(reached("hare")).isEqualTo(1);
            assertThat(files(dir.resolve("cache"))).isPositive();
        }
        assertThat(files(dir.resolve("cache"))).isZero();
    }

    private static long files(Path dir) throws Exception {
        try (Stream<Path> all = Files.list(dir)) {
            return all.count();
        }
    }

    @Test
    @LongTest
    void staleResponseIsServedWhileTheOriginIsDownWhenTheClientAllowsIt() throws Exception {
        String path = TestStacks.fresh("brief");
        try (RateCacheClient client = RateCacheClient.builder().staleIfError(Duration.ofMinutes(1)).build()) {
            String body = client.get(url(path)).bodyString();
            stack.origin().stop();
            try {
                untilExpired();

                RateCacheResponse whileDown = client.get(url(path));

                assertThat(whileDown.code()).isEqualTo(200);
                assertThat(whileDown.source()).isEqualTo(ResponseSource.STALE_IF_ERROR);
                assertThat(whileDown.bodyString()).isEqualTo(body);
                // It did try: the back end answered 502 for the stopped origin.
                assertThat(whileDown.networkRequests()).isEqualTo(1);
                assertThat(client.stats().staleCount()).isEqualTo(1);
            } finally {
                stack.origin().start();
            }
        }
    }

    @Test
    @LongTest
    void staleResponseIsServedWhileTheOriginIsDownWhenTheServerAllowsIt() throws Exception {
        String path = TestStacks.fresh("staleok");
        try (RateCacheClient client = RateCacheClient.create()) {
            RateCacheResponse first = client.get(url(path));
            assertThat(first.header("Cache-Control")).contains("stale-if-error=60");
            stack.origin().stop();
            try {
                untilExpired();

                RateCacheResponse whileDown = client.get(url(path));

                assertThat(whileDown.code()).isEqualTo(200);
                assertThat(whileDown.source()).isEqualTo(ResponseSource.STALE_IF_ERROR);
                assertThat(whileDown.bodyString()).isEqualTo(first.bodyString());
            } finally {
                stack.origin().start();
            }
        }
    }

    @Test
    void mustRevalidateResponseIsNeverServedStaleEvenWhenTheClientAllowsIt() throws Exception {
        String path = TestStacks.fresh("mustrevalidate");
        try (RateCacheClient client = RateCacheClient.builder().staleIfError(Duration.ofMinutes(1)).build()) {
            client.get(url(path));
            stack.origin().fail("mustrevalidate", 500);
            untilExpired();

            RateCacheResponse failing = client.get(url(path));

            assertThat(failing.code()).isEqualTo(500);
            assertThat(failing.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(reached("mustrevalidate")).isEqualTo(2);
        }
    }

    @Test
    void originErrorIsNotHiddenByTheCacheUnlessStaleIfErrorAllowsIt() throws Exception {
        String path = TestStacks.fresh("brief");
        try (RateCacheClient client = RateCacheClient.create()) {
            client.get(url(path));
            stack.origin().fail("brief", 500);
            untilExpired();

            RateCacheResponse failing = client.get(url(path));

            assertThat(failing.code()).isEqualTo(500);
            assertThat(failing.source()).isEqualTo(ResponseSource.NETWORK);
            // 500 is not a rate-limit rejection: answered once, not retried.
            assertThat(failing.retries()).isZero();
            assertThat(reached("brief")).isEqualTo(2);
        }
    }

    @Test
    void meterBinderPublishesTheStatistics() throws Exception {
        String path = TestStacks.fresh("hare");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RateCacheClient client = RateCacheClient.create()) {
            new RateCacheMetrics(client).bindTo(registry);
            client.get(url(path));
            client.get(url(path));
            client.get(url(path));

            assertThat(registry.get("ratecache.client.requests").tag("outcome", "hit").functionCounter().count()).isEqualTo(2);
            assertThat(registry.get("ratecache.client.requests").tag("outcome", "miss").functionCounter().count()).isEqualTo(1);
            assertThat(registry.get("ratecache.client.network.requests").functionCounter().count()).isEqualTo(1);
            assertThat(registry.get("ratecache.client.retries").tag("status", "429").functionCounter().count()).isZero();
            assertThat(registry.get("ratecache.client.cache.entries").gauge().value()).isPositive();
            assertThat(reached("hare")).isEqualTo(1);
        }
    }
}
