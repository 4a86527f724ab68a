package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The switches Envoy's adapter renders beside nginx's, on one stack whose switches agree: --tls
 * with the throwaway CA, HSTS and the cleartext port; --freshness. No rate limit, so that nothing
 * rejects.
 */
@StackTest
@LongTest
@ExtendWith(SharedOrigin.class)
class EnvoySwitchesTest {
    private static Stack stack;
    private static int httpPort;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        StackPorts ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        httpPort = dev.ratecache.proc.Ports.free();
        StackSwitches switches = EnvoyRenderTest.nodelay().frontLimit(false).backLimit(false)
                .tls(true).hsts(true).httpPort(httpPort).freshness("/bare", 60).freshness("/nostore", 60);
        stack = Stack.aroundEdge(EnvoyRenderTest.edge(), switches.spec(ports), origin, ports,
                TestDirs.fresh(EnvoySwitchesTest.class, "stack"));
        Http.trust(stack.frontUri(), stack.tls().orElseThrow().sslContext());
    }

    @AfterAll
    static void stop() {
        Stacks.closeAll(stack);
    }

    private static HttpResponse<String> get(String url) {
        return Http.get(stack.frontUri(), url);
    }

    @Test
    void theFrontAnswersOverTlsInHttp2TrustingTheRunsCaAndCachesAsOverCleartext() {
        String url = Stacks.fresh("hare");

        HttpResponse<String> first = get(url);
        HttpResponse<String> again = get(url);

        assertThat(stack.frontUri().getScheme()).isEqualTo("https");
        assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(Stacks.cacheStatus(first)).isEqualTo("MISS");
        assertThat(Stacks.cacheStatus(again)).isEqualTo("HIT");
        assertThat(first.headers().firstValue("Strict-Transport-Security")).hasValue("max-age=31536000");
        assertThat(again.headers().firstValue("Strict-Transport-Security")).hasValue("max-age=31536000");
    }

    @Test
    void theCleartextPortRedirectsToHttpsWithTheSameUri() {
        HttpResponse<String> r = Http.get(URI.create("http://127.0.0.1:" + httpPort), "/hare?a=1&b=2");

        assertThat(r.statusCode()).isEqualTo(301);
        assertThat(r.headers().firstValue("Location")).hasValue(stack.frontUri().resolve("/hare?a=1&b=2").toString());
    }

    /** bare sends no Cache-Control: --freshness gives it a minute at the back, which the front stores. */
    @Test
    void freshnessMakesAnAnswerWithoutCacheControlStoredForItsSeconds() throws Exception {
        String url = Stacks.fresh("bare");

        HttpResponse<String> first = get(url);
        HttpResponse<String> again = get(url);

        assertThat(first.headers().firstValue("Cache-Control")).hasValue("max-age=60");
        assertThat(Stacks.cacheStatus(again)).isEqualTo("HIT");
        assertThat(Stacks.reached(stack, "bare")).isEqualTo(1);
    }

    /** nostore says no-store: the origin that says how long its content lives is believed, as by nginx's edge. */
    @Test
    void freshnessLeavesAnOriginsOwnCacheControlAlone() throws Exception {
        String url = Stacks.fresh("nostore");

        HttpResponse<String> first = get(url);
        HttpResponse<String> again = get(url);

        assertThat(first.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(Stacks.cacheStatus(again)).isEqualTo("MISS");
        assertThat(Stacks.reached(stack, "nostore")).isEqualTo(2);
    }
}
