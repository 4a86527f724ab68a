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
 * --tls on Traefik's front, with the throwaway CA, HSTS and the cleartext port. No cache (Traefik
 * has none) and no rate limit, so that nothing rejects.
 */
@StackTest
@LongTest
@ExtendWith(SharedOrigin.class)
class TraefikSwitchesTest {
    private static Stack stack;
    private static int httpPort;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        StackPorts ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        httpPort = dev.ratecache.proc.Ports.free();
        StackSwitches switches = TraefikRenderTest.runnable().frontLimit(false).backLimit(false)
                .tls(true).hsts(true).httpPort(httpPort);
        stack = Stack.aroundEdge(TraefikRenderTest.edge(), switches.spec(ports), origin, ports,
                TestDirs.fresh(TraefikSwitchesTest.class, "stack"));
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
    void theFrontAnswersOverTlsInHttp2TrustingTheRunsCaWithHsts() throws Exception {
        String url = Stacks.fresh("hare");

        HttpResponse<String> answer = get(url);

        assertThat(stack.frontUri().getScheme()).isEqualTo("https");
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(answer.headers().firstValue("Strict-Transport-Security")).hasValue("max-age=31536000");
        assertThat(Stacks.reached(stack, "hare")).isEqualTo(1);
    }

    @Test
    void theCleartextPortRedirectsToHttpsWithTheSameUri() {
        HttpResponse<String> r = Http.get(URI.create("http://127.0.0.1:" + httpPort), "/hare?a=1&b=2");

        assertThat(r.statusCode()).isEqualTo(301);
        assertThat(r.headers().firstValue("Location")).hasValue(stack.frontUri().resolve("/hare?a=1&b=2").toString());
    }
}
