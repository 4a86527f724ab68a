package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.nginx.LimitMode;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.testkit.TestDirs;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every edge product's two tiers do alike in front of the suite's origin, one stack per
 * class: a repeat is a HIT, and a request with Authorization or a Cookie never is. Each product's
 * class extends this with its own behaviours. One instance per class, so that the stack is the
 * subclass's own (a static @BeforeAll here would run once per subclass into shared fields).
 * Each test sends from its own loopback address, so each has a per-client limit of its own: the
 * front's is 1 a second with burst {@value #FRONT_BURST}, which no busy machine refills between
 * two steps.
 */
@ExtendWith(SharedOrigin.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EdgeBehaviours {
    static final int FRONT_BURST = 4;

    Edge.Running stack;
    StackPorts ports;
    OriginServer origin;

    /** The product under test. */
    abstract Edge edge();

    /**
     * The first three parts of the addresses this class's tests send from; the shared tests here
     * take .201 to .203, the subclass's own any other.
     */
    abstract String subnet();

    @BeforeAll
    void start(OriginServer shared) throws Exception {
        origin = shared;
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        NginxSwitches switches = new NginxSwitches().frontRate(1).frontBurst(FRONT_BURST)
                .frontMode(LimitMode.NODELAY).backMode(LimitMode.NODELAY);
        stack = edge().start(StackSpec.from(switches, ports), TestDirs.fresh(getClass(), "stack"));
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    Http.Raw get(String source, String path, String... headers) {
        return Http.raw(source, ports.front(), "GET", path, headers);
    }

    long reached(String endpoint) throws Exception {
        return origin.counters().requests(endpoint);
    }

    @Test
    void aRepeatIsAHitThatNeverReachesTheOrigin() throws Exception {
        String url = Stacks.fresh("hare");
        String client = subnet() + ".201";

        Http.Raw first = get(client, url);
        Http.Raw again = get(client, url);

        assertThat(first.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(reached("hare")).isEqualTo(1);
    }

    @Test
    void aRequestWithAuthorizationIsNeverAHit() throws Exception {
        assertNeverAHit(subnet() + ".202", "Authorization: Bearer one");
    }

    @Test
    void aRequestWithACookieIsNeverAHit() throws Exception {
        assertNeverAHit(subnet() + ".203", "Cookie: session=one");
    }

    /** Twice with {@code header}, then without: each reaches the origin, and nothing asked with it is stored for anyone. */
    private void assertNeverAHit(String client, String header) throws Exception {
        String url = Stacks.fresh("hare");

        Http.Raw first = get(client, url, header);
        Http.Raw again = get(client, url, header);
        Http.Raw anonymous = get(client, url);

        assertThat(List.of(first.header("X-Cache-Status"), again.header("X-Cache-Status")))
                .containsExactly("BYPASS", "BYPASS");
        assertThat(anonymous.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(reached("hare")).isEqualTo(3);
    }
}
