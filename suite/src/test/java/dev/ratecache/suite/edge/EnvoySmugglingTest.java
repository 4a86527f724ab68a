package dev.ratecache.suite.edge;

import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;

/**
 * The smuggling vectors through Envoy's two tiers. Envoy streams a request's body: the head of a
 * POST whose chunked body is malformed (a hex overflow, a negative size, chunk data without its
 * CRLF) may reach the origin before Envoy finds the fault, answers 400 and breaks the request off
 * (whether the origin counted it before the reset varies from run to run); no hidden request ever
 * does.
 */
@StackTest
@LongTest
class EnvoySmugglingTest extends SmugglingVectors {
    @Override
    Edge edge() {
        return EnvoyRenderTest.edge();
    }

    @Override
    String pool() {
        return "127.22";
    }

    @Override
    boolean streamsRequestBodies() {
        return true;
    }
}
