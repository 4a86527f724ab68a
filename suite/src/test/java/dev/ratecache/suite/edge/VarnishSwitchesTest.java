package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.LimitMode;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The switches nginx's edge had alone until the Varnish edge rendered them, on one Varnish stack
 * whose switches agree: --limit-conn {@value #CONN}, and --freshness for /bare, which the origin
 * sends with no Cache-Control and no Expires, and for /nostore, which it sends no-store. The front's rate limit is far above what any
 * test sends, so that only the switch under test rejects; each test sends from addresses of its own.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class VarnishSwitchesTest {
    private static final int CONN = 2;
    private static final int FRESH = 60;

    private static Edge.Running stack;
    private static StackPorts ports;
    private static OriginServer origin;

    @BeforeAll
    static void start(OriginServer shared) throws Exception {
        origin = shared;
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        NginxSwitches switches = new NginxSwitches().frontRate(100).frontBurst(200).frontMode(LimitMode.NODELAY)
                .backLimit(false).limitConn(CONN).freshness("/bare", FRESH).freshness("/nostore", FRESH);
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
                .map(url -> (Callable<Http.Raw>) () -> getFrom(client, url)).toList());

        assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(CONN);
        assertThat(answers.stream().filter(a -> a.status() != 200)).hasSize(3)
                .allSatisfy(r -> {
                    assertThat(r.status()).isEqualTo(429);
                    assertThat(r.header("Retry-After")).isEqualTo("1");
                });
        for (int i = 0; i < CONN + 1; i++) {
            assertThat(Http.raw(client, ports.front(), "PURGE", urls.get(0)).status()).isEqualTo(403);
        }
        String stored = urls.get(answers.indexOf(answers.stream().filter(a -> a.status() == 200).findFirst().orElseThrow()));
        Http.Raw hit = getFrom(client, stored);
        assertThat(hit.status()).isEqualTo(200);
        assertThat(EdgeStack.cacheStatus(hit)).isEqualTo("HIT");
    }

    @Test
    void aPathGivenFreshnessIsStoredForThatLongWhenTheOriginSaidNothing() throws Exception {
        String url = Stacks.fresh("bare");

        Http.Raw first = getFrom("127.0.13.2", url);
        Http.Raw again = getFrom("127.0.13.2", url);

        assertThat(first.header("Cache-Control")).isEqualTo("max-age=" + FRESH);
        assertThat(first.header("Expires")).isNotBlank();
        assertThat(List.of(EdgeStack.cacheStatus(first), EdgeStack.cacheStatus(again))).containsExactly("MISS", "HIT");
        assertThat(origin.counters().requests("bare")).isEqualTo(1);
    }

    /** As nginx's back end: an origin that says how long its content lives is believed. */
    @Test
    void anOriginsOwnCacheControlIsKeptWhateverTheFreshnessOfItsPath() throws Exception {
        String url = Stacks.fresh("nostore");

        Http.Raw first = getFrom("127.0.13.3", url);
        Http.Raw again = getFrom("127.0.13.3", url);

        assertThat(first.header("Cache-Control")).isEqualTo("no-store");
        assertThat(List.of(EdgeStack.cacheStatus(first), EdgeStack.cacheStatus(again))).containsExactly("MISS", "MISS");
        assertThat(origin.counters().requests("nostore")).isEqualTo(2);
    }
}
