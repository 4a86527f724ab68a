package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.StaleMode;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What HAProxy cannot do for a spec, said in one line with the reason and what to give instead. */
class HaproxyRefusalTest {
    private static Optional<String> refusal(StackSwitches switches) {
        return new HaproxyEdge(Repo.haproxyTemplates()).refusal(switches.spec(HaproxyRenderTest.ports()));
    }

    @Test
    void nodelayLimitsAndACacheAreRunAsAsked() {
        assertThat(refusal(HaproxyRenderTest.nodelay())).isEmpty();
    }

    @Test
    void everySwitchOnlyNginxsAdapterRenderedAtFirstIsRunAsAsked() throws java.io.IOException {
        assertThat(refusal(HaproxyRenderTest.tiered(dev.ratecache.testkit.TestDirs.fresh(getClass(), "all"))
                .tls(true).hsts(true).httpPort(10_079).limitConn(5).freshness("/hare", 3)
                .limitScope(dev.ratecache.suite.spec.LimitScope.MISSES))).isEmpty();
    }

    @Test
    void aTierThatQueuesIsRefusedNamingItsMode() throws java.io.IOException {
        java.nio.file.Path dir = dev.ratecache.testkit.TestDirs.fresh(getClass(), "tiers");
        assertThat(refusal(HaproxyRenderTest.tiered(dir, "gold 50 100 queue gold-1"))).contains(
                "HAProxy's rate limit rejects and never queues or delays (--tiers: gold queue): give each tier nodelay"
                        + " in the tiers file, or use --edge nginx");
        assertThat(refusal(HaproxyRenderTest.tiered(dir))).isEmpty();
    }

    @Test
    void protectiveStaleIsRefusedCitingTheIssue() {
        assertThat(refusal(HaproxyRenderTest.nodelay().stale(StaleMode.PROTECTIVE))).contains(
                "HAProxy's cache cannot serve stale content (haproxy#214): drop --stale protective, or use --edge nginx");
    }

    @Test
    void staleWithTheCacheOffIsNoConcern() {
        assertThat(refusal(HaproxyRenderTest.nodelay().stale(StaleMode.PROTECTIVE).cache(false))).isEmpty();
    }

    @Test
    void queueingIsRefusedNamingEachQueueingFlag() {
        assertThat(refusal(new StackSwitches().backMode(LimitMode.parse("delay=5")))).contains(
                "HAProxy's rate limit rejects and never queues or delays (--front-mode queue --back-mode delay=5): give"
                        + " --front-mode nodelay --back-mode nodelay, or use --edge nginx");
    }

    @Test
    void queueingOfATierWhoseLimitIsOffIsNoConcern() {
        assertThat(refusal(HaproxyRenderTest.nodelay().frontLimit(false).frontMode(LimitMode.QUEUE))).isEmpty();
    }

    @Test
    void aFleetIsRefusedBecausePeersDoNotSum() {
        assertThat(refusal(HaproxyRenderTest.nodelay().edges(3))).contains("HAProxy cannot hold one per-client limit"
                + " across --edges 3: its peers replicate stick-table values, they do not sum them; give --edges 1, or"
                + " use --edge nginx");
    }

    @Test
    void aCacheOverHaproxysLargestIsRefused() {
        assertThat(refusal(HaproxyRenderTest.nodelay().cacheSize("5g"))).contains(
                "HAProxy's cache holds at most 4095 MB (total-max-size): give --cache-size 4095m or less");
    }

    @Test
    void haproxyDeclaresNeitherQueueingNorStaleNorLockNorFleet() {
        assertThat(new HaproxyEdge(Repo.haproxyTemplates()).capabilities())
                .contains(Capability.NODELAY, Capability.RETRY_AFTER)
                .doesNotContain(Capability.QUEUE_DELAY, Capability.STALE_WHILE_REVALIDATE, Capability.STALE_IF_ERROR,
                        Capability.CACHE_LOCK, Capability.PURGE, Capability.FLEET);
    }
}
