package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The switches an edge product's adapter renders beside nginx's, on one stack whose switches agree:
 * --tls with the run's throwaway CA, HSTS and the cleartext port, and whatever else the product's
 * {@link #switches} add. No rate limit, so that only a switch under test rejects.
 */
@ExtendWith(SharedOrigin.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EdgeSwitchesBehaviours {
    OriginServer origin;
    Stack stack;
    private int httpPort;

    /** The product under test. */
    abstract Edge edge();

    /** Its switches besides TLS, HSTS and the cleartext port (which this class adds): the cache off where it has none. */
    abstract StackSwitches switches();

    @BeforeAll
    void start(OriginServer shared) throws Exception {
        origin = shared;
        StackPorts ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        httpPort = dev.ratecache.proc.Ports.free();
        StackSwitches switches = switches().frontLimit(false).backLimit(false).tls(true).hsts(true).httpPort(httpPort);
        stack = Stack.aroundEdge(edge(), switches.spec(ports), origin, ports, TestDirs.fresh(getClass(), "stack"));
        Http.trust(stack.frontUri(), stack.tls().orElseThrow().sslContext());
    }

    @AfterAll
    void stop() {
        Stacks.closeAll(stack);
    }

    HttpResponse<String> get(String url) {
        return Http.get(stack.frontUri(), url);
    }

    @Test
    void theFrontAnswersOverTlsInHttp2TrustingTheRunsCaWithHsts() {
        HttpResponse<String> answer = get(Stacks.fresh("hare"));

        assertThat(stack.frontUri().getScheme()).isEqualTo("https");
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(answer.headers().firstValue("Strict-Transport-Security")).hasValue("max-age=31536000");
    }

    @Test
    void theCleartextPortRedirectsToHttpsWithTheSameUri() {
        HttpResponse<String> r = Http.get(URI.create("http://127.0.0.1:" + httpPort), "/hare?a=1&b=2");

        assertThat(r.statusCode()).isEqualTo(301);
        assertThat(r.headers().firstValue("Location")).hasValue(stack.frontUri().resolve("/hare?a=1&b=2").toString());
    }

    /** For a product with a cache: over TLS it stores and serves as over cleartext, HSTS on its hits too. */
    void cachesOverTlsAsOverCleartext() {
        String url = Stacks.fresh("hare");

        HttpResponse<String> first = get(url);
        HttpResponse<String> again = get(url);

        assertThat(Stacks.cacheStatus(first)).isEqualTo("MISS");
        assertThat(Stacks.cacheStatus(again)).isEqualTo("HIT");
        assertThat(again.headers().firstValue("Strict-Transport-Security")).hasValue("max-age=31536000");
    }

    /** bare sends no Cache-Control: --freshness gives it a minute at the back, which the front stores. */
    HttpResponse<String> freshnessMakesAnAnswerWithoutCacheControlStoredForItsSeconds() throws Exception {
        String url = Stacks.fresh("bare");

        HttpResponse<String> first = get(url);
        HttpResponse<String> again = get(url);

        assertThat(first.headers().firstValue("Cache-Control")).hasValue("max-age=60");
        assertThat(Stacks.cacheStatus(again)).isEqualTo("HIT");
        assertThat(Stacks.reached(stack, "bare")).isEqualTo(1);
        return first;
    }

    /** nostore says no-store: the origin that says how long its content lives is believed, as by nginx's edge. */
    void freshnessLeavesAnOriginsOwnCacheControlAlone() throws Exception {
        String url = Stacks.fresh("nostore");

        HttpResponse<String> first = get(url);
        HttpResponse<String> again = get(url);

        assertThat(first.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(Stacks.cacheStatus(again)).isEqualTo("MISS");
        assertThat(Stacks.reached(stack, "nostore")).isEqualTo(2);
    }
}
