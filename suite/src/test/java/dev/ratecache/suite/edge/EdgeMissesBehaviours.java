package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --limit-scope misses on an edge product's tiers, keyed by a header: the per-client limit (1 r/s,
 * burst 4: 5 at once, which no busy machine refills or slides out of within a burst) is counted at
 * the back, so an edge HIT costs no quota. One stack per class; each test sends from an address of
 * its own ({@link #subnet}), with keys of its own.
 */
@ExtendWith(SharedOrigin.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EdgeMissesBehaviours {
    static final String KEY_HEADER = "X-Api-Key";
    static final int THRESHOLD = 5;
    private Edge.Running stack;
    private StackPorts ports;

    /** The product under test. */
    abstract Edge edge();

    /** Its switches before this class's: the limits in a mode it runs. */
    abstract StackSwitches base();

    /** The first three parts of the addresses this class sends from. */
    abstract String subnet();

    @BeforeAll
    void start(OriginServer origin) throws Exception {
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        StackSwitches switches = base().frontRate(1).frontBurst(THRESHOLD - 1).backLimit(false)
                .limitKey(LimitKey.parse("header:" + KEY_HEADER)).limitScope(LimitScope.MISSES);
        stack = edge().start(switches.spec(ports), TestDirs.fresh(getClass(), "stack"));
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    Http.Raw get(String source, String url, String... headers) {
        return Http.raw(source, ports.front(), "GET", url, headers);
    }

    /** {@code n} requests at once, each from {@code request}. */
    static List<Http.Raw> atOnce(int n, Supplier<Http.Raw> request) throws Exception {
        return EdgeBehaviours.atOnce(Collections.nCopies(n, (Callable<Http.Raw>) request::get));
    }

    static long passed(List<Http.Raw> answers) {
        return answers.stream().filter(a -> a.status() == 200).count();
    }

    @Test
    void hitsCostAKeyNoQuota() throws Exception {
        String source = subnet() + ".1";
        String url = Stacks.fresh("hare");
        get(source, url, KEY_HEADER + ": hits");

        List<Http.Raw> hits = atOnce(2 * THRESHOLD, () -> get(source, url, KEY_HEADER + ": hits"));

        assertThat(hits).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(200);
            assertThat(EdgeStack.cacheStatus(a)).isEqualTo("HIT");
            // Nothing at the back says one client's count on an answer the cache stores for everyone.
            assertThat(a.header("X-RateLimit-Remaining")).isNull();
        });
        // The key paid for its one miss: four more misses pass, the next is rejected.
        assertThat(passed(atOnce(THRESHOLD, () -> get(source, Stacks.fresh("hare"), KEY_HEADER + ": hits"))))
                .isEqualTo(THRESHOLD - 1);
    }

    @Test
    void missesOverAKeysBurstAreRejectedAtTheBackWith429AndRetryAfter() throws Exception {
        List<Http.Raw> misses = atOnce(2 * THRESHOLD, () -> get(subnet() + ".2", Stacks.fresh("hare"),
                KEY_HEADER + ": misses"));

        assertThat(passed(misses)).isEqualTo(THRESHOLD);
        assertThat(misses.stream().filter(a -> a.status() != 200)).hasSize(THRESHOLD).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(429);
            assertThat(a.header("Retry-After")).isEqualTo("1");
        });
    }
}
