package dev.ratecache.suite.edge;

import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;

/** --tls, HSTS and the cleartext port on Traefik's front ({@link EdgeSwitchesBehaviours}), with no cache: it has none. */
@StackTest
@LongTest
class TraefikSwitchesTest extends EdgeSwitchesBehaviours {
    @Override
    Edge edge() {
        return TraefikRenderTest.edge();
    }

    @Override
    StackSwitches switches() {
        return TraefikRenderTest.runnable();
    }
}
