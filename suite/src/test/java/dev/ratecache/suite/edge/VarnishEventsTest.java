package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.testkit.StackTest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Both Varnish tiers' requests as events ({@link EdgeEventsBehaviours}), and Varnish's own: an
 * answer from grace, STALE.
 */
@StackTest
class VarnishEventsTest extends EdgeEventsBehaviours {
    private final AtomicInteger pollers = new AtomicInteger();
    private String graced;

    @Override
    Edge edge() {
        return new VarnishEdge(Repo.varnishTemplates());
    }

    @Override
    String subnet() {
        return "127.0.8";
    }

    /**
     * An entry the origin lets be served stale while it is refreshed, asked until it has expired,
     * each time from an address of its own (one client's 5 tokens would run out first); then its
     * refresh, which the closing must not cut.
     */
    @Override
    void moreTraffic() {
        graced = Stacks.fresh("swr");
        get(subnet() + ".4", graced);
        Stacks.firstAnswerNotAHit(() -> get(subnet() + "." + (10 + pollers.incrementAndGet()), graced),
                s -> s.answer().header("X-Cache-Status"));
        await().atMost(Duration.ofSeconds(5)).until(() -> origin.counters().requests("swr") == 2);
    }

    @Test
    void anAnswerFromGraceIsStaleWithNoUpstreamAndItsRefreshReachesTheBackTier() {
        assertThat(front).filteredOn(e -> e.uri().equals(graced)).extracting(EdgeEvent::cache)
                .containsOnlyOnce(EdgeEvent.Cache.STALE, EdgeEvent.Cache.MISS);
        assertThat(front).filteredOn(e -> e.cache() == EdgeEvent.Cache.STALE).singleElement()
                .satisfies(e -> {
                    assertThat(e.status()).isEqualTo(200);
                    assertThat(e.wentUpstream()).isFalse();
                });
        assertThat(back).filteredOn(e -> e.uri().equals(graced)).hasSize(2);
    }
}
