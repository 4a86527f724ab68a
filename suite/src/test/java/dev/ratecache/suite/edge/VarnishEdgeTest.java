package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Both Varnish tiers in front of the suite's origin, one stack for the class: the HIT and the
 * bypasses every edge shares ({@link EdgeBehaviours}), the freshness and invalidation rules, the
 * stale rules, coalescing and purge, which Varnish has, and this product's own. Each test sends
 * from its own loopback address, so each has a vsthrottle bucket of its own. The front's limit, 1
 * a second with burst 4, is 5 tokens refilled one a second, and vsthrottle refills a whole token
 * only a full second after the last pass: a burst sent at once on a busy machine stays well inside
 * that. The back's limit, which every test's misses would share, is off here; the test of it
 * starts a stack of its own.
 */
@StackTest
@LongTest
class VarnishEdgeTest extends EdgeBehaviours
        implements EdgeFreshness, EdgeInvalidation, EdgeStale, EdgeCoalescing, EdgePurge {
    private static final int FRONT_LIMIT = FRONT_BURST + 1;
    private static final int BACK_LIMIT = 10;

    @Override
    Edge edge() {
        return new VarnishEdge(Repo.varnishTemplates());
    }

    @Override
    String subnet() {
        return "127.0.3";
    }

    @Override
    String pool() {
        return "127.7";
    }

    @Test
    void aBurstOverTheLimitFromOneClientIsRejectedWith429AndRetryAfter() throws Exception {
        List<Http.Raw> answers = atOnce(IntStream.range(0, 2 * FRONT_LIMIT)
                .mapToObj(i -> (Callable<Http.Raw>) () -> getFrom("127.0.3.5", Stacks.fresh("hare"))).toList());

        assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(FRONT_LIMIT);
        List<Http.Raw> rejected = answers.stream().filter(a -> a.status() != 200).toList();
        assertThat(rejected).hasSize(FRONT_LIMIT)
                .allSatisfy(r -> {
                    assertThat(r.status()).isEqualTo(429);
                    assertThat(r.header("Retry-After")).isEqualTo("1");
                });
        assertThat(reached("hare")).isEqualTo(FRONT_LIMIT);
        // Counted by address (client.identity is the client's): another client still has its whole burst.
        assertThat(getFrom("127.0.6.1", Stacks.fresh("hare")).status()).isEqualTo(200);
    }

    /**
     * A stack of its own with the back's limit alone (1 a second, burst 9: 10 tokens): the other
     * tests' misses would share its bucket. The requests go at once, so that no second passes
     * between the tenth pass and the last call, which would refill a token.
     */
    @Test
    void theBacksLimitHoldsTheOriginsCountWhateverTheClients() throws Exception {
        StackPorts own = StackPorts.free().origin(origin.port(), origin.managementPort());
        StackSwitches switches = new StackSwitches().frontLimit(false).cache(false).backRate(1)
                .backBurst(BACK_LIMIT - 1).backMode(LimitMode.NODELAY);
        try (Edge.Running backLimited = new VarnishEdge(Repo.varnishTemplates()).start(switches.spec(own),
                TestDirs.fresh(VarnishEdgeTest.class, "back-limit"))) {
            // Each from an address of its own, as many clients.
            List<Http.Raw> answers = atOnce(IntStream.range(0, 2 * BACK_LIMIT)
                    .mapToObj(i -> (Callable<Http.Raw>) () -> Http.raw("127.0.4." + (i + 1), own.front(), "GET",
                            Stacks.fresh("hare"))).toList());

            assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(BACK_LIMIT);
            assertThat(answers.stream().filter(a -> a.status() == 429))
                    .hasSize(BACK_LIMIT)
                    .allSatisfy(r -> assertThat(r.header("Retry-After")).isEqualTo("1"));
            assertThat(reached("hare")).isEqualTo(BACK_LIMIT);
        }
    }

    /**
     * Varnish does not read stale-if-error; the front keeps the entry in grace for as long. So,
     * unlike nginx's edge, which would wait for the origin, it answers the first request after
     * expiry STALE while the origin is up.
     */
    @Test
    void anEntryTheOriginLetsBeServedStaleOnErrorIsAnsweredStaleWhileTheOriginIsUp() {
        String url = stored("sie").url();

        assertThat(EdgeStack.cacheStatus(firstAnswerNotAHit(url))).isEqualTo("STALE");
    }

    /**
     * aged58: max-age=60 with Age: 58, as if a cache before it had held it 58 s. Varnish counts the
     * Age into the entry's lifetime (RFC 9111 section 4.2.3): 2 s left, not 60.
     */
    @Test
    void anAgeFromUpstreamShortensTheLifetime() throws Exception {
        String url = stored("aged58").url();

        assertThat(EdgeStack.cacheStatus(firstAnswerNotAHit(url))).isEqualTo("MISS");
        assertThat(reached("aged58")).isEqualTo(2);
    }

    /**
     * ahead: an origin clock an hour fast, no Cache-Control, and Expires its Date + 2 s. Varnish
     * counts Expires from the response's Date where the two clocks differ (RFC 9111 section
     * 4.2.1), so the entry lives 2 s, not an hour.
     */
    @Test
    void anExpiresCountsFromTheResponsesDate() throws Exception {
        String url = stored("ahead").url();

        assertThat(EdgeStack.cacheStatus(firstAnswerNotAHit(url))).isEqualTo("MISS");
        assertThat(reached("ahead")).isEqualTo(2);
    }

    /**
     * post answers a write 201 with Location /board?item=posted: the front invalidates that URL too,
     * as nginx's does (RFC 9111 section 4.4 allows it for a Location of the same origin).
     */
    @Test
    void aSuccessfulWriteInvalidatesItsLocation() {
        assertThat(locationAfterASuccessfulWrite()).isEqualTo("MISS");
    }
}
