package dev.ratecache.suite.edge;

import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import org.junit.jupiter.api.Test;

/** --tls, HSTS and the cleartext port on Envoy's front, and --freshness at its back ({@link EdgeSwitchesBehaviours}). */
@StackTest
@LongTest
class EnvoySwitchesTest extends EdgeSwitchesBehaviours {
    @Override
    Edge edge() {
        return EnvoyRenderTest.edge();
    }

    @Override
    StackSwitches switches() {
        return EnvoyRenderTest.nodelay().freshness("/bare", 60).freshness("/nostore", 60);
    }

    @Test
    void theCacheStoresAndServesOverTlsAsOverCleartext() {
        cachesOverTlsAsOverCleartext();
    }

    @Test
    void freshnessMakesAnAnswerWithoutCacheControlStored() throws Exception {
        freshnessMakesAnAnswerWithoutCacheControlStoredForItsSeconds();
    }

    @Test
    void freshnessLeavesAnOriginsCacheControlAlone() throws Exception {
        freshnessLeavesAnOriginsOwnCacheControlAlone();
    }
}
