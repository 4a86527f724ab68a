package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.testkit.LongTest;
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
 * --limit-scope misses on Envoy's tiers, keyed by a header: the per-client limit (1 r/s, burst 4: a
 * bucket of 5, which no busy machine refills by a whole token within a burst sent at once) counts at
 * the back, on what the front's cache did not answer, so an edge HIT costs no token. Each test
 * sends from an address of its own, with keys of its own.
 */
@StackTest
@LongTest
@ExtendWith(SharedOrigin.class)
class EnvoyMissesTest {
    private static final String KEY_HEADER = "X-Api-Key";
    private static final int BUCKET = 5;
    private static Edge.Running stack;
    private static StackPorts ports;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        stack = EnvoyRenderTest.edge().start(EnvoyRenderTest.nodelay().frontRate(1).frontBurst(BUCKET - 1)
                .backLimit(false).limitKey(LimitKey.parse("header:" + KEY_HEADER)).limitScope(LimitScope.MISSES)
                .spec(ports), TestDirs.fresh(EnvoyMissesTest.class, "stack"));
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
    void hitsCostAKeyNoToken() throws Exception {
        String url = Stacks.fresh("hare");
        get("127.0.26.1", url, KEY_HEADER + ": hits");

        List<Http.Raw> hits = atOnce(2 * BUCKET, () -> get("127.0.26.1", url, KEY_HEADER + ": hits"));

        assertThat(hits).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(200);
            assertThat(EdgeStack.cacheStatus(a)).isEqualTo("HIT");
            // The back's bucket sends no X-RateLimit headers: they would be stored with the answer.
            assertThat(a.header("X-RateLimit-Remaining")).isNull();
        });
        // The key's bucket paid for its one miss: four more misses pass, the next is refused.
        assertThat(passed(atOnce(BUCKET, () -> get("127.0.26.1", Stacks.fresh("hare"), KEY_HEADER + ": hits"))))
                .isEqualTo(BUCKET - 1);
    }

    @Test
    void missesOverAKeysBurstAreRefusedAtTheBackWith429AndRetryAfter() throws Exception {
        List<Http.Raw> misses = atOnce(2 * BUCKET, () -> get("127.0.26.2", Stacks.fresh("hare"), KEY_HEADER + ": misses"));

        assertThat(passed(misses)).isEqualTo(BUCKET);
        assertThat(misses.stream().filter(a -> a.status() != 200)).hasSize(BUCKET).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(429);
            assertThat(a.header("Retry-After")).isEqualTo("1");
        });
    }

    /**
     * X-Ratecache-Client from a client is not believed: the front sets it to the connection's peer,
     * so a keyless client naming another's address in it is counted by its own and spends none of
     * that address's bucket.
     */
    @Test
    void aClientsOwnXRatecacheClientIsReplacedByTheFront() throws Exception {
        List<Http.Raw> spoofed = atOnce(2 * BUCKET, () -> get("127.0.26.3", Stacks.fresh("hare"),
                "X-Ratecache-Client: 127.0.26.4"));

        assertThat(passed(spoofed)).isEqualTo(BUCKET);
        assertThat(passed(atOnce(BUCKET, () -> get("127.0.26.4", Stacks.fresh("hare"))))).isEqualTo(BUCKET);
    }
}
