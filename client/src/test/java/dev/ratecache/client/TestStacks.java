package dev.ratecache.client;

import dev.ratecache.suite.edge.NginxEdge;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.AccessLog;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Real stacks (origin, back end, front end) for the tests, and what they show on the wire. */
final class TestStacks {
    private TestStacks() {}

    private static Stack open;

    /**
     * Tiers with {@code switches} in front of the JVM's shared origin (suite's SharedOrigin), whose
     * endpoints include the client's own: brief (10 ms, fresh 1 s: expires within a test), brief2
     * (10 ms, fresh 2 s: still fresh right after a revalidation, whatever the Date's rounding), six
     * (fresh 6 s), private ({@code private, max-age=60}), mustrevalidate ({@code max-age=1,
     * must-revalidate}), staleok ({@code max-age=1, stale-if-error=60}). Only staleok gives
     * permission to serve stale.
     */
    static Stack start(OriginServer origin, Class<?> owner, StackSwitches switches) throws IOException {
        return Stacks.around(origin, owner, switches);
    }

    /**
     * One stack with no rate limits and no edge cache, shared by the test classes that only need
     * a way through to the origin (what the client caches shows at the origin's counters). It
     * stops when the test JVM does.
     */
    static synchronized Stack open(OriginServer origin) throws IOException {
        if (open == null) {
            open = start(origin, TestStacks.class, new StackSwitches().frontLimit(false).backLimit(false).cache(false));
            Stack s = open;
            Runtime.getRuntime().addShutdownHook(new Thread(s::close, "stop-open-stack"));
        }
        return open;
    }

    /** A path no other request has used, so that no cache holds it. */
    static String fresh(String endpoint) {
        return Stacks.fresh(endpoint);
    }

    /** The front end's access log lines for {@code uri}, once at least {@code atLeast} are there. */
    static List<JsonNode> frontLog(Stack stack, String uri, int atLeast) {
        return AccessLog.linesFor(stack.tiers(NginxEdge.Tiers.class).front().accessLog(), uri, atLeast);
    }

    static Path freshDir(Class<?> owner) {
        return TestDirs.fresh(owner, "stack");
    }
}
