package dev.ratecache.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.AccessLog;
import dev.ratecache.testkit.TestDirs;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Real stacks (origin, back end, front end) for the tests, and what they show on the wire. */
final class TestStacks {
    private TestStacks() {}

    private static final AtomicInteger UNIQUE = new AtomicInteger();
    private static Stack open;

    /**
     * Endpoints beyond the origin's three: quick (10 ms, fresh 1 s: expires within a test),
     * quick2 (10 ms, fresh 2 s: still fresh right after a revalidation, whatever the Date's rounding),
     * private ({@code private, max-age=60}), mustrevalidate ({@code max-age=1, must-revalidate}),
     * staleok ({@code max-age=1, stale-if-error=60}). The origin's default permission to serve
     * stale (stale-while-revalidate, stale-if-error) is off, so that only staleok grants it.
     */
    static final List<String> ENDPOINTS = List.of(
            "--origin.stale-while-revalidate=0s", "--origin.stale-if-error=0s",
            "--origin.endpoints.quick.delay=10ms", "--origin.endpoints.quick.max-age=1s",
            "--origin.endpoints.quick2.delay=10ms", "--origin.endpoints.quick2.max-age=2s",
            "--origin.endpoints.private.delay=0ms", "--origin.endpoints.private.cache-control=private, max-age=60",
            "--origin.endpoints.mustrevalidate.delay=0ms",
            "--origin.endpoints.mustrevalidate.cache-control=public, max-age=1, must-revalidate",
            "--origin.endpoints.staleok.delay=0ms",
            "--origin.endpoints.staleok.cache-control=public, max-age=1, stale-if-error=60");

    static Stack start(Class<?> owner, NginxSwitches switches) throws IOException {
        return Stack.start(switches, StackPorts.free(), freshDir(owner), 10, ENDPOINTS);
    }

    /**
     * One stack with no rate limits and no edge cache, shared by the test classes that only need
     * a way through to the origin (what the client caches shows at the origin's counters). It
     * stops when the test JVM does.
     */
    static synchronized Stack open() throws IOException {
        if (open == null) {
            open = start(TestStacks.class, new NginxSwitches().frontLimit(false).backLimit(false).cache(false));
            Stack s = open;
            Runtime.getRuntime().addShutdownHook(new Thread(s::close, "stop-open-stack"));
        }
        return open;
    }

    /** A path no other request has used, so that no cache holds it. */
    static String fresh(String endpoint) {
        return "/" + endpoint + "?t=" + UNIQUE.incrementAndGet();
    }

    /** The front end's access log lines for {@code uri}, once at least {@code atLeast} are there. */
    static List<JsonNode> frontLog(Stack stack, String uri, int atLeast) {
        return AccessLog.linesFor(stack.frontEnd().accessLog(), uri, atLeast);
    }

    static Path freshDir(Class<?> owner) {
        return TestDirs.fresh(owner, "stack");
    }
}
