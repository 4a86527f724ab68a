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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --limit-scope misses on the Varnish edge: the per-client limit (1 r/s, burst 1: two at once, by
 * the key in {@value #KEY_HEADER}, else by address) is the back tier's, on what the edge passes it,
 * so that a HIT spends no quota. The origin's limit is off. Each test sends from addresses and with
 * keys of its own; a burst that took over a second to send may get one more request through.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class VarnishLimitScopeMissesTest {
    private static final String KEY_HEADER = "X-Api-Key";

    private static Edge.Running stack;
    private static StackPorts ports;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        StackSwitches switches = new StackSwitches().frontRate(1).frontBurst(1).frontMode(LimitMode.NODELAY)
                .backLimit(false).limitKey(LimitKey.parse("header:" + KEY_HEADER)).limitScope(LimitScope.MISSES);
        stack = new VarnishEdge(Repo.varnishTemplates()).start(switches.spec(ports),
                TestDirs.fresh(VarnishLimitScopeMissesTest.class, "stack"));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    /** {@code n} requests at once to the front from {@code client}, each to a new URL (a miss), with {@code headers}. */
    private static List<Http.Raw> misses(String client, int n, String... headers) throws Exception {
        return EdgeBehaviours.atOnce(IntStream.range(0, n).mapToObj(i -> (Callable<Http.Raw>) () ->
                Http.raw(client, ports.front(), "GET", Stacks.fresh("lasting"), headers)).toList());
    }

    /** How many passed; every other answer a rejection with Retry-After. */
    private static long passed(List<Http.Raw> answers) {
        assertThat(answers).filteredOn(a -> a.status() != 200).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(429);
            assertThat(a.header("Retry-After")).isEqualTo("1");
        });
        return answers.stream().filter(a -> a.status() == 200).count();
    }

    /**
     * One miss spends one of the key's two tokens; six HITs after it spend none (at the edge they
     * would have spent the other and been rejected from the second on); the misses after them
     * find the one token left.
     */
    @Test
    void hitsSpendNoQuotaAndMissesDo() throws Exception {
        String client = "127.0.19.1";
        String key = KEY_HEADER + ": hits";
        String url = Stacks.fresh("lasting");

        List<Http.Raw> answers = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            answers.add(Http.raw(client, ports.front(), "GET", url, key));
        }

        assertThat(answers).extracting(Http.Raw::status).containsOnly(200);
        assertThat(answers).extracting(EdgeStack::cacheStatus).containsExactly("MISS", "HIT", "HIT", "HIT", "HIT", "HIT", "HIT");
        assertThat(passed(misses(client, 4, key))).isBetween(1L, 2L);
    }

    /**
     * Behind the edge a request without a key is counted by the client's address, which the edge
     * passes in X-Forwarded-For, not by the edge's own: another client still has its own bucket.
     */
    @Test
    void aRequestWithoutAKeyIsCountedByTheClientsAddress() throws Exception {
        assertThat(passed(misses("127.0.19.3", 4))).isBetween(2L, 3L);
        assertThat(passed(misses("127.0.19.4", 2))).isEqualTo(2);
    }

    /**
     * The back tier believes X-Limit-Key only from the edge: a client that calls it directly with
     * someone's key is counted by its own address, and the key's owner keeps its tokens.
     */
    @Test
    void aKeyPassedByAnyoneButTheEdgeIsNotBelieved() throws Exception {
        List<Http.Raw> forged = EdgeBehaviours.atOnce(IntStream.range(0, 4).mapToObj(i -> (Callable<Http.Raw>) () ->
                Http.raw("127.0.19.5", ports.back(), "GET", Stacks.fresh("lasting"), "X-Limit-Key: victim")).toList());

        assertThat(passed(forged)).isBetween(2L, 3L);
        assertThat(passed(misses("127.0.19.6", 2, KEY_HEADER + ": victim"))).isEqualTo(2);
    }
}
