package dev.ratecache.suite.edge;

import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;

/**
 * The smuggling vectors through Traefik's two tiers, with no cache (Traefik has none) and the
 * limits nodelay. Go's HTTP server answers a request it cannot parse (400, 431, 501) itself, before
 * any handler, so Traefik's access log has no line of it; Traefik streams a request's body, so the
 * head of a POST whose chunked body turns out malformed reaches the origin before Go finds the fault,
 * and Traefik answers 500; and Go reads on after a request with both lengths (see
 * {@link SmugglingVectors#readsOnAfterBothLengths}). No request the front did not log may reach the
 * origin.
 */
@StackTest
@LongTest
class TraefikSmugglingTest extends SmugglingVectors {
    @Override
    Edge edge() {
        return TraefikRenderTest.edge();
    }

    @Override
    String pool() {
        return "127.28";
    }

    @Override
    StackSwitches switches() {
        return TraefikRenderTest.runnable().backLimit(false).clientTimeout(1);
    }

    @Override
    boolean logsUnreadRequests() {
        return false;
    }

    @Override
    boolean streamsRequestBodies() {
        return true;
    }

    /** Traefik's back logs its own 500 for a request whose body it could not pass on, or 499 when the front gave up first. */
    @Override
    java.util.Set<Integer> brokenOffStatuses() {
        return java.util.Set.of(500, 499);
    }

    /** Traefik answers 500 (its error handler's) for a request whose body it could not read, not 400. */
    @Override
    boolean brokenOffAnswer(int status) {
        return status == 500;
    }

    @Override
    boolean readsOnAfterBothLengths() {
        return true;
    }
}
