package dev.ratecache.suite.edge;

import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;

/**
 * --tls, HSTS and the cleartext port on a fleet of two Traefik edges ({@link EdgeSwitchesBehaviours}):
 * the balancer in front of them answers over TLS, and the stack's front URI is its https one.
 */
@StackTest
@LongTest
class TraefikFleetSwitchesTest extends EdgeSwitchesBehaviours {
    @Override
    Edge edge() {
        return TraefikRenderTest.edge();
    }

    @Override
    StackSwitches switches() {
        return TraefikRenderTest.runnable().edges(2);
    }
}
