package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * compare --switches "..." --switches "...": both configs run on the real stack (nginx, the origin,
 * JMeter), their cells in turn, and the change they make judged and said in words.
 */
@StackTest
class CompareTwoConfigsStackTest {
    private static final String WIDE_BACK = "--back-rate 1000 --back-burst 1000";

    @Test
    @LongTest
    void aSmallerFrontBurstRunsInTurnWithTheOldAndIsJudgedToRejectMore(TestInfo test) throws Exception {
        Path results = TestDirs.fresh(test);
        // The back limit (10 r/s, burst 50) would refuse most of the stress plan's burst whatever the
        // front's burst, and the change would drown in it: on both sides it is opened wide.
        List<String> args = new ArrayList<>(List.of("compare", "--switches", "--front-burst 200 " + WIDE_BACK,
                "--switches", "--front-burst 5 " + WIDE_BACK, "--profile", "quick", "--only", "stress/no-caching",
                "--no-dashboards", "--results", results.toString()));
        args.addAll(StackPorts.free().flags());
        CommandRun cli = new CommandRun();

        int exit = cli.run(args.toArray(String[]::new));

        String output = cli.out() + "\n" + cli.err();
        assertThat(exit).as(output).isZero();
        // A's cell, then B's, and no report until both have run: the drift of the machine falls on both.
        int cellA = output.indexOf("A, cell 1 of 1 (--switches '--front-burst 200 " + WIDE_BACK + "')");
        int cellB = output.indexOf("B, cell 1 of 1 (--switches '--front-burst 5 " + WIDE_BACK + "')");
        assertThat(cellA).as(output).isNotNegative();
        assertThat(cellB).as(output).isGreaterThan(cellA);
        assertThat(output.indexOf("report: ")).as(output).isGreaterThan(cellB);
        List<Path> runs;
        try (Stream<Path> folders = Files.list(results)) {
            runs = folders.filter(p -> !p.getFileName().toString().equals("latest")).sorted().toList();
        }
        assertThat(runs).hasSize(2);
        Path b = results.resolve("latest").toRealPath();
        JsonNode json = new ObjectMapper().readTree(b.resolve("compare/compare.json").toFile());
        assertThat(json.path("a").asText()).isEqualTo(runs.get(0).toString());
        assertThat(json.path("differences").toString()).contains("front burst 200 -> 5");
        JsonNode cell = json.path("cells").get(0);
        JsonNode rejected = cell.path("metrics").findParents("id").stream()
                .filter(m -> m.path("id").asText().equals("rejected_pct")).findFirst().orElseThrow();
        assertThat(rejected.path("b").asDouble()).as(output).isGreaterThan(rejected.path("a").asDouble());
        assertThat(rejected.path("verdict").asText()).as(output).isEqualTo("worse");
        assertThat(cell.path("words").toString()).as(output).contains("front burst 200 -> 5: rejections rose from");
        assertThat(b.resolve("compare/compare.md")).content().contains("## What changed", "front burst 200 -> 5");
        assertThat(b.resolve("compare/index.html")).exists();
        assertThat(cli.out()).contains("compare: " + b.resolve("compare"));
    }

    @Test
    void aDryRunOfTwoConfigsChecksBothAndTheMachineAndStartsNothing(TestInfo test) throws Exception {
        Path results = TestDirs.fresh(test);
        List<String> args = new ArrayList<>(List.of("compare", "--results", results.toString(), "--profile", "quick",
                "--only", "stress/no-caching", "--switches", "--front-burst 200", "--switches", "--front-burst 5",
                "--dry-run"));
        args.addAll(StackPorts.free().flags());
        CommandRun cli = new CommandRun();
        long childrenBefore = ProcessHandle.current().descendants().count();

        assertThat(cli.run(args.toArray(String[]::new))).as(cli.err()).isZero();

        assertThat(cli.out()).contains("would run: A: ./run-tests.sh --only stress/no-caching --profile quick --results "
                + results, "--front-burst 200", "would run: B: ./run-tests.sh", "--front-burst 5",
                "dry run: every check passed; nothing was started");
        try (Stream<Path> written = Files.list(results)) {
            assertThat(written).isEmpty();
        }
        assertThat(ProcessHandle.current().descendants().count()).isLessThanOrEqualTo(childrenBefore);
    }

    @Test
    @LongTest
    void anOwnConfigWithAFasterRateIsRunBesideTheOldAndJudgedToRejectLess(TestInfo test) throws Exception {
        Path results = TestDirs.fresh(test);
        Path configs = Files.createDirectories(results.resolveSibling(results.getFileName() + "-configs"));
        String api;
        try (var in = CompareTwoConfigsStackTest.class.getResourceAsStream("/dev/ratecache/suite/ownconfig/api.conf")) {
            api = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Path old = Files.writeString(configs.resolve("old.conf"), api);
        Path faster = Files.writeString(configs.resolve("new.conf"), api.replace("rate=10r/s", "rate=1000r/s"));
        List<String> args = new ArrayList<>(List.of("compare", "--nginx-conf", old.toString(), "--nginx-conf",
                faster.toString(), "--profile", "quick", "--only", "stress/no-caching", "--no-dashboards",
                "--results", results.toString()));
        args.addAll(StackPorts.free().flags());
        CommandRun cli = new CommandRun();

        int exit = cli.run(args.toArray(String[]::new));

        String output = cli.out() + "\n" + cli.err();
        assertThat(exit).as(output).isZero();
        assertThat(output.indexOf("B, cell 1 of 1 (--nginx-conf " + faster + ")")).as(output)
                .isGreaterThan(output.indexOf("A, cell 1 of 1 (--nginx-conf " + old + ")"));
        Path b = results.resolve("latest").toRealPath();
        assertThat(Files.readString(b.resolve("cells/stress-no-caching/nginx/front/conf/nginx.conf")))
                .contains("rate=1000r/s");
        JsonNode cell = new ObjectMapper().readTree(b.resolve("compare/compare.json").toFile()).path("cells").get(0);
        JsonNode rejected = cell.path("metrics").findParents("id").stream()
                .filter(m -> m.path("id").asText().equals("rejected_pct")).findFirst().orElseThrow();
        assertThat(rejected.path("b").asDouble()).as(output).isLessThan(rejected.path("a").asDouble());
        assertThat(rejected.path("verdict").asText()).as(output).isEqualTo("better");
        assertThat(cell.path("words").toString()).as(output).contains("front config old.conf -> new.conf: rejections fell from");
    }
}
