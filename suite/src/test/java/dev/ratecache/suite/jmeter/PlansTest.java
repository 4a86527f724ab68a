package dev.ratecache.suite.jmeter;

import dev.ratecache.suite.edge.NginxEdge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The three plans, run headless with small -J values through a real stack. The stack has no
 * rate limit and no edge cache, so every request JMeter itself sends reaches the origin and the
 * origin's counters can be compared with the JTL. /snail and /tortoise answer in 20 ms here
 * instead of 5 s and 2 s: these tests count samples, they don't measure delays.
 */
@StackTest
class PlansTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Stack stack;
    private Path dir;

    @BeforeAll
    static void startStack() throws IOException {
        stack = Stacks.withOwnOrigin(PlansTest.class, new StackSwitches().frontLimit(false).backLimit(false).cache(false),
                "--origin.endpoints.snail.delay=20ms", "--origin.endpoints.tortoise.delay=20ms");
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    @BeforeEach
    void freshCounters(TestInfo test) throws IOException {
        stack.origin().reset();
        dir = TestDirs.fresh(test);
    }

    private static JMeter.Run run(String plan, int port, Path outDir, String... properties) throws Exception {
        Map<String, String> props = new LinkedHashMap<>(Map.of("host", "127.0.0.1", "port", String.valueOf(port)));
        for (int i = 0; i + 1 < properties.length; i += 2) {
            props.put(properties[i], properties[i + 1]);
        }
        return JMeter.assembled().run(Repo.plans().resolve(plan + ".jmx"), props, outDir);
    }

    private JMeter.Run run(String plan, String... properties) throws Exception {
        return run(plan, stack.ports().front(), dir.resolve("jmeter"), properties);
    }

    /** A plan's run that several tests read, and what the origin counted for it. */
    private record SharedRun(JMeter.Run run, long originRequests) {}

    private static SharedRun stress;
    private static SharedRun flood;

    /**
     * The stress plan, 3 users x 10 loops, run once for every test that reads a plain stress run: its
     * samples, its columns, its dashboard and graphs, and the run without a client cache that the
     * client cache's run is compared with. One JMeter start instead of four.
     */
    private static synchronized SharedRun stress() throws Exception {
        if (stress == null) {
            stack.origin().reset();
            JMeter.Run run = run("stress", stack.ports().front(), TestDirs.fresh(PlansTest.class, "stress"),
                    "users", "3", "loops", "10", "rampup", "1", "client_cache", "false");
            stress = new SharedRun(run, stack.origin().counters().requests("hare"));
        }
        return stress;
    }

    /**
     * The flood plan from 5 addresses: 5/s for 1 s, 10/s for 1 s (the ramp, in one-second steps),
     * then 10/s for 1 s, on a URL of its own so that the front end's log shows only its requests.
     * The drain is 8 s: with 2, beside two busy loops, JMeter once closed the socket of a late
     * arrival's request still in flight when the schedule ended; with 4, beside two busy loops and
     * another developer's stack tests, it closed eleven.
     * One run for both flood tests.
     */
    private static synchronized SharedRun flood() throws Exception {
        if (flood == null) {
            stack.origin().reset();
            JMeter.Run run = run("flood", stack.ports().front(), TestDirs.fresh(PlansTest.class, "flood"),
                    "rate", "10", "ramp", "2", "hold", "1", "drain", "8", "sources", "5", "path", FLOOD_PATH);
            flood = new SharedRun(run, stack.origin().counters().requests("hare"));
        }
        return flood;
    }

    private static final String FLOOD_PATH = "/hare?flood";

    private static List<CSVRecord> rows(Path jtl) throws IOException {
        try (Reader in = Files.newBufferedReader(jtl, StandardCharsets.UTF_8)) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in).getRecords();
        }
    }

    private static String why(JMeter.Run run) throws IOException {
        Path out = run.log().resolveSibling("jmeter.out");
        return "JMeter exit " + run.exitCode() + "; " + out + ":\n" + (Files.exists(out) ? Files.readString(out) : "");
    }

    @Test
    void stressSendsUsersTimesLoopsRequestsOfOnePath() throws Exception {
        JMeter.Run run = stress().run();

        assertThat(run.exitCode()).as(why(run)).isZero();
        JtlSummary summary = JtlSummary.read(run.jtl());
        assertThat(summary.samples()).isEqualTo(3 * 10);
        assertThat(summary.rejected() + summary.otherErrors()).isZero();
        assertThat(rows(run.jtl())).extracting(r -> r.get("label")).containsOnly("/hare");
        assertThat(stress().originRequests()).isEqualTo(3 * 10);
    }

    @Test
    void jmeterWritesTheColumnsTheClientDriverWritesToo() throws Exception {
        JMeter.Run run = stress().run();

        assertThat(run.exitCode()).as(why(run)).isZero();
        assertThat(Files.readAllLines(run.jtl()).get(0)).isEqualTo(Jtl.HEADER);
        // The hot-set plan's column: empty here (an empty User Defined Variable), not "null".
        assertThat(rows(run.jtl())).isNotEmpty().allSatisfy(r -> assertThat(r.get("staleMs")).isEmpty());
    }

    @Test
    @LongTest
    void loadSendsThreePathsPerIterationLabelledByPath() throws Exception {
        JMeter.Run run = run("load", "users", "2", "loops", "3", "rampup", "1");

        assertThat(run.exitCode()).as(why(run)).isZero();
        JtlSummary summary = JtlSummary.read(run.jtl());
        assertThat(summary.samples()).isEqualTo(2 * 3 * 3);
        assertThat(summary.rejected() + summary.otherErrors()).isZero();
        Map<String, Long> perLabel = rows(run.jtl()).stream()
                .collect(Collectors.groupingBy(r -> r.get("label"), Collectors.counting()));
        assertThat(perLabel).containsOnly(Map.entry("/snail", 6L), Map.entry("/hare", 6L), Map.entry("/tortoise", 6L));
    }

    @Test
    void floodSendsTheScheduledArrivals() throws Exception {
        // 5 + 10 + 10.
        JMeter.Run run = flood().run();

        assertThat(run.exitCode()).as(why(run)).isZero();
        JtlSummary summary = JtlSummary.read(run.jtl());
        assertThat(summary.samples()).isCloseTo(25L, within(2L));
        // On a saturated machine JMeter's open model once started so late that its whole schedule was
        // overdue: it sent all 25 at once and stopped the three still in flight itself. Those are the
        // generator's; every other request was answered, and each reached the origin.
        List<Sample> samples = Jtl.read(run.jtl());
        long aborted = samples.stream().filter(Sample::abortedByJMeter).count();
        assertThat(samples).as(failures(run.jtl())).allMatch(s -> s.success() || s.abortedByJMeter());
        assertThat(flood().originRequests()).isBetween(summary.samples() - aborted, summary.samples());
    }

    @Test
    void floodFromManySourcesReachesTheFrontFromThatManyAddresses() throws Exception {
        JMeter.Run run = flood().run();

        assertThat(run.exitCode()).as(why(run)).isZero();
        int samples = (int) JtlSummary.read(run.jtl()).samples();
        List<JsonNode> lines = dev.ratecache.suite.AccessLog.linesFor(stack.tiers(NginxEdge.Tiers.class).front().accessLog(), FLOOD_PATH, samples);
        java.util.Set<String> addresses = lines.stream().map(l -> l.path("client").asText()).collect(Collectors.toSet());
        assertThat(addresses).containsExactlyInAnyOrder("127.16.0.1", "127.16.0.2", "127.16.0.3", "127.16.0.4",
                "127.16.0.5");
    }

    /** The failed samples' codes and messages, to say why a count is off. */
    private static String failures(Path jtl) throws IOException {
        return Jtl.read(jtl).stream().filter(s -> !s.success())
                .map(s -> s.responseCode() + " " + s.responseMessage()).toList().toString();
    }

    @Test
    void rejectionsAreCounted429sWithRetryAfterApartFromOtherErrors() throws Exception {
        StackSwitches tiny = new StackSwitches().frontRate(2).frontBurst(2).frontMode(LimitMode.NODELAY).cache(false)
                .origins(List.of(stack.origin().uri()));
        try (Stack limited = Stack.around(stack.origin(), tiny, StackPorts.free(), dir.resolve("limited"))) {
            JMeter.Run run = run("stress", limited.ports().front(), dir.resolve("jmeter"),
                    "users", "5", "loops", "4", "rampup", "1");

            assertThat(run.exitCode()).as(why(run)).isZero();
            List<CSVRecord> rows = rows(run.jtl());
            List<CSVRecord> rejected = rows.stream().filter(r -> r.get("responseCode").equals("429")).toList();
            assertThat(rows).hasSize(20);
            assertThat(rejected).isNotEmpty();
            assertThat(rejected).allSatisfy(r -> {
                assertThat(r.get("retryAfter")).isEqualTo("1");
                assertThat(r.get("success")).isEqualTo("false");
            });
            JtlSummary summary = JtlSummary.read(run.jtl());
            assertThat(summary.rejected()).isEqualTo(rejected.size());
            assertThat(summary.otherErrors()).isZero();
            assertThat(stack.origin().counters().requests("hare")).isEqualTo(rows.size() - rejected.size());
        }
    }

    @Test
    @LongTest
    void clientCacheAnswersRepeatsSoFewerRequestsReachTheOrigin() throws Exception {
        // /hare is fresh for 3 s: each of the 3 users asks it 10 times in about 1 s.
        JMeter.Run without = stress().run();
        long originWithout = stress().originRequests();
        stack.origin().reset();
        JMeter.Run with = run("stress", stack.ports().front(), dir.resolve("with"),
                "users", "3", "loops", "10", "rampup", "1", "client_cache", "true");
        long originWith = stack.origin().counters().requests("hare");

        JtlSummary w = JtlSummary.read(with.jtl());
        JtlSummary wo = JtlSummary.read(without.jtl());
        assertThat(with.exitCode()).as(why(with)).isZero();
        assertThat(wo.samples()).isEqualTo(30);
        assertThat(w.samples()).isEqualTo(30);
        assertThat(wo.clientCacheHits()).isZero();
        assertThat(originWithout).isEqualTo(30);
        assertThat(w.clientCacheHits()).isPositive();
        assertThat(originWith).isLessThan(originWithout).isEqualTo(w.samples() - w.clientCacheHits());
        assertThat(w.rejected() + w.otherErrors()).isZero();
    }

    @Test
    @LongTest
    void brokenPropertyEndsTheRunWithExitCode2BeforeAnyRequest() throws Exception {
        JMeter.Run run = run("stress", "users", "abc", "loops", "2");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(Files.readString(run.log().resolveSibling("jmeter.out")))
                .contains("Invalid JMeter properties: users=abc (expected count). No request was sent.");
        assertThat(JtlSummary.read(run.jtl()).samples()).isZero();
        assertThat(stack.origin().counters().total().requests()).isZero();
    }

    @Test
    void dashboardAndGraphsAreDrawnFromARunsJtl() throws Exception {
        JMeter.Run run = stress().run();
        assertThat(run.exitCode()).as(why(run)).isZero();

        Path dashboard = dir.resolve("dashboard");
        Path graphs = dir.resolve("graphs");
        // Both at once: separate processes with separate outputs.
        CompletableFuture<Void> drawing = CompletableFuture.runAsync(() -> {
            try {
                JMeter.assembled().graphs(run.jtl(), graphs);
            } catch (IOException | InterruptedException e) {
                throw new CompletionException(e);
            }
        });
        JMeter.assembled().dashboard(run.jtl(), dashboard);
        drawing.get(3, TimeUnit.MINUTES);

        assertThat(dashboard.resolve("index.html")).isNotEmptyFile();
        JsonNode statistics = JSON.readTree(dashboard.resolve("statistics.json").toFile());
        assertThat(statistics.at("/Total/sampleCount").asLong()).isEqualTo(30);
        for (String graph : JMeter.GRAPHS) {
            Path png = graphs.resolve(graph + ".png");
            assertThat(png).isNotEmptyFile();
            byte[] head = new byte[8];
            try (var in = Files.newInputStream(png)) {
                assertThat(in.read(head)).isEqualTo(8);
            }
            assertThat(head).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
            assertThat(Files.size(png)).isGreaterThan(2_000);
        }
    }
}
