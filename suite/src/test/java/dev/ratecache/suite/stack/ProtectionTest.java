package dev.ratecache.suite.stack;

import dev.ratecache.suite.edge.NginxEdge;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.AccessLog;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the front end refuses, hides and adds: the default switches, but a 1 s client timeout. */
@StackTest
@ExtendWith(SharedOrigin.class)
class ProtectionTest {
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(1);
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, ProtectionTest.class,
                new StackSwitches().clientTimeout((int) CLIENT_TIMEOUT.toSeconds())
                // One worker per tier, so that the back end's log is written in the order it logged (AccessLog.linesBeforeSentinel).
                .workers("1"));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void securityHeadersAreOnEveryResponseExactlyOnce() {
        // Read by the JDK's client and off the raw socket: each keeps every copy of a header.
        HttpResponse<String> ok = Http.get(stack.frontUri(), "/hare");
        Http.Raw okRaw = Http.raw("127.0.0.1", stack.ports().front(), "GET", "/hare");

        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(okRaw.status()).isEqualTo(200);
        SecurityHeaders.assertEachOnce(ok);
        SecurityHeaders.assertEachOnce(okRaw);
    }

    @Test
    void securityHeadersAreOnErrorsToo() {
        Http.Raw notFound = Http.raw("127.0.0.1", stack.ports().front(), "GET", "/no-such-endpoint");
        Http.Raw tooLarge = Http.raw("127.0.0.1", stack.ports().front(), "POST", "/hare", "Content-Length: 2000000");
        assertThat(notFound.status()).isEqualTo(404);
        assertThat(tooLarge.status()).isEqualTo(413);
        SecurityHeaders.assertEachOnce(notFound);
        SecurityHeaders.assertEachOnce(tooLarge);
    }

    @Test
    void serverHeaderCarriesNoVersion() {
        assertThat(Http.get(stack.frontUri(), "/hare").headers().firstValue("Server")).hasValue("nginx");
    }

    @Test
    void oversizedHeaderIsRefused() {
        Http.Raw response = Http.raw("127.0.0.1", stack.ports().front(), "GET", "/hare", "X-Big: " + "a".repeat(10_000));
        assertThat(response.status()).isEqualTo(400);
    }

    @Test
    void oversizedBodyIsRefusedBeforeItIsRead() {
        Http.Raw response = Http.raw("127.0.0.1", stack.ports().front(), "POST", "/hare", "Content-Length: 2000000");
        assertThat(response.status()).isEqualTo(413);
    }

    @ParameterizedTest(name = "{0} is not reachable through the front end")
    @ValueSource(strings = {"/actuator/health", "/actuator/origin", "/actuator/prometheus", "/nginx_status"})
    void originManagementPathsAreNotReachableThroughTheFrontEnd(String path) {
        assertThat(Http.get(stack.frontUri(), path).statusCode()).as(path).isEqualTo(404);
    }

    @Test
    void stubStatusAnswersOnTheLoopbackStatusPortOnly() {
        URI status = URI.create("http://127.0.0.1:" + stack.ports().frontStatus());
        HttpResponse<String> fromLoopback = Http.get(status, "/nginx_status");
        Http.Raw fromElsewhere = Http.raw("127.0.0.2", stack.ports().frontStatus(), "GET", "/nginx_status");

        assertThat(fromLoopback.statusCode()).isEqualTo(200);
        assertThat(fromLoopback.body()).startsWith("Active connections:");
        assertThat(fromElsewhere.status()).isEqualTo(403);
    }

    @Test
    void clientThatStallsInItsHeadersIsDroppedAfterTheClientTimeout() throws Exception {
        String path = "/hare?stalled-headers";
        Duration held = heldUntilDropped("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");

        assertThat(held).isBetween(CLIENT_TIMEOUT.minusMillis(100), CLIENT_TIMEOUT.plusSeconds(3));
        assertThat(AccessLog.linesFor(stack.tiers(NginxEdge.Tiers.class).front().accessLog(), path, 1))
                .singleElement().satisfies(line -> assertThat(line.get("status").asInt()).isEqualTo(408));
    }

    @Test
    void clientThatStallsInItsBodyIsDroppedAfterTheClientTimeout() throws Exception {
        String path = "/hare?stalled-body";
        Duration held = heldUntilDropped("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Length: 100\r\n\r\n" + "x".repeat(10));

        assertThat(held).isBetween(CLIENT_TIMEOUT.minusMillis(100), CLIENT_TIMEOUT.plusSeconds(3));
        assertThat(AccessLog.linesFor(stack.tiers(NginxEdge.Tiers.class).front().accessLog(), path, 1))
                .singleElement().satisfies(line -> assertThat(line.get("status").asInt()).isEqualTo(408));
        // Had the front end passed the request on, the back end would have logged it before a request sent after.
        assertThat(AccessLog.linesBeforeSentinel(stack.tiers(NginxEdge.Tiers.class).back().accessLog(), path, stack.frontUri()))
                .as("nothing passed on").isEmpty();
    }

    /**
     * Sends {@code partial} and nothing more, then reads until the front end drops the connection:
     * it must drop it without answering (reset, as reset_timedout_connection asks, which frees the
     * socket at once), and this says how long it held on.
     */
    private static Duration heldUntilDropped(String partial) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", stack.ports().front())) {
            socket.setSoTimeout(10_000);
            long sent = System.nanoTime();
            socket.getOutputStream().write(partial.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            byte[] answer;
            try {
                answer = socket.getInputStream().readAllBytes();
            } catch (java.net.SocketException reset) {
                assertThat(reset.getMessage()).as("dropped by a reset").contains("reset");
                answer = new byte[0];
            }
            Duration held = Duration.ofNanos(System.nanoTime() - sent);
            assertThat(new String(answer, StandardCharsets.US_ASCII)).as("no response, just a drop").isEmpty();
            return held;
        }
    }
}
