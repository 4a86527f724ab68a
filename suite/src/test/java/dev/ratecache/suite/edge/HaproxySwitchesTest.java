package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The switches HAProxy's adapter renders beside nginx's ({@link EdgeSwitchesBehaviours}): --tls
 * with the throwaway CA, HSTS and the cleartext port; --limit-conn; --freshness.
 */
@StackTest
@LongTest
class HaproxySwitchesTest extends EdgeSwitchesBehaviours {
    private static final int LIMIT_CONN = 2;

    @Override
    Edge edge() {
        return new HaproxyEdge(Repo.haproxyTemplates());
    }

    @Override
    StackSwitches switches() {
        return new StackSwitches().limitConn(LIMIT_CONN).freshness("/bare", 60).freshness("/nostore", 60);
    }

    @Test
    void theCacheStoresAndServesOverTlsAsOverCleartext() {
        cachesOverTlsAsOverCleartext();
    }

    /**
     * Misses held 3 s at the origin, all at once over HTTP/2, where one connection may carry them all: the
     * limit counts requests, not connections, so all but {@value #LIMIT_CONN} are rejected.
     */
    @Test
    void requestsInFlightFromOneAddressOverTheLimitAreRejectedWithRetryAfter() throws Exception {
        origin.slow("slow", Duration.ofSeconds(3));

        List<HttpResponse<String>> answers = Http.burst(stack.frontUri(),
                IntStream.range(0, LIMIT_CONN + 3).mapToObj(i -> Stacks.fresh("slow")).toList());

        assertThat(answers.stream().filter(a -> a.statusCode() == 200)).hasSize(LIMIT_CONN);
        assertThat(answers.stream().filter(a -> a.statusCode() != 200)).hasSize(3).allSatisfy(a -> {
            assertThat(a.statusCode()).isEqualTo(429);
            assertThat(a.headers().firstValue("Retry-After")).hasValue("1");
        });
        assertThat(Stacks.reached(stack, "slow")).isEqualTo(LIMIT_CONN);
    }

    /** With the max-age, an Expires a minute on, as nginx's expires sends both. */
    @Test
    void freshnessMakesAnAnswerWithoutCacheControlStored() throws Exception {
        HttpResponse<String> first = freshnessMakesAnAnswerWithoutCacheControlStoredForItsSeconds();

        assertThat(first.headers().firstValue("Expires")).isPresent();
    }

    @Test
    void freshnessLeavesAnOriginsCacheControlAlone() throws Exception {
        freshnessLeavesAnOriginsOwnCacheControlAlone();
    }
}
