package dev.ratecache.suite.stack;

import dev.ratecache.suite.edge.NginxEdge;
import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.nginx.ThrowawayCa;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --tls at the edge: what a client sees on the wire. One edge with the throwaway CA, HSTS and the
 * cleartext redirect port; one with the user's own certificate and --no-http2; and two edges
 * behind the balancer, which terminates TLS for them.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class TlsEdgeTest {
    private static Stack edge;
    private static Stack ownCertificate;
    private static Stack fleet;
    private static TlsFiles own;
    private static int httpPort;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        edge = Stacks.around(origin, TestDirs.fresh(TlsEdgeTest.class, "edge"), new StackSwitches()
                .tls(true).hsts(true).httpPort(httpPort = dev.ratecache.proc.Ports.free()));
        own = ThrowawayCa.write(TestDirs.fresh(TlsEdgeTest.class, "own-ca"), List.of());
        ownCertificate = Stacks.around(origin, TestDirs.fresh(TlsEdgeTest.class, "own"), new StackSwitches()
                .tls(true).tlsFiles(own.certificate(), own.key()).http2(false));
        fleet = Stacks.around(origin, TestDirs.fresh(TlsEdgeTest.class, "fleet"), new StackSwitches()
                .tls(true).edges(2));
    }

    @AfterAll
    static void stop() {
        Stacks.closeAll(edge, ownCertificate, fleet);
    }

    @Test
    void edgeAnswersOverTlsAndCachesAsOverCleartext() {
        String path = "/hare?" + Stacks.fresh("tls");
        HttpResponse<String> first = Http.get(edge.frontUri(), path);
        HttpResponse<String> second = Http.get(edge.frontUri(), path);

        assertThat(edge.frontUri().getScheme()).isEqualTo("https");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(cacheStatus(first)).isEqualTo("MISS");
        assertThat(cacheStatus(second)).isEqualTo("HIT");
    }

    @Test
    void throwawayCertificateIsTrustedThroughTheRunsCaOnly() {
        HttpClient trustingNothingExtra = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(edge.frontUri().resolve("/hare")).build();

        assertThatThrownBy(() -> trustingNothingExtra.send(request, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
        assertThat(edge.tls().orElseThrow().trust()).isEqualTo(edge.tls().orElseThrow().trust().getParent().resolve("ca.pem"));
    }

    @Test
    void http2IsNegotiatedByAlpn() throws Exception {
        assertThat(version(edge)).isEqualTo(HttpClient.Version.HTTP_2);
    }

    @Test
    void noHttp2KeepsHttp11() throws Exception {
        assertThat(version(ownCertificate)).isEqualTo(HttpClient.Version.HTTP_1_1);
    }

    @Test
    void tls12AndTls13AreAccepted() throws Exception {
        assertThat(handshake(edge, "TLSv1.2")).isEqualTo("TLSv1.2");
        assertThat(handshake(edge, "TLSv1.3")).isEqualTo("TLSv1.3");
    }

    @Test
    void tls11IsRefusedByTheServer() throws Exception {
        // Java 17 will not even offer TLS 1.1; OpenSSL will, at security level 0, so the refusal is the server's.
        ManagedProcess.Outcome out = ManagedProcess.run(List.of("openssl", "s_client", "-connect",
                "127.0.0.1:" + edge.ports().front(), "-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"), Duration.ofSeconds(20));

        assertThat(out.exitCode()).isNotZero();
        assertThat(out.text()).contains("alert protocol version");
    }

    @Test
    void aReconnectingClientResumesItsSession() throws Exception {
        ManagedProcess.Outcome out = ManagedProcess.run(List.of("openssl", "s_client", "-connect",
                "127.0.0.1:" + edge.ports().front(), "-tls1_2", "-reconnect",
                "-CAfile", edge.tls().orElseThrow().trust().toString()), Duration.ofSeconds(20));

        assertThat(out.stdout()).contains("New, TLSv1.2").contains("Reused, TLSv1.2");
    }

    @Test
    void hstsIsSentOnlyWithTheSwitch() {
        assertThat(Http.get(edge.frontUri(), "/hare").headers().firstValue("Strict-Transport-Security"))
                .hasValue("max-age=31536000");
        assertThat(Http.get(ownCertificate.frontUri(), "/hare").headers().firstValue("Strict-Transport-Security"))
                .isEmpty();
    }

    @Test
    void cleartextPortRedirectsToHttpsWithTheSameUri() {
        HttpResponse<String> r = Http.get(URI.create("http://127.0.0.1:" + httpPort), "/hare?a=1&b=2");

        assertThat(r.statusCode()).isEqualTo(301);
        assertThat(r.headers().firstValue("Location")).hasValue(edge.frontUri() + "/hare?a=1&b=2");
    }

    @Test
    void statusServerStaysOnCleartext() {
        HttpResponse<String> r = Http.get(URI.create("http://127.0.0.1:" + edge.ports().frontStatus()), "/nginx_status");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("Active connections");
    }

    @Test
    void ownCertificateIsTheOneServed() throws Exception {
        try (SSLSocket socket = socket(ownCertificate, "TLSv1.3")) {
            socket.startHandshake();
            Certificate served = socket.getSession().getPeerCertificates()[0];
            try (InputStream in = Files.newInputStream(own.certificate())) {
                assertThat(served).isEqualTo(CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
        }
    }

    @Test
    void balancerTerminatesTlsAndTheEdgesBehindItSpeakCleartext() throws Exception {
        HttpResponse<String> r = Http.get(fleet.frontUri(), "/hare");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(Files.readString(fleet.tiers(NginxEdge.Tiers.class).balancer().orElseThrow().prefix().resolve("conf/edge-balancer.conf")))
                .contains(" ssl http2;");
        for (var front : fleet.tiers(NginxEdge.Tiers.class).fronts()) {
            assertThat(Files.readString(front.prefix().resolve("conf/front-end.conf"))).doesNotContain("ssl");
        }
    }

    @Test
    void theOriginHearsTheClientsSchemeThroughTheBalancerAndTheEdges() throws Exception {
        java.util.List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer origin = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", dev.ratecache.proc.Ports.free()), 0);
        origin.createContext("/", exchange -> {
            heard.add(String.valueOf(exchange.getRequestHeaders().getFirst("X-Forwarded-Proto")));
            exchange.getResponseHeaders().add("Cache-Control", "no-store");
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        origin.start();
        try (Stack through = Stacks.trusted(Stack.around(null, new StackSwitches().tls(true).edges(2)
                .origins(List.of(URI.create("http://127.0.0.1:" + origin.getAddress().getPort()))),
                StackPorts.free(), TestDirs.fresh(TlsEdgeTest.class, "scheme")))) {
            assertThat(Http.get(through.frontUri(), "/scheme").statusCode()).isEqualTo(200);
        } finally {
            origin.stop(0);
        }

        assertThat(heard).containsExactly("https");
    }

    private static HttpClient.Version version(Stack stack) throws Exception {
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(stack.tls().orElseThrow().sslContext()).connectTimeout(Duration.ofSeconds(5)).build();
        return h2.send(HttpRequest.newBuilder(stack.frontUri().resolve("/hare")).build(),
                HttpResponse.BodyHandlers.discarding()).version();
    }

    private static String handshake(Stack stack, String protocol) throws Exception {
        try (SSLSocket socket = socket(stack, protocol)) {
            socket.startHandshake();
            return socket.getSession().getProtocol();
        }
    }

    private static SSLSocket socket(Stack stack, String protocol) throws Exception {
        SSLSocket socket = (SSLSocket) stack.tls().orElseThrow().sslContext().getSocketFactory()
                .createSocket("127.0.0.1", stack.ports().front());
        socket.setEnabledProtocols(new String[] {protocol});
        socket.setSoTimeout(10_000);
        return socket;
    }
}
