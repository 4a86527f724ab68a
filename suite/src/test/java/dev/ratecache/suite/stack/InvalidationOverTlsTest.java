package dev.ratecache.suite.stack;

import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import org.junit.jupiter.api.extension.ExtendWith;

/** InvalidationTest's behaviours with the edge behind --tls, over HTTP/2: writes, njs's subrequests and purges are the same over https. */
@StackTest
@ExtendWith(SharedOrigin.class)
class InvalidationOverTlsTest extends InvalidationTest {
    @Override
    StackSwitches switches() {
        return super.switches().tls(true);
    }
}
