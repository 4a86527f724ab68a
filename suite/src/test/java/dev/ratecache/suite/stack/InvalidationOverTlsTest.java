package dev.ratecache.suite.stack;

import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.testkit.StackTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** InvalidationTest's behaviours with the edge behind --tls, over HTTP/2: writes, njs's subrequests and purges are the same over https. */
@StackTest
@ExtendWith(SharedOrigin.class)
class InvalidationOverTlsTest extends InvalidationTest {
    // Hides InvalidationTest's own start: JUnit runs this one in its place.
    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, InvalidationOverTlsTest.class, new NginxSwitches().tls(true));
    }
}
