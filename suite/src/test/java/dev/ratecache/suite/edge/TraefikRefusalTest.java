package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.StaleMode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What Traefik cannot do for a spec, said in one line with the reason and what to give instead. */
class TraefikRefusalTest {
    static final String NO_CACHE = "Traefik Proxy has no HTTP cache (its middlewares limit, rewrite and forward;"
            + " caching is a plugin's or Traefik Hub's): give --no-cache, or use --edge nginx";

    private static Optional<String> refusal(StackSwitches switches) {
        return TraefikRenderTest.edge().refusal(switches.spec(TraefikRenderTest.ports()));
    }

    @Test
    void nodelayLimitsWithoutACacheAreRunAsAsked() {
        assertThat(refusal(TraefikRenderTest.runnable())).isEmpty();
        assertThat(refusal(TraefikRenderTest.runnable().limitKey(LimitKey.parse("header:X-Api-Key"))
                .allow(List.of("10.0.0.0/8")).limitConn(4))).isEmpty();
    }

    @Test
    void theEdgeCacheIsRefusedFirstSayingTraefikHasNone() {
        // The defaults: the cache on, both limits queueing. The cache is named, alone.
        assertThat(refusal(new StackSwitches())).contains(NO_CACHE);
        assertThat(refusal(TraefikRenderTest.runnable().cache(true))).contains(NO_CACHE);
        // Whatever cache behaviour is asked, the line is the same.
        assertThat(refusal(TraefikRenderTest.runnable().cache(true).stale(StaleMode.PROTECTIVE))).contains(NO_CACHE);
    }

    @Test
    void everyCacheCapabilityIsMissingAndWordedAlike() {
        TraefikEdge edge = TraefikRenderTest.edge();
        for (Capability cache : List.of(Capability.CACHE, Capability.STALE_WHILE_REVALIDATE, Capability.STALE_IF_ERROR,
                Capability.CACHE_LOCK, Capability.PURGE)) {
            assertThat(edge.capabilities()).doesNotContain(cache);
            assertThat(edge.whyNot(cache, new StackSwitches().spec(TraefikRenderTest.ports()))).contains(NO_CACHE);
            assertThat(edge.whyNot(cache, TraefikRenderTest.runnable().spec(TraefikRenderTest.ports()))).isEmpty();
        }
        assertThat(EdgeProduct.TRAEFIK.cannot()).contains("cache responses", "serve stale while revalidating",
                "serve stale on an error", "send one miss of many to the origin", "purge", "queue or delay")
                .doesNotContain("limit by key").doesNotContain("send Retry-After");
    }

    @Test
    void aTierThatQueuesIsRefusedInOneLine() throws java.io.IOException {
        java.nio.file.Path tiers = java.nio.file.Files.write(dev.ratecache.testkit.TestDirs.fresh(getClass(), "tiers")
                .resolve("tiers.txt"), List.of("pro 10 20 queue pro-1"));

        assertThat(refusal(TraefikRenderTest.runnable().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers)))
                .hasValue("Traefik's RateLimit cannot queue or delay a burst (--tiers: pro queue): give each tier nodelay"
                        + " in the tiers file, or use --edge nginx");
    }

    @Test
    void aFleetIsRunNotRefused() {
        // Its RateLimit keeps its buckets in Redis: the fleet's shared limit is Traefik's own.
        for (FleetLimit limit : FleetLimit.values()) {
            assertThat(refusal(TraefikRenderTest.runnable().edges(3).fleetLimit(limit))).isEmpty();
        }
        assertThat(EdgeProduct.TRAEFIK.cannot()).doesNotContain("hold one limit across a fleet");
    }

    @Test
    void queueingIsRefusedNamingEachQueueingFlag() {
        assertThat(refusal(new StackSwitches().cache(false).backMode(LimitMode.parse("delay=5")))).contains(
                "Traefik's RateLimit holds a request at most half a token's time (1/(2 x rate)) and rejects beyond it:"
                        + " it cannot queue or delay a burst (--front-mode queue --back-mode delay=5): give"
                        + " --front-mode nodelay --back-mode nodelay, or use --edge nginx");
    }

    @Test
    void aKeyInACookieOrArgumentIsRefused() {
        assertThat(refusal(TraefikRenderTest.runnable().limitKey(LimitKey.parse("cookie:session")))).contains(
                "Traefik's RateLimit keys on the address, a header or the Host only (sourceCriterion), not the cookie"
                        + " session: give --limit-key header:NAME, or use --edge nginx");
        assertThat(refusal(TraefikRenderTest.runnable().limitKey(LimitKey.parse("arg:key")))).get().asString()
                .contains("not the query argument key");
    }

    @Test
    void aMissingKeyCannotBeAnswered401() {
        assertThat(refusal(TraefikRenderTest.runnable().limitKey(LimitKey.parse("header:X-Api-Key"))
                .missingKey(MissingKey.REJECT))).get().asString().startsWith("Traefik cannot answer a request without"
                + " a valid key 401 by itself");
    }

    @Test
    void anotherStatusOrRetryAfterIsRefusedTraefikDecidesBoth() {
        assertThat(refusal(TraefikRenderTest.runnable().rejectStatus(503))).contains("Traefik's RateLimit answers a"
                + " rejection 429, always: give --reject-status 429, or use --edge nginx");
        assertThat(refusal(TraefikRenderTest.runnable().retryAfter(30))).get().asString()
                .startsWith("Traefik's RateLimit sends its own Retry-After");
        assertThat(refusal(TraefikRenderTest.runnable().retryAfter(30).frontLimit(false).backLimit(false))).isEmpty();
    }

    @Test
    void whatTheAdapterDoesNotRenderYetIsNamed() {
        assertThat(refusal(TraefikRenderTest.runnable().freshness("/hare", 3))).contains(
                "--freshness is not in Traefik's adapter yet: drop it, or use --edge nginx");
    }

    @Test
    void theProductIsRegisteredWithItsFolderAndNames() {
        assertThat(EdgeProduct.valueOf("TRAEFIK").toString()).isEqualTo("traefik");
        assertThat(EdgeProduct.TRAEFIK.displayName()).isEqualTo("Traefik");
        assertThat(EdgeProduct.TRAEFIK.limiter()).isEqualTo("token bucket (RateLimit, x/time/rate)");
        assertThat(EdgeProduct.TRAEFIK.adapter().name()).isEqualTo("traefik");
    }
}
