package dev.ratecache.client.driver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ratecache.proc.Ports;
import dev.ratecache.testkit.StackTest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * How the many-clients driver closes its window, against an origin of the test's own (a JDK
 * HttpServer on loopback) that answers a 429 with Retry-After: 1 where the test says: one client,
 * one request at the window's start, so that its retry falls after a one-second window. The
 * request's success counts in the goodput whichever strategy waited it out, as it counts at the
 * origin; a wait that would run past the drain gives the request up.
 */
@StackTest
class ManyClientsWindowTest {
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private HttpServer origin;
    private final AtomicInteger arrived = new AtomicInteger();
    private final AtomicInteger served = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        origin = HttpServer.create(new InetSocketAddress(Ports.LOOPBACK, 0), 0);
        origin.setExecutor(threads);
        // Every other attempt is rejected, starting with the first: a request's first retry succeeds.
        origin.createContext("/every-other", exchange -> answer(exchange, arrived.incrementAndGet() % 2 == 1));
        origin.createContext("/never", exchange -> answer(exchange, true));
        origin.createContext("/warm-up", exchange -> {
            try (exchange) {
                exchange.sendResponseHeaders(204, -1);
            }
        });
        origin.start();
    }

    @AfterEach
    void stop() {
        origin.stop(0);
        threads.shutdownNow();
    }

    private void answer(HttpExchange exchange, boolean reject) throws IOException {
        try (exchange) {
            if (reject) {
                exchange.getResponseHeaders().add("Retry-After", "1");
                exchange.sendResponseHeaders(429, -1);
            } else {
                served.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
            }
        }
    }

    private JsonNode run(String path, String strategy, String drain) throws IOException {
        Path json = Files.createTempFile("many-clients", ".json");
        try {
            StringWriter err = new StringWriter();
            CommandLine cmd = new CommandLine(new ManyClients());
            cmd.setOut(new PrintWriter(new StringWriter()));
            cmd.setErr(new PrintWriter(err));
            int code = cmd.execute("--url", "http://" + Ports.LOOPBACK + ":" + origin.getAddress().getPort(),
                    "--path", path, "--clients", "1", "--rate", "1", "--seconds", "1", "--strategy", strategy,
                    "--retries", "3", "--drain", drain, "--warm-up", "/warm-up", "--json", json.toString());
            assertThat(code).as(err.toString()).isZero();
            return new ObjectMapper().readTree(json.toFile());
        } finally {
            Files.deleteIfExists(json);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"retry-after", "pace"})
    void aRequestStartedInTheWindowAndAnsweredAfterItCountsInTheGoodput(String strategy) throws Exception {
        JsonNode r = run("/every-other", strategy, "5s");

        assertThat(r.get("requests").asLong()).isEqualTo(1);
        assertThat(r.get("goodputPerSec").asDouble()).isEqualTo(1.0);
        assertThat(r.get("perClient").get(0).get("goodputPerSec").asDouble()).isEqualTo(1.0);
        assertThat(r.get("successes").asLong()).isEqualTo(1).isEqualTo(served.get());
        assertThat(r.get("attempts").asLong()).isEqualTo(2);
        assertThat(r.get("rejected").asLong()).isEqualTo(1);
        // Retried a second after the window's start, so answered after the window's end.
        assertThat(r.get("successesInDrain").asLong()).isEqualTo(1);
        assertThat(r.get("gaveUp").asLong()).isZero();
        assertThat(r.get("cut").asLong()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"retry-after", "pace"})
    void aRequestStillWaitingWhenTheDrainEndsIsGivenUp(String strategy) throws Exception {
        JsonNode r = run("/never", strategy, "500ms");

        assertThat(r.get("requests").asLong()).isEqualTo(1);
        assertThat(r.get("successes").asLong()).isZero();
        assertThat(r.get("gaveUp").asLong()).isEqualTo(1);
        assertThat(r.get("cut").asLong()).isEqualTo(1);
        assertThat(r.get("otherErrors").asLong()).isZero();
        // Three retries a second apart would take over 3 s; the drain ends 1.5 s after the start.
        assertThat(r.get("elapsedMs").asLong()).isLessThan(2500);
        assertThat(served.get()).isZero();
    }
}
