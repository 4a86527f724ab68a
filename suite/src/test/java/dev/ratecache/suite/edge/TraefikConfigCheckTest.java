package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every combination the adapter renders, loaded by Traefik 3.7.15 itself: Traefik has no offline
 * check of a config (no -t or -c), so each pair of tiers is started and its API asked whether every
 * router, middleware and service it holds is enabled, with no error, and Traefik's own log says no
 * error either. A router whose middleware does not load is left out of service silently, so a
 * typo would otherwise show only as 404s.
 */
@StackTest
@LongTest
class TraefikConfigCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> combinations() {
        StackSwitches base = TraefikRenderTest.runnable();
        return Stream.of(
                Arguments.of("both limits", base.copy()),
                Arguments.of("no limits", base.copy().frontLimit(false).backLimit(false)),
                Arguments.of("a key in a header, the ceiling, --allow, --limit-conn", base.copy()
                        .limitKey(LimitKey.parse("header:X-Api-Key")).addressCeiling(AddressCeiling.parse("20,40"))
                        .allow(List.of("127.0.9.0/24", "10.0.0.0/8")).limitConn(3)),
                Arguments.of("a key without its ceiling", base.copy().limitKey(LimitKey.parse("header:X-Api-Key"))
                        .addressCeiling(AddressCeiling.OFF)),
                Arguments.of("two origins, least-conn, timeouts", base.copy().balance(Balance.LEAST_CONN)
                        .readTimeout(5).clientTimeout(3).keepalive(0)),
                Arguments.of("tiers of keys, one with a key Go's regexp must escape", base.copy()
                        .limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiersFile())));
    }

    private static Path tiersFile() {
        try {
            return java.nio.file.Files.write(TestDirs.fresh(TraefikConfigCheckTest.class, "tiers-file").resolve("tiers.txt"),
                    List.of("pro 10 20 nodelay pro.1,pro+2", "anonymous 2 3 nodelay"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("combinations")
    void traefikLoadsEveryRouterMiddlewareAndServiceOfBothTiers(String name, StackSwitches switches) throws Exception {
        // No origin answers: a service is loaded whether its servers answer or not.
        StackPorts ports = StackPorts.free().origin(Ports.free(), Ports.free());
        if (name.startsWith("two origins")) {
            switches.origins(List.of(URI.create("http://127.0.0.1:" + Ports.free()),
                    URI.create("http://127.0.0.1:" + Ports.free())));
        }
        Path dir = TestDirs.fresh(getClass(), name.replaceAll("[^a-z]+", "-"));
        try (Edge.Running tiers = TraefikRenderTest.edge().start(switches.spec(ports), dir)) {
            for (int status : List.of(ports.frontStatus(), ports.backStatus())) {
                List<String> problems = new ArrayList<>();
                for (String kind : List.of("routers", "middlewares", "services")) {
                    for (JsonNode item : api(status, "/api/http/" + kind)) {
                        if (!item.path("status").asText().equals("enabled") || item.has("error")) {
                            problems.add(kind + " " + item.path("name").asText() + ": " + item);
                        }
                    }
                }
                assertThat(problems).as("tier with status port " + status).isEmpty();
            }
            assertThat(api(ports.frontStatus(), "/api/http/routers")).extracting(r -> r.path("name").asText())
                    .anyMatch(n -> n.startsWith("limited-") || n.startsWith("unlimited"));
        }
        for (String tier : List.of("front", "back")) {
            assertThat(Files.readString(dir.resolve(tier + ".log"))).as(tier + ".log").doesNotContain("ERR");
        }
    }

    static JsonNode api(int port, String path) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://" + Ports.LOOPBACK + ":" + port + path).toURL()
                .openConnection();
        try (InputStream in = c.getInputStream()) {
            return JSON.readTree(in);
        } finally {
            c.disconnect();
        }
    }
}
