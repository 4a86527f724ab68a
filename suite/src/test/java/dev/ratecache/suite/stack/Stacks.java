package dev.ratecache.suite.stack;

import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** Test stacks: free ports, a fresh folder, and the shared origin (its endpoints: {@link SharedOrigin#ENDPOINTS}). */
public final class Stacks {
    private Stacks() {}

    /**
     * Fresh tiers with {@code switches} in front of the JVM's {@link SharedOrigin}, in the class's
     * own folder: the stack a behaviour class starts once and shares between its tests.
     */
    public static Stack around(OriginServer origin, Class<?> owner, StackSwitches switches) throws IOException {
        return around(origin, TestDirs.fresh(owner, "stack"), switches);
    }

    /** As above, in {@code dir}: for a test that starts tiers of its own. */
    public static Stack around(OriginServer origin, Path dir, StackSwitches switches) throws IOException {
        StackPorts ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        return trusted(Stack.around(origin, switches, ports, dir));
    }

    /** Closes each of {@code stacks} that started: for a class whose @BeforeAll may fail part way. */
    public static void closeAll(Stack... stacks) {
        for (Stack s : stacks) {
            if (s != null) {
                s.close();
            }
        }
    }

    /** {@code stack}, with {@link Http} trusting its CA when it speaks TLS. */
    static Stack trusted(Stack stack) {
        stack.tls().ifPresent(tls -> Http.trust(stack.frontUri(), tls.sslContext()));
        return stack;
    }

    /**
     * A whole stack with an origin of its own, started with {@code originArgs}: for the few classes
     * whose origin settings differ from the shared one's (delays, the items' lifetime).
     */
    public static Stack withOwnOrigin(Class<?> owner, StackSwitches switches, String... originArgs) throws IOException {
        return trusted(Stack.start(switches, StackPorts.free(), TestDirs.fresh(owner, "stack"), 10, List.of(originArgs)));
    }

    /** The edge cache's verdict on a response: X-Cache-Status, or "(none)" where the tier sent none. */
    public static String cacheStatus(HttpResponse<?> r) {
        return r.headers().firstValue("X-Cache-Status").orElse("(none)");
    }

    /** A URL the edge holds, and the body it holds for it. */
    public record Stored(String url, String body) {}

    /**
     * Stores a fresh URL of {@code endpoint} in the edge: asks it, then checks that the next answer
     * is a HIT, with a new URL each try. A response the origin stamped with a Date in the second
     * before the back end read it arrives a second old (apparent age, in whole seconds: RFC 9111,
     * 4.2.3), so one with max-age=1 is fresh for no time and the edge rightly does not store it;
     * a request delayed at the back end's limit makes that likelier. The next try falls in one second.
     */
    public static Stored store(Stack stack, String endpoint) {
        for (int attempt = 1; attempt <= 5; attempt++) {
            String url = fresh(endpoint);
            Http.get(stack.frontUri(), url);
            HttpResponse<String> again = Http.get(stack.frontUri(), url);
            if ("HIT".equals(cacheStatus(again))) {
                return new Stored(url, again.body());
            }
        }
        throw new AssertionError("the edge stored no answer of /" + endpoint + " in 5 tries");
    }

    /**
     * Asks the front end for {@code url} until its edge cache stops answering HIT, and returns
     * that first other answer: the request that found the entry expired, which is the one a test
     * is about. See {@link #firstAnswerNotAHit(Callable, Function)}.
     */
    public static HttpResponse<String> firstAnswerNotAHit(Stack stack, String url) {
        return firstAnswerNotAHit(() -> Http.get(stack.frontUri(), url), Stacks::cacheStatus);
    }

    /**
     * Repeats {@code ask} until {@code cacheStatus} of its answer is something other than HIT, and
     * returns that answer. Asking is harmless while the entry is fresh: a HIT reaches neither the
     * back end nor the origin and leaves the entry as it was, so the origin's counters and the
     * entry are what they would be had the test slept instead. nginx keeps freshness in whole
     * seconds, so an entry with max-age=1 expires within 2 s of being stored; 10 s is the margin
     * for a busy machine.
     */
    public static <T> T firstAnswerNotAHit(Callable<T> ask, Function<T, String> cacheStatus) {
        return await("the edge cache to stop answering HIT").atMost(Duration.ofSeconds(10))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(ask, answer -> !"HIT".equals(cacheStatus.apply(answer)));
    }

    private static final AtomicInteger UNIQUE = new AtomicInteger();

    /** A URL of {@code endpoint} that no test has asked before, so that no cache holds it. */
    public static String fresh(String endpoint) {
        return "/" + endpoint + "?t=" + UNIQUE.incrementAndGet();
    }

    /** Requests the stack's origin counted for {@code endpoint} since its last reset. */
    public static long reached(Stack stack, String endpoint) throws Exception {
        return stack.origin().counters().requests(endpoint);
    }
}
