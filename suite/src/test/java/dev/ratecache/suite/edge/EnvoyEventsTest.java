package dev.ratecache.suite.edge;

import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;

/**
 * Both Envoy tiers' access logs as events ({@link EdgeEventsBehaviours}): Envoy writes its log in
 * a buffer and the whole of it as it stops, so every request is there right after close.
 */
@StackTest
@LongTest
class EnvoyEventsTest extends EdgeEventsBehaviours {
    @Override
    Edge edge() {
        return EnvoyRenderTest.edge();
    }

    @Override
    String subnet() {
        return "127.0.23";
    }
}
