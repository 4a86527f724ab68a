package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --limit-scope misses on HAProxy's tiers, keyed by a header: the per-client limit (1 r/s, burst 4:
 * 5 per 5 s, a window no busy machine slides out of within a burst) is counted at the back, so an
 * edge HIT costs no quota. Each test sends from an address of its own, with keys of its own.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class HaproxyMissesTest {
    private static final String KEY_HEADER = "X-Api-Key";
    private static final int THRESHOLD = 5;
    private static Edge.Running stack;
    private static StackPorts ports;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        StackSwitches switches = new StackSwitches().frontRate(1).frontBurst(THRESHOLD - 1)
                .frontMode(LimitMode.NODELAY).backLimit(false).limitKey(LimitKey.parse("header:" + KEY_HEADER))
                .limitScope(LimitScope.MISSES);
        stack = new HaproxyEdge(Repo.haproxyTemplates()).start(switches.spec(ports),
                TestDirs.fresh(HaproxyMissesTest.class, "stack"));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static Http.Raw get(String source, String url, String... headers) {
        return Http.raw(source, ports.front(), "GET", url, headers);
    }

    /** {@code n} requests at once, each from {@code request}. */
    private static List<Http.Raw> atOnce(int n, Supplier<Http.Raw> request) throws Exception {
        return EdgeBehaviours.atOnce(Collections.nCopies(n, (Callable<Http.Raw>) request::get));
    }

    private static long passed(List<Http.Raw> answers) {
        return answers.stream().filter(a -> a.status() == 200).count();
    }

    @Test
    void hitsCostAKeyNoQuota() throws Exception {
        String url = Stacks.fresh("hare");
        get("127.0.14.1", url, KEY_HEADER + ": hits");

        List<Http.Raw> hits = atOnce(2 * THRESHOLD, () -> get("127.0.14.1", url, KEY_HEADER + ": hits"));

        assertThat(hits).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(200);
            assertThat(EdgeStack.cacheStatus(a)).isEqualTo("HIT");
        });
        // The key's window holds its one miss: four more misses pass, the next is rejected.
        assertThat(passed(atOnce(THRESHOLD, () -> get("127.0.14.1", Stacks.fresh("hare"), KEY_HEADER + ": hits"))))
                .isEqualTo(THRESHOLD - 1);
    }

    @Test
    void missesOverAKeysBurstAreRejectedAtTheBackWith429AndRetryAfter() throws Exception {
        List<Http.Raw> misses = atOnce(2 * THRESHOLD, () -> get("127.0.14.2", Stacks.fresh("hare"), KEY_HEADER + ": misses"));

        assertThat(passed(misses)).isEqualTo(THRESHOLD);
        assertThat(misses.stream().filter(a -> a.status() != 200)).hasSize(THRESHOLD).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(429);
            assertThat(a.header("Retry-After")).isEqualTo("1");
        });
    }

    /**
     * X-Limit-Key from a client is not believed: the front removes it, so a keyless client naming
     * another's key in it is counted by its own address and spends none of that key's quota.
     */
    @Test
    void aClientsOwnXLimitKeyIsReplacedByTheFront() throws Exception {
        List<Http.Raw> spoofed = atOnce(2 * THRESHOLD, () -> get("127.0.14.3", Stacks.fresh("hare"), "X-Limit-Key: victim"));

        assertThat(passed(spoofed)).isEqualTo(THRESHOLD);
        assertThat(passed(atOnce(THRESHOLD, () -> get("127.0.14.4", Stacks.fresh("hare"), KEY_HEADER + ": victim"))))
                .isEqualTo(THRESHOLD);
    }
}
