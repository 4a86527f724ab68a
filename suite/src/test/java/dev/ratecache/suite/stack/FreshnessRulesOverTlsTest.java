package dev.ratecache.suite.stack;

import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.testkit.StackTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** FreshnessRulesTest's behaviours with the edge behind --tls, over HTTP/2: RFC 9111's freshness is the same over https. */
@StackTest
@ExtendWith(SharedOrigin.class)
class FreshnessRulesOverTlsTest extends FreshnessRulesTest {
    // Hides FreshnessRulesTest's own start: JUnit runs this one in its place.
    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, FreshnessRulesOverTlsTest.class, new NginxSwitches().freshness("/badexpires", 60)
                .tls(true));
    }
}
