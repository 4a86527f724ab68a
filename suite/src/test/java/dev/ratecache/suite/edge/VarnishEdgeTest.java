package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.LimitMode;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Both Varnish tiers in front of the suite's origin, one stack for the class: the HIT and the
 * bypasses every edge shares ({@link EdgeBehaviours}), and this product's own. Each test sends from
 * its own loopback address, so each has a vsthrottle bucket of its own. The front's limit, 1 a
 * second with burst 4, is 5 tokens refilled one a second, and vsthrottle refills a whole token
 * only a full second after the last pass: a burst sent at once on a busy machine stays well inside
 * that. The back's limit, which every test's misses would share, is the reference's (51 tokens
 * over 5.1 s) here; the test of it starts a stack of its own.
 */
@StackTest
class VarnishEdgeTest extends EdgeBehaviours {
    private static final int FRONT_LIMIT = FRONT_BURST + 1;
    private static final int BACK_LIMIT = 10;
    private static final AtomicInteger POLLERS = new AtomicInteger();

    @Override
    Edge edge() {
        return new VarnishEdge(Repo.varnishTemplates());
    }

    @Override
    String subnet() {
        return "127.0.3";
    }

    /**
     * Asks for {@code url} until the cache stops answering HIT, each time from an address of its
     * own: polling one client's bucket of 5 would meet the limit before the entry expires.
     */
    private Http.Raw firstAnswerNotAHit(String url) {
        return Stacks.firstAnswerNotAHit(() -> {
            int n = POLLERS.incrementAndGet();
            return get("127.5." + n / 250 + "." + (n % 250 + 1), url);
        }, r -> r.header("X-Cache-Status"));
    }

    /** Every request at once, each on a thread of its own. */
    private static List<Http.Raw> atOnce(List<Callable<Http.Raw>> requests) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(requests.size());
        try {
            List<Http.Raw> all = new ArrayList<>();
            for (Future<Http.Raw> a : pool.invokeAll(requests)) {
                all.add(a.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aPurgeFromAnAllowedAddressEmptiesTheEntryAndFromAnyOtherIsForbidden() throws Exception {
        String url = Stacks.fresh("hare");
        get("127.0.3.4", url);

        Http.Raw refused = Http.raw("127.0.3.4", ports.front(), "PURGE", url);
        Http.Raw stillCached = get("127.0.3.4", url);
        Http.Raw purged = Http.raw("127.0.0.1", ports.front(), "PURGE", url);
        Http.Raw afterPurge = get("127.0.3.4", url);

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.header("Retry-After")).isNull();
        assertThat(stillCached.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(purged.status()).isEqualTo(200);
        assertThat(afterPurge.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(reached("hare")).isEqualTo(2);
    }

    @Test
    void aBurstOverTheLimitFromOneClientIsRejectedWith429AndRetryAfter() throws Exception {
        List<Http.Raw> answers = atOnce(IntStream.range(0, 2 * FRONT_LIMIT)
                .mapToObj(i -> (Callable<Http.Raw>) () -> get("127.0.3.5", Stacks.fresh("hare"))).toList());

        assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(FRONT_LIMIT);
        List<Http.Raw> rejected = answers.stream().filter(a -> a.status() != 200).toList();
        assertThat(rejected).hasSize(FRONT_LIMIT)
                .allSatisfy(r -> {
                    assertThat(r.status()).isEqualTo(429);
                    assertThat(r.header("Retry-After")).isEqualTo("1");
                });
        assertThat(reached("hare")).isEqualTo(FRONT_LIMIT);
        // Counted by address (client.identity is the client's): another client still has its whole burst.
        assertThat(get("127.0.6.1", Stacks.fresh("hare")).status()).isEqualTo(200);
    }

    /**
     * A stack of its own with the back's limit alone (1 a second, burst 9: 10 tokens): the other
     * tests' misses would share its bucket. The requests go at once, so that no second passes
     * between the tenth pass and the last call, which would refill a token.
     */
    @Test
    void theBacksLimitHoldsTheOriginsCountWhateverTheClients() throws Exception {
        StackPorts own = StackPorts.free().origin(origin.port(), origin.managementPort());
        NginxSwitches switches = new NginxSwitches().frontLimit(false).cache(false).backRate(1)
                .backBurst(BACK_LIMIT - 1).backMode(LimitMode.NODELAY);
        try (Edge.Running backLimited = new VarnishEdge(Repo.varnishTemplates()).start(StackSpec.from(switches, own),
                TestDirs.fresh(VarnishEdgeTest.class, "back-limit"))) {
            // Each from an address of its own, as many clients.
            List<Http.Raw> answers = atOnce(IntStream.range(0, 2 * BACK_LIMIT)
                    .mapToObj(i -> (Callable<Http.Raw>) () -> Http.raw("127.0.4." + (i + 1), own.front(), "GET",
                            Stacks.fresh("hare"))).toList());

            assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(BACK_LIMIT);
            assertThat(answers.stream().filter(a -> a.status() == 429))
                    .hasSize(BACK_LIMIT)
                    .allSatisfy(r -> assertThat(r.header("Retry-After")).isEqualTo("1"));
            assertThat(reached("hare")).isEqualTo(BACK_LIMIT);
        }
    }

    /** Varnish reads stale-while-revalidate into grace itself: the expired entry is served, and refreshed behind. */
    @Test
    void anEntryTheOriginLetsBeServedStaleWhileRevalidatingIsAnsweredStale() throws Exception {
        String url = Stacks.fresh("swr");
        Http.Raw stored = get("127.0.3.6", url);

        Http.Raw expired = firstAnswerNotAHit(url);

        assertThat(stored.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(expired.header("X-Cache-Status")).isEqualTo("STALE");
        assertThat(expired.body()).isEqualTo(stored.body());
        await().atMost(Duration.ofSeconds(5)).until(() -> reached("swr") == 2);
    }

    /** Varnish does not read stale-if-error; the front keeps the entry in grace for as long. */
    @Test
    void anEntryTheOriginLetsBeServedStaleOnErrorIsKeptInGrace() throws Exception {
        String url = Stacks.fresh("sie");
        get("127.0.3.7", url);

        assertThat(firstAnswerNotAHit(url).header("X-Cache-Status")).isEqualTo("STALE");
    }

    /** A background refresh that meets the origin's error is dropped: the stale entry stays and is served. */
    @Test
    void aRefreshThatFailsLeavesTheStaleEntryServed() throws Exception {
        String url = Stacks.fresh("sie");
        Http.Raw stored = get("127.0.3.9", url);
        origin.fail("sie", 500);

        Http.Raw expired = firstAnswerNotAHit(url);
        await().atMost(Duration.ofSeconds(5)).until(() -> reached("sie") == 2);
        Http.Raw afterTheFailedRefresh = firstAnswerNotAHit(url);

        assertThat(expired.header("X-Cache-Status")).isEqualTo("STALE");
        assertThat(afterTheFailedRefresh.status()).isEqualTo(200);
        assertThat(afterTheFailedRefresh.header("X-Cache-Status")).isEqualTo("STALE");
        assertThat(afterTheFailedRefresh.body()).isEqualTo(stored.body());
    }

    /** Without the origin's permission, not Varnish's default grace of 10 s: an expired entry is a miss. */
    @Test
    void anEntryWithoutPermissionToBeStaleIsAMissOnceExpired() throws Exception {
        String url = Stacks.fresh("plain");
        get("127.0.3.8", url);

        assertThat(firstAnswerNotAHit(url).header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(reached("plain")).isEqualTo(2);
    }

    /** Misses of one object while it is being fetched wait for that fetch (coalescing): one origin request. */
    @Test
    void missesOfOneObjectAtOnceReachTheOriginOnce() throws Exception {
        String url = Stacks.fresh("slow");

        List<Http.Raw> answers = atOnce(IntStream.range(0, 3)
                .mapToObj(i -> (Callable<Http.Raw>) () -> get("127.0.3." + (10 + i), url)).toList());

        assertThat(answers).allSatisfy(a -> assertThat(a.status()).isEqualTo(200));
        assertThat(answers.stream().map(a -> a.header("X-Cache-Status")))
                .containsExactlyInAnyOrder("MISS", "HIT", "HIT");
        assertThat(reached("slow")).isEqualTo(1);
    }
}
