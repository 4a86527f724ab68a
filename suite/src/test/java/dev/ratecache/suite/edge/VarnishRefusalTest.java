package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.StaleMode;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What Varnish cannot do for a spec, said in one line with the reason and what to give instead. */
class VarnishRefusalTest {
    private static Optional<String> refusal(StackSwitches switches) {
        return new VarnishEdge(Repo.varnishTemplates()).refusal(switches.spec(HaproxyRenderTest.ports()));
    }

    @Test
    void nodelayLimitsAndACacheAreRunAsAsked() {
        assertThat(refusal(HaproxyRenderTest.nodelay())).isEmpty();
    }

    @Test
    void queueingIsRefusedNamingEachQueueingFlag() {
        assertThat(refusal(new StackSwitches().backMode(LimitMode.parse("delay=5")))).contains(
                "Varnish's vsthrottle only rejects and never queues or delays (--front-mode queue --back-mode delay=5):"
                        + " give --front-mode nodelay --back-mode nodelay, or use --edge nginx");
    }

    @Test
    void queueingOfATierWhoseLimitIsOffIsNoConcern() {
        assertThat(refusal(HaproxyRenderTest.nodelay().backLimit(false).backMode(LimitMode.QUEUE))).isEmpty();
    }

    @Test
    void protectiveStaleIsRefusedNamingWhatGraceComesFrom() {
        assertThat(refusal(HaproxyRenderTest.nodelay().stale(StaleMode.PROTECTIVE))).contains(
                "The Varnish edge serves stale content only in the grace the origin's stale-while-revalidate and"
                        + " stale-if-error allow: drop --stale protective, or use --edge nginx");
    }

    @Test
    void staleWithTheCacheOffIsNoConcern() {
        assertThat(refusal(HaproxyRenderTest.nodelay().stale(StaleMode.PROTECTIVE).cache(false))).isEmpty();
    }

    @Test
    void aFleetIsRefusedBecauseEachVarnishdCountsAlone() {
        assertThat(refusal(HaproxyRenderTest.nodelay().edges(2))).contains("Varnish cannot hold one per-client limit"
                + " across --edges 2: each varnishd keeps its own vsthrottle buckets, in its own memory; give --edges 1,"
                + " or use --edge nginx");
    }

    @Test
    void tlsIsRefusedBecauseVarnishHasNone() {
        assertThat(refusal(HaproxyRenderTest.nodelay().tls(true))).contains("Varnish cannot terminate TLS: Varnish Cache"
                + " has no TLS of its own, and its authors put a TLS proxy such as hitch in front of it"
                + " (https://varnish-cache.org/docs/7.1/phk/ssl_again.html); drop --tls, or use --edge nginx");
    }

    @Test
    void limitConnIsRunAsAsked() {
        assertThat(refusal(HaproxyRenderTest.nodelay().limitConn(50))).isEmpty();
    }

    @Test
    void limitScopeMissesIsRunAsAsked() {
        assertThat(refusal(HaproxyRenderTest.keyed("header:X-Api-Key").limitScope(LimitScope.MISSES))).isEmpty();
    }

    @Test
    void tiersAreRunAsAsked() throws Exception {
        assertThat(refusal(HaproxyRenderTest.keyed("header:X-Api-Key")
                .tiers(VarnishRenderTest.tiersFile(getClass(), "nodelay", "free 5 10 nodelay free-1")))).isEmpty();
    }

    @Test
    void aTierThatQueuesIsRefusedNamingEachSuchTier() throws Exception {
        assertThat(refusal(HaproxyRenderTest.keyed("header:X-Api-Key").tiers(VarnishRenderTest.tiersFile(getClass(), "queueing",
                "free 5 10 nodelay free-1", "pro 50 100 delay=20 pro-1", "gold 90 100 queue gold-1"))))
                .contains("Varnish's vsthrottle only rejects and never queues or delays (--tiers: pro delay=20, gold"
                        + " queue): give those tiers the mode nodelay, or use --edge nginx");
    }

    @Test
    void varnishDeclaresGraceCoalescingAndPurgeButNeitherQueueingNorFleet() {
        assertThat(new VarnishEdge(Repo.varnishTemplates()).capabilities())
                .contains(Capability.NODELAY, Capability.STALE_WHILE_REVALIDATE, Capability.STALE_IF_ERROR,
                        Capability.CACHE_LOCK, Capability.PURGE, Capability.RETRY_AFTER)
                .doesNotContain(Capability.QUEUE_DELAY, Capability.RATELIMIT_HEADERS, Capability.FLEET);
    }
}
