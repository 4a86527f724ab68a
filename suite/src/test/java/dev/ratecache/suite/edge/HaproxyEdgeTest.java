package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.LimitMode;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Both HAProxy tiers in front of the suite's origin, one stack for the class: the HIT and the
 * bypasses every edge shares ({@link EdgeBehaviours}), and this product's own. Each test sends from
 * its own loopback address, so each has a per-client window of its own. The limits are windows no
 * busy machine can slide out of between two steps: the front's 1 a second, burst 4, is 5 requests
 * per 5 s. The back's limit, which every test's misses would share, is the reference's (10 a
 * second, burst 50) here; the test of it starts a stack of its own.
 */
@StackTest
class HaproxyEdgeTest extends EdgeBehaviours {
    private static final int FRONT_THRESHOLD = FRONT_BURST + 1;
    private static final int BACK_THRESHOLD = 20;

    @Override
    Edge edge() {
        return new HaproxyEdge(Repo.haproxyTemplates());
    }

    @Override
    String subnet() {
        return "127.0.1";
    }

    /** One request to each of {@code paths} at once from {@code source}. */
    private List<Http.Raw> burst(String source, List<String> paths) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(paths.size());
        try {
            List<Future<Http.Raw>> answers = paths.stream().map(p -> pool.submit(() -> get(source, p))).toList();
            List<Http.Raw> all = new java.util.ArrayList<>();
            for (Future<Http.Raw> a : answers) {
                all.add(a.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aBurstOverTheThresholdFromOneClientIsRejectedWith429AndRetryAfter() throws Exception {
        List<Http.Raw> answers = burst("127.0.1.3",
                IntStream.range(0, 2 * FRONT_THRESHOLD).mapToObj(i -> Stacks.fresh("hare")).toList());

        assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(FRONT_THRESHOLD);
        List<Http.Raw> rejected = answers.stream().filter(a -> a.status() != 200).toList();
        assertThat(rejected).hasSize(FRONT_THRESHOLD)
                .allSatisfy(r -> {
                    assertThat(r.status()).isEqualTo(429);
                    assertThat(r.header("Retry-After")).isEqualTo("1");
                });
        assertThat(reached("hare")).isEqualTo(FRONT_THRESHOLD);
    }

    /**
     * A stack of its own with the back's limit alone (1 a second, burst 19: 20 per 20 s): the
     * other tests' misses would share its window, and its own would leave none for them.
     */
    @Test
    void theBacksLimitHoldsTheOriginsCountWhateverTheClients() throws Exception {
        StackPorts own = StackPorts.free().origin(origin.port(), origin.managementPort());
        NginxSwitches switches = new NginxSwitches().frontLimit(false).cache(false).backRate(1)
                .backBurst(BACK_THRESHOLD - 1).backMode(LimitMode.NODELAY);
        try (Edge.Running backLimited = new HaproxyEdge(Repo.haproxyTemplates()).start(StackSpec.from(switches, own),
                TestDirs.fresh(HaproxyEdgeTest.class, "back-limit"))) {
            // Each from an address of its own, as many clients.
            List<Http.Raw> answers = IntStream.range(0, 2 * BACK_THRESHOLD)
                    .mapToObj(i -> Http.raw("127.0.2." + (i + 1), own.front(), "GET", Stacks.fresh("hare"))).toList();

            assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(BACK_THRESHOLD);
            assertThat(answers.stream().filter(a -> a.status() == 429)).hasSize(BACK_THRESHOLD);
            assertThat(reached("hare")).isEqualTo(BACK_THRESHOLD);
        }
    }
}
