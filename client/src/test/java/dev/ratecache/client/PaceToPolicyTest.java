package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Pacing to the edge's RateLimit-Policy: a tier of API keys (X-Api-Key) of known rate, 5 r/s with
 * a burst of 2, rejected at once with 429 and Retry-After: 1 (nodelay). Each test has a key of its
 * own, so a bucket of its own at the edge, and asks /brief (10 ms at the origin) with the cache
 * off, so every request is one at the edge: far faster than 5 r/s unless paced.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class PaceToPolicyTest {
    private static final int REQUESTS = 15;
    private static final double RATE = 5;
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        Path dir = TestDirs.fresh(PaceToPolicyTest.class, "tiers");
        Files.writeString(dir.resolve("tiers.txt"), "# name rate burst mode keys\nmetered 5 2 nodelay paced,unpaced\n");
        stack = TestStacks.start(origin, PaceToPolicyTest.class, new StackSwitches()
                .limitKey(LimitKey.parse("header:X-Api-Key")).tiers(dir.resolve("tiers.txt"))
                .addressCeiling(AddressCeiling.OFF).frontRate(1).frontBurst(0).frontMode(LimitMode.NODELAY)
                .retryAfter(1).rejectStatus(429).backLimit(false).cache(false));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    /** {@link #REQUESTS} GETs of one fresh path, one after another, with {@code key}; their statuses. */
    private static List<Integer> send(RateCacheClient client, String path, String key) throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            HttpGet get = new HttpGet(stack.frontUri() + path);
            get.setHeader("X-Api-Key", key);
            statuses.add(client.execute(get).code());
        }
        return statuses;
    }

    private static List<Integer> statusesAtTheEdge(String path, int atLeast) {
        return TestStacks.frontLog(stack, path, atLeast).stream().map(line -> line.path("status").asInt()).toList();
    }

    @Test
    void pacedClientIsNeverRejectedAtTheTiersRate() throws Exception {
        String path = TestStacks.fresh("brief");
        try (RateCacheClient client = RateCacheClient.builder().noCache().paceToPolicy(true).build()) {
            long start = System.nanoTime();
            List<Integer> statuses = send(client, path, "paced");
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(statuses).containsOnly(200);
            assertThat(statusesAtTheEdge(path, REQUESTS)).hasSize(REQUESTS).containsOnly(200);
            ClientStats stats = client.stats();
            assertThat(stats.retryCount()).isZero();
            assertThat(stats.networkCount()).isEqualTo(REQUESTS);
            // The first answer brought the policy; the bucket then let one more through at once (the
            // burst less one), and the rest at the tier's rate: no faster than that, whatever the machine.
            Duration paced = Duration.ofMillis(Math.round((REQUESTS - 2) * 1000 / RATE));
            assertThat(took).isGreaterThanOrEqualTo(paced.minusMillis(50));
            assertThat(stats.throttleWait()).isPositive();
        }
    }

    @Test
    void unpacedClientIsRejectedAndRetries() throws Exception {
        String path = TestStacks.fresh("brief");
        try (RateCacheClient client = RateCacheClient.builder().noCache().build()) {
            List<Integer> statuses = send(client, path, "unpaced");

            // Retried after Retry-After until each got through.
            assertThat(statuses).containsOnly(200);
            ClientStats stats = client.stats();
            assertThat(stats.retryCount(429)).isPositive();
            List<Integer> atTheEdge = statusesAtTheEdge(path, REQUESTS + (int) stats.retryCount(429));
            assertThat(atTheEdge).contains(429);
            assertThat(atTheEdge.stream().filter(s -> s == 429).count()).isEqualTo(stats.retryCount(429));
            assertThat(stats.throttleWait()).isZero();
        }
    }

    @Test
    void pacingTakesThePolicyFromTheResponses() throws Exception {
        String path = TestStacks.fresh("brief");
        try (RateCacheClient client = RateCacheClient.builder().noCache().paceToPolicy(true).build()) {
            HttpGet get = new HttpGet(stack.frontUri() + path);
            get.setHeader("X-Api-Key", "paced");
            RateCacheResponse r = client.execute(get);

            assertThat(r.header("RateLimit-Policy")).isEqualTo("\"metered\";q=5;w=1;ratecache-burst=2");
            assertThat(client.pacesToPolicy()).isTrue();
        }
    }
}
