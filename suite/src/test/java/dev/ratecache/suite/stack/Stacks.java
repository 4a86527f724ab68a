package dev.ratecache.suite.stack;

import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.testkit.TestDirs;
import dev.ratecache.suite.nginx.NginxSwitches;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

/** Test stacks: free ports, a fresh folder, and extra origin endpoints the behaviours need. */
public final class Stacks {
    private Stacks() {}

    /**
     * Endpoints beyond the reference three, each showing one kind of response:
     * quick (fresh 1 s), slow (1.5 s to answer), private, nostore, cookie (Set-Cookie),
     * bare (no Cache-Control at all). quick and slow send the origin's default permission to serve
     * them stale (stale-while-revalidate=60, stale-if-error=600), which the edge cache's stale
     * behaviours rely on.
     */
    public static final List<String> TEST_ENDPOINTS = List.of(
            "--origin.endpoints.quick.delay=10ms", "--origin.endpoints.quick.max-age=1s",
            "--origin.endpoints.slow.delay=1500ms", "--origin.endpoints.slow.max-age=60s",
            "--origin.endpoints.private.delay=0ms", "--origin.endpoints.private.max-age=60s",
            "--origin.endpoints.private.cache-control=private, max-age=60",
            "--origin.endpoints.nostore.delay=0ms", "--origin.endpoints.nostore.max-age=60s",
            "--origin.endpoints.nostore.cache-control=no-store",
            "--origin.endpoints.cookie.delay=0ms", "--origin.endpoints.cookie.max-age=60s",
            "--origin.endpoints.cookie.set-cookie=session=abc123",
            "--origin.endpoints.bare.delay=0ms", "--origin.endpoints.bare.max-age=60s",
            "--origin.endpoints.bare.cache-control=none");

    public static Stack start(Class<?> owner, NginxSwitches switches, String... originArgs) throws IOException {
        List<String> args = new ArrayList<>(TEST_ENDPOINTS);
        args.addAll(List.of(originArgs));
        return Stack.start(switches, StackPorts.free(), TestDirs.fresh(owner, "stack"), 10, args);
    }

    /** The edge cache's verdict on a response: X-Cache-Status, or "(none)" where the tier sent none. */
    public static String cacheStatus(HttpResponse<?> r) {
        return r.headers().firstValue("X-Cache-Status").orElse("(none)");
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

    private static final java.util.concurrent.atomic.AtomicInteger UNIQUE = new java.util.concurrent.atomic.AtomicInteger();

    /** A URL of {@code endpoint} that no test has asked before, so that no cache holds it. */
    public static String fresh(String endpoint) {
        return "/" + endpoint + "?t=" + UNIQUE.incrementAndGet();
    }

    /** Requests the stack's origin counted for {@code endpoint} since its last reset. */
    public static long reached(Stack stack, String endpoint) throws Exception {
        return stack.origin().counters().requests(endpoint);
    }
}
