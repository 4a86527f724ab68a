package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * stale-if-error against a small origin that sends exactly the headers under test; entries are
 * stale on arrival by the Age the origin claims (max-age=10 with Age: 20 is 10 s stale).
 */
@StackTest
class StaleIfErrorTest {
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

    private static String path(String cacheControl, int age) {
        String path = "/sie-" + paths.incrementAndGet();
        origin.serve(path, cacheControl, age, age);
        return path;
    }

    @Test
    void staleResponseIsServedWhenTheOriginAnswers5xxInsideTheWindow() throws Exception {
        for (int status : new int[] {500, 502, 503, 504}) {
            String path = path("max-age=10, stale-if-error=60", 20);
            try (RateCacheClient client = RateCacheClient.builder().retryPolicy(RetryPolicy.none()).build()) {
                RateCacheResponse first = client.get(origin.url(path));
                origin.fail(path, status);

                RateCacheResponse failing = client.get(origin.url(path));

                assertThat(failing.source()).as("after %d", status).isEqualTo(ResponseSource.STALE_IF_ERROR);
                assertThat(failing.code()).isEqualTo(200);
                assertThat(failing.bodyString()).isEqualTo(first.bodyString());
                assertThat(failing.networkRequests()).isEqualTo(1);
                assertThat(origin.requests(path)).isEqualTo(2);
                assertThat(client.stats().staleIfErrorCount()).isEqualTo(1);
                assertThat(client.stats().staleWhileRevalidatingCount()).isZero();
            }
        }
    }

    @Test
    void staleResponseIsServedWhenTheOriginCannotBeReached() throws Exception {
        try (SmallOrigin gone = new SmallOrigin();
                RateCacheClient client = RateCacheClient.create()) {
            String path = "/unreachable";
            gone.serve(path, "max-age=10, stale-if-error=60", 20, 20);
            RateCacheResponse first = client.get(gone.url(path));
            gone.stop();

            RateCacheResponse whileDown = client.get(gone.url(path));

            assertThat(whileDown.source()).isEqualTo(ResponseSource.STALE_IF_ERROR);
            assertThat(whileDown.code()).isEqualTo(200);
            assertThat(whileDown.bodyString()).isEqualTo(first.bodyString());
            assertThat(client.stats().staleIfErrorCount()).isEqualTo(1);
        }
    }

    @Test
    void errorPastTheWindowIsPassedOn() throws Exception {
        // 50 s stale, the window 30 s.
        assertErrorIsPassedOn(path("max-age=10, stale-if-error=30", 60));
    }

    @Test
    void mustRevalidateResponseIsNeverServedStaleOnError() throws Exception {
        assertErrorIsPassedOn(path("max-age=10, must-revalidate, stale-if-error=60", 20));
    }

    @Test
    void noCacheResponseIsNeverServedStaleOnError() throws Exception {
        assertErrorIsPassedOn(path("no-cache, max-age=10, stale-if-error=60", 0));
    }

    /** Once {@code path} is stored and its origin fails with 500, the caller gets the 500 itself. */
    private static void assertErrorIsPassedOn(String path) throws Exception {
        try (RateCacheClient client = RateCacheClient.create()) {
            client.get(origin.url(path));
            origin.fail(path, 500);

            RateCacheResponse failing = client.get(origin.url(path));

            assertThat(failing.code()).isEqualTo(500);
            assertThat(failing.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(client.stats().staleCount()).isZero();
        }
    }

    @Test
    void errorWhileRevalidatingInTheBackgroundLeavesTheStaleEntryToAnswer() throws Exception {
        // Both windows: the stale entry answers at once, and its failed revalidation changes nothing.
        String path = path("max-age=10, stale-while-revalidate=30, stale-if-error=60", 20);
        try (RateCacheClient client = RateCacheClient.create()) {
            RateCacheResponse first = client.get(origin.url(path));
            origin.fail(path, 500);

            RateCacheResponse stale = client.get(origin.url(path));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                    .until(() -> origin.requests(path) == 2);

            assertThat(stale.source()).isEqualTo(ResponseSource.STALE_WHILE_REVALIDATING);
            assertThat(client.get(origin.url(path)).bodyString()).isEqualTo(first.bodyString());
        }
    }
}
