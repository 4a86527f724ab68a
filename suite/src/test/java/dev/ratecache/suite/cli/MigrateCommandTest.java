package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ./run-tests.sh migrate without --verify: the nearest config, what differs, and both models request
 * by request, written and printed; bad input in one line each. A unit test: it starts nothing.
 */
class MigrateCommandTest {
    private final CommandRun cli = new CommandRun();

    static Stream<Arguments> refusedInput() {
        return Stream.concat(Stream.of(
                refused("the product moved from", List.of("--to", "nginx"),
                        "--to takes the product you move to from nginx: haproxy, varnish", "(got 'nginx')"),
                refused("a product the suite does not know", List.of("--to", "squid"),
                        "--to takes the product you move to from nginx: haproxy, varnish", "(got 'squid')"),
                refused("no limit to move", List.of("--to", "haproxy", "--no-front-limit"),
                        "migrate compares the per-client limit, which --no-front-limit turns off"),
                refused("a log that is not there", List.of("--to", "haproxy", "--log", "no-such.log"),
                        "--log no-such.log is not a readable file: give your access log"),
                refused("a bad limit mode", List.of("--to", "haproxy", "--front-mode", "fast"),
                        "'fast' is not a limit mode: use queue, nodelay or delay=N"),
                refused("a rate past the most", List.of("--to", "varnish", "--front-rate", "0"),
                        "--front-rate must be a whole number from 1 to"),
                refused("--verify of a keyed limit", List.of("--to", "haproxy", "--verify", "--limit-key", "header:X-Api-Key"),
                        "--verify floods from one address without a key: give --limit-key addr, or drop --verify"),
                refused("--verify over TLS", List.of("--to", "haproxy", "--verify", "--tls"),
                        "--verify floods over plain HTTP: drop --tls, or drop --verify"),
                refused("a key field without a log", List.of("--to", "haproxy", "--key-field", "api_key"),
                        "--key-field names the field of --log that holds each request's key: give --log FILE too"),
                refused("a log format that names none", List.of("--to", "haproxy", "--log-format", "xml"),
                        "xml"),
                refused("--out a file", List.of("--to", "haproxy", "--out", "pom.xml"),
                        "--out pom.xml is a file, not a folder")), RefusedRows.origins().map(a -> {
                    Object[] o = a.get();
                    List<String> args = new ArrayList<>(List.of("--to", "haproxy"));
                    @SuppressWarnings("unchecked")
                    List<String> given = (List<String>) o[1];
                    args.addAll(given);
                    return Arguments.of(o[0], args, o[2]);
                }));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badInputIsRefusedInOneLineBeforeAnythingIsWritten(String what, List<String> args, List<String> said, TestInfo test) {
        Path out = TestDirs.fresh(test).resolve("out");
        List<String> all = new ArrayList<>(List.of("migrate"));
        all.addAll(args);
        if (!args.contains("--out")) {
            all.addAll(List.of("--out", out.toString()));
        }
        assertThat(cli.run(all.toArray(String[]::new))).as(cli.err()).isEqualTo(2);
        String firstLine = cli.err().lines().findFirst().orElse("");
        assertThat(firstLine).startsWith("run-tests.sh: ");
        for (String s : said) {
            assertThat(firstLine).contains(s);
        }
        assertThat(out).doesNotExist();
    }

    @Test
    void aNonEmptyOutIsRefused(TestInfo test) throws IOException {
        Path out = TestDirs.fresh(test).resolve("out");
        Files.createDirectories(out);
        Files.writeString(out.resolve("mine.txt"), "the user's");
        assertThat(cli.run("migrate", "--to", "haproxy", "--out", out.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("is not a new or empty folder");
        assertThat(out.resolve("mine.txt")).hasContent("the user's");
    }

    /**
     * The default limit (100 r/s burst 200, queueing) moved to HAProxy: its config rendered with both
     * tiers nodelay, each for HAProxy's own refusal; four traffics, each a sentence; the floods refused
     * far more by a window that counts the requests it denies.
     */
    @Test
    void theDefaultLimitMovedToHaproxy(TestInfo test) throws IOException {
        Path out = TestDirs.fresh(test).resolve("out");
        assertThat(cli.run("migrate", "--to", "haproxy", "--out", out.toString())).as(cli.err()).isZero();

        assertThat(out.resolve("config/front.cfg")).exists();
        assertThat(Files.readString(out.resolve("config/front.cfg"))).contains("http_req_rate(");
        String report = Files.readString(out.resolve("report.md"));
        assertThat(report).startsWith("# Moving from nginx to HAProxy\n");
        // What differs comes first, in the adapter's own words.
        assertThat(report.indexOf("## What differs and why")).isLessThan(report.indexOf("## Request by request"));
        assertThat(report).contains("The nearest config takes --front-mode nodelay: HAProxy's rate limit rejects and never queues");

        JsonNode json = new ObjectMapper().readTree(out.resolve("migrate.json").toFile());
        assertThat(json.get("to").asText()).isEqualTo("haproxy");
        assertThat(json.get("traffics")).hasSize(4);
        JsonNode flood = json.get("traffics").get(2);
        assertThat(flood.get("traffic").asText()).isEqualTo("flood-2x");
        assertThat(flood.get("requests").asLong()).isEqualTo(12_000);
        // nginx passes burst + 1 and then the rate: 201 + 100 a second for the rest of the minute.
        assertThat(flood.get("fromAllowed").asLong()).isBetween(6_100L, 6_201L);
        // HAProxy's window counts the requests it denies: past the burst, a flood at 2x is refused to its end.
        assertThat(flood.get("toAllowed").asLong()).isLessThan(300);
        assertThat(flood.get("refusedNotBefore").asLong())
                .isEqualTo(flood.get("fromAllowed").asLong() - flood.get("toAllowed").asLong() + flood.get("allowedNotBefore").asLong());
        assertThat(cli.out()).contains("Moving from nginx's 100 r/s burst 200 (queue) to HAProxy's nearest, on a flood at 2x the rate: ")
                .contains("migrate: " + out);
        assertThat(cli.out().lines().filter(l -> l.startsWith("  - Moving from"))).hasSize(4);
    }

    /** A JSON log with a key field: both limits count by the key, so one address with two keys is two clients. */
    @Test
    void aLogsKeysAreTheClients(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            log.append(String.format("{\"ts\":\"2026-11-20T10:00:00.%03dZ\",\"ip\":\"198.51.100.7\",\"verb\":\"GET\","
                    + "\"path\":\"/a\",\"key\":\"%s\"}%n", i * 10, i % 2 == 0 ? "k-even" : "k-odd"));
        }
        Path file = Files.writeString(dir.resolve("api.jsonl"), log);
        Path out = dir.resolve("out");
        assertThat(cli.run("migrate", "--to", "haproxy", "--log", file.toString(), "--log-format",
                "json:time=ts,client=ip,method=verb,uri=path", "--key-field", "key", "--front-rate", "1", "--front-burst",
                "4", "--front-mode", "nodelay", "--limit-key", "header:X-Api-Key", "--out", out.toString()))
                .as(cli.err()).isZero();
        JsonNode t = new ObjectMapper().readTree(out.resolve("migrate.json").toFile()).get("traffics").get(0);
        // Ten a key in 0.2 s: each key's burst of 4 passes 5 at both, so 10 in all, not the 5 of one address.
        assertThat(t.get("requests").asLong()).isEqualTo(20);
        assertThat(t.get("fromAllowed").asLong()).isEqualTo(10);
        assertThat(t.get("toAllowed").asLong()).isEqualTo(10);
    }

    /** An access log in place of the generated traffic: each request at its logged time, by its client. */
    @Test
    void anAccessLogIsDecidedRequestByRequest(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        StringBuilder log = new StringBuilder();
        // One client sends 30 in one second, another 3: at 10 r/s burst 5, only the first is refused anything.
        for (int i = 0; i < 30; i++) {
            log.append("198.51.100.7 - - [20/Nov/2026:10:00:00 +0000] \"GET /a HTTP/1.1\" 200 5 \"-\" \"-\"\n");
        }
        for (int i = 0; i < 3; i++) {
            log.append("198.51.100.8 - - [20/Nov/2026:10:00:01 +0000] \"GET /a HTTP/1.1\" 200 5 \"-\" \"-\"\n");
        }
        Path file = Files.writeString(dir.resolve("access.log"), log);
        Path out = dir.resolve("out");
        assertThat(cli.run("migrate", "--to", "varnish", "--log", file.toString(), "--front-rate", "10", "--front-burst",
                "5", "--front-mode", "nodelay", "--out", out.toString())).as(cli.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(out.resolve("migrate.json").toFile());
        assertThat(json.get("traffics")).hasSize(1);
        JsonNode t = json.get("traffics").get(0);
        assertThat(t.get("traffic").asText()).isEqualTo("log");
        assertThat(t.get("requests").asLong()).isEqualTo(33);
        // Both pass the second client's three whatever their limiter.
        assertThat(t.get("fromAllowed").asLong()).isLessThan(33);
        assertThat(t.get("clients").findValuesAsText("client")).doesNotContain("198.51.100.8");
        assertThat(cli.out()).contains("on your log access.log: ");
    }
}
