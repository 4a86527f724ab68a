package dev.ratecache.suite.stack;

import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import org.junit.jupiter.api.extension.ExtendWith;

/** FreshnessRulesTest's behaviours with the edge behind --tls, over HTTP/2: RFC 9111's freshness is the same over https. */
@StackTest
@LongTest
@ExtendWith(SharedOrigin.class)
class FreshnessRulesOverTlsTest extends FreshnessRulesTest {
    @Override
    StackSwitches switches() {
        return super.switches().tls(true);
    }
}
