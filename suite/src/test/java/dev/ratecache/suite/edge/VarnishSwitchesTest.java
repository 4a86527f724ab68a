package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The switches nginx's edge had alone until the Varnish edge rendered them, on one Varnish stack
 * whose switches agree: --limit-conn {@value #CONN}; --freshness for /bare, which the origin sends
 * with no Cache-Control and no Expires, and for /nostore, which it sends no-store; and --tiers of
 * keys in {@value #KEY_HEADER}: free (1 r/s, burst 1), pro (1 r/s, burst 10), open (far above what
 * any test sends) and anonymous (1 r/s, burst 0) for every other key and a request without one.
 * The tests of the other switches send a key of open of their own, so that only the switch under
 * test rejects. Each test sends from addresses and with keys of its own (a key's bucket follows it
 * to any address); a burst that took over a second to send may get one more request through.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class VarnishSwitchesTest {
    private static final int CONN = 2;
    private static final int FRESH = 60;
    private static final String KEY_HEADER = "X-Api-Key";

    private static Edge.Running stack;
    private static StackPorts ports;
    private static OriginServer origin;

    @BeforeAll
    static void start(OriginServer shared) throws Exception {
        origin = shared;
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        Path tiers = TestDirs.fresh(VarnishSwitchesTest.class, "tiers").resolve("tiers.txt");
        Files.writeString(tiers, "# name rate burst mode keys\nfree 1 1 nodelay free-1\npro 1 10 nodelay pro-1,pro-2\n"
                + "open 100 200 nodelay open-1,open-2,open-3\nanonymous 1 0 nodelay\n");
        StackSwitches switches = new StackSwitches().frontRate(100).frontBurst(200).frontMode(LimitMode.NODELAY)
                .backLimit(false).limitConn(CONN).freshness("/bare", FRESH).freshness("/nostore", FRESH)
                .limitKey(LimitKey.parse("header:" + KEY_HEADER)).tiers(tiers);
        stack = new VarnishEdge(Repo.varnishTemplates()).start(switches.spec(ports),
                TestDirs.fresh(VarnishSwitchesTest.class, "stack"));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static Http.Raw getFrom(String source, String url, String... headers) {
        return Http.raw(source, ports.front(), "GET", url, headers);
    }

    private static String key(String key) {
        return KEY_HEADER + ": " + key;
    }

    /**
     * {@code n} requests at once with {@code key}, each to a URL of its own and from an address of its
     * own in {@code subnet}: a tier counts by key, and --limit-conn would count many at once from one address.
     */
    private static List<Http.Raw> burst(String subnet, int n, String key) throws Exception {
        return EdgeBehaviours.atOnce(IntStream.range(0, n).mapToObj(i -> (Callable<Http.Raw>) () ->
                getFrom(subnet + "." + (i + 1), Stacks.fresh("hare"), key(key))).toList());
    }

    /** How many passed; every other answer a rejection. */
    private static long passed(List<Http.Raw> answers) {
        assertThat(answers).filteredOn(a -> a.status() != 200).allSatisfy(a -> assertThat(a.status()).isEqualTo(429));
        return answers.stream().filter(a -> a.status() == 200).count();
    }

    /**
     * /slow takes 1.5 s, so the first two of five sent at once, each a URL of its own (a miss), are
     * still in flight when the others arrive. Each answer gives its token back: a PURGE refused with
     * 403 (an answer Varnish makes itself) three times in a row, then a HIT, all pass the count.
     */
    @Test
    void requestsInFlightBeyondTheLimitAreRejectedAndEachAnswerGivesItsTokenBack() throws Exception {
        String client = "127.0.13.1";
        List<String> urls = IntStream.range(0, CONN + 3).mapToObj(i -> Stacks.fresh("slow")).toList();

        List<Http.Raw> answers = EdgeBehaviours.atOnce(urls.stream()
                .map(url -> (Callable<Http.Raw>) () -> getFrom(client, url, key("open-1"))).toList());

        assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(CONN);
        assertThat(answers.stream().filter(a -> a.status() != 200)).hasSize(3)
                .allSatisfy(r -> {
                    assertThat(r.status()).isEqualTo(429);
                    assertThat(r.header("Retry-After")).isEqualTo("1");
                });
        for (int i = 0; i < CONN + 1; i++) {
            assertThat(Http.raw(client, ports.front(), "PURGE", urls.get(0), key("open-1")).status()).isEqualTo(403);
        }
        String stored = urls.get(answers.indexOf(answers.stream().filter(a -> a.status() == 200).findFirst().orElseThrow()));
        Http.Raw hit = getFrom(client, stored, key("open-1"));
        assertThat(hit.status()).isEqualTo(200);
        assertThat(EdgeStack.cacheStatus(hit)).isEqualTo("HIT");
    }

    @Test
    void aPathGivenFreshnessIsStoredForThatLongWhenTheOriginSaidNothing() throws Exception {
        String url = Stacks.fresh("bare");

        Http.Raw first = getFrom("127.0.13.2", url, key("open-2"));
        Http.Raw again = getFrom("127.0.13.2", url, key("open-2"));

        assertThat(first.header("Cache-Control")).isEqualTo("max-age=" + FRESH);
        assertThat(first.header("Expires")).isNotBlank();
        assertThat(List.of(EdgeStack.cacheStatus(first), EdgeStack.cacheStatus(again))).containsExactly("MISS", "HIT");
        assertThat(origin.counters().requests("bare")).isEqualTo(1);
    }

    /** As nginx's back end: an origin that says how long its content lives is believed. */
    @Test
    void anOriginsOwnCacheControlIsKeptWhateverTheFreshnessOfItsPath() throws Exception {
        String url = Stacks.fresh("nostore");

        Http.Raw first = getFrom("127.0.13.3", url, key("open-3"));
        Http.Raw again = getFrom("127.0.13.3", url, key("open-3"));

        assertThat(first.header("Cache-Control")).isEqualTo("no-store");
        assertThat(List.of(EdgeStack.cacheStatus(first), EdgeStack.cacheStatus(again))).containsExactly("MISS", "MISS");
        assertThat(origin.counters().requests("nostore")).isEqualTo(2);
    }

    @Test
    void aKeyGetsItsTiersBurst() throws Exception {
        assertThat(passed(burst("127.0.14", 12, "pro-1"))).isBetween(11L, 12L);
        assertThat(passed(burst("127.0.15", 5, "free-1"))).isBetween(2L, 3L);
    }

    /**
     * A key no tier lists, and a case variant of a listed one (a key is in a tier only as listed, else
     * PRO-2 would be a fresh pro bucket): each the anonymous tier's one request at once, not pro's
     * eleven. A request without a key is counted by its address in the anonymous tier: one after
     * another from one address (at once, --limit-conn would reject them too), the first stores the
     * URL and the HITs after it come well inside the second that refills the bucket.
     */
    @Test
    void everyOtherKeyAndARequestWithoutOneGetTheAnonymousTier() throws Exception {
        assertThat(passed(burst("127.0.16", 4, "stranger"))).isBetween(1L, 2L);
        assertThat(passed(burst("127.0.17", 4, "PRO-2"))).isBetween(1L, 2L);
        String url = Stacks.fresh("hare");
        List<Http.Raw> keyless = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            keyless.add(getFrom("127.0.13.8", url));
        }
        assertThat(passed(keyless)).isBetween(1L, 2L);
    }
}
