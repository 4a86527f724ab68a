package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A 503 that says it may be cached ({@code public, max-age=60}), which the suite's origin can't
 * send (its injected faults carry no cache headers): a small origin of the test's own, behind the
 * real Nginx tiers.
 */
@StackTest
class RejectionCachingTest {
    private static final AtomicInteger reached = new AtomicInteger();
    private static HttpServer origin;
    private static Stack stack;

    @BeforeAll
    static void start() throws Exception {
        origin = HttpServer.create(new InetSocketAddress(Ports.LOOPBACK, 0), 0);
        origin.createContext("/busy", exchange -> {
            reached.incrementAndGet();
            exchange.getResponseHeaders().add("Cache-Control", "public, max-age=60");
            exchange.getResponseHeaders().add("Retry-After", "0");
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        origin.start();
        URI originUri = URI.create("http://" + Ports.LOOPBACK + ":" + origin.getAddress().getPort());
        stack = Stack.start(new StackSwitches().origins(List.of(originUri)).frontLimit(false).backLimit(false).cache(false),
                StackPorts.free(), TestStacks.freshDir(RejectionCachingTest.class));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
        origin.stop(0);
    }

    @Test
    void cacheableServiceUnavailableIsNeverStoredSoEveryRetryReachesTheOrigin() throws Exception {
        String url = stack.frontUri() + "/busy";
        RetryPolicy twice = RetryPolicy.builder().maxRetries(2).build();
        try (RateCacheClient client = RateCacheClient.builder().retryPolicy(twice).build()) {
            RateCacheResponse first = client.get(url);

            assertThat(first.code()).isEqualTo(503);
            assertThat(first.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(first.retries()).isEqualTo(2);
            assertThat(reached.get()).isEqualTo(3);
            // The caller sees the server's headers as they were.
            assertThat(first.header("Cache-Control")).isEqualTo("public, max-age=60");

            RateCacheResponse second = client.get(url);

            assertThat(second.source()).isEqualTo(ResponseSource.NETWORK);
            assertThat(reached.get()).isEqualTo(6);
            assertThat(client.cacheEntryCount()).isZero();
            ClientStats stats = client.stats();
            assertThat(stats.hitCount()).isZero();
            assertThat(stats.retryCount(503)).isEqualTo(4);
            assertThat(stats.rejectedCount()).isEqualTo(2);
        }
    }
}
