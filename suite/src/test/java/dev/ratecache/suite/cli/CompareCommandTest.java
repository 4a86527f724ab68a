package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.compare.RunFixture;
import dev.ratecache.suite.report.Check;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * ./run-tests.sh compare A B, run in-process on fixture run folders, and the run command's
 * --baseline and --fail-on-regression, from their checks before a run to the gate after it. A unit
 * test: compare reads files only.
 */
class CompareCommandTest {
    private final CommandRun cli = new CommandRun();

    /** A baseline, a second draw of the same config, and a run whose responses take 40 % longer. */
    private static Path[] runs(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        Path baseline = RunFixture.write(dir.resolve("baseline"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1);
        Path again = RunFixture.write(dir.resolve("again"), RunFixture.SWITCHES, RunFixture.cells(), 1, 2);
        Path slower = RunFixture.write(dir.resolve("slower"), RunFixture.SWITCHES, RunFixture.cells().stream()
                .map(c -> c.withLatency(c.latencyMs() * 1.4)).toList(), 1, 3);
        return new Path[] {baseline, again, slower};
    }

    @Test
    void comparingTwoRunsPrintsTheTableAndWritesItsThreeFilesIntoTheSecondRun(TestInfo test) throws IOException {
        Path[] runs = runs(test);

        assertThat(cli.run("compare", runs[0].toString(), runs[1].toString())).as(cli.err()).isZero();

        assertThat(cli.out()).contains("cell", "metric", "95 % interval", "verdict", "stress/no-caching", "p95_ms",
                "same within noise", "compare: " + runs[1].resolve("compare"));
        Path out = runs[1].resolve("compare");
        assertThat(out.resolve("compare.md")).content().contains("| stress/server-cache | throughput |");
        JsonNode json = new ObjectMapper().readTree(out.resolve("compare.json").toFile());
        assertThat(json.path("cells")).hasSize(2);
        JsonNode p95 = json.path("cells").get(0).path("metrics").findParents("id").stream()
                .filter(m -> m.path("id").asText().equals("p95_ms")).findFirst().orElseThrow();
        assertThat(p95.path("verdict").asText()).isEqualTo("same");
        assertThat(p95.path("low").asDouble()).isNegative();
        assertThat(p95.path("high").asDouble()).isPositive();
        assertThat(p95.path("better").asText()).isEqualTo("lower");
        assertThat(out.resolve("index.html")).content().contains("<canvas data-kind=\"bar\" data-metric=\"p95_ms\"",
                "<canvas data-kind=\"seconds\" data-cell=\"stress/no-caching\"", "assets/compare.js");
        assertThat(out.resolve("assets/chart.umd.js")).isNotEmptyFile();
        assertThat(out.resolve("assets/compare.js")).isNotEmptyFile();
    }

    @Test
    void aSlowerRunFailsTheGateWithExitCode1NamingTheMetrics(TestInfo test) throws IOException {
        Path[] runs = runs(test);
        Path out = runs[0].resolveSibling("out");

        assertThat(cli.run("compare", runs[0].toString(), runs[2].toString(), "--fail-on-regression", "10", "--out",
                out.toString())).isEqualTo(1);

        assertThat(cli.err()).contains("metric(s) worse than the baseline by more than 10", "stress/no-caching.p95_ms");
        assertThat(cli.out()).contains("worse (REGRESSION)");
        assertThat(new ObjectMapper().readTree(out.resolve("compare.json").toFile()).path("regressions")).isNotEmpty();
    }

    @Test
    void aSecondDrawOfTheSameConfigPassesTheGate(TestInfo test) throws IOException {
        Path[] runs = runs(test);

        assertThat(cli.run("compare", runs[0].toString(), runs[1].toString(), "--fail-on-regression", "10"))
                .as(cli.out() + cli.err()).isZero();
    }

    @Test
    void theCommittedExampleServesAsABaselineJudgingWhatItsTimelinesMeasure(TestInfo test) throws IOException {
        Path example = Repo.root().resolve("results/example");
        Path copy = TestDirs.fresh(test).resolve("example-again");
        try (Stream<Path> files = Files.walk(example)) {
            for (Path f : files.filter(f -> f.getFileName().toString().equals("summary.json")
                    || f.getFileName().toString().equals("timeline.json")).toList()) {
                Path to = copy.resolve(example.relativize(f).toString());
                Files.createDirectories(to.getParent());
                Files.copy(f, to);
            }
        }

        assertThat(cli.run("compare", example.toString(), copy.toString())).as(cli.err()).isZero();

        JsonNode json = new ObjectMapper().readTree(copy.resolve("compare/compare.json").toFile());
        assertThat(json.path("tally").path("better").asInt() + json.path("tally").path("worse").asInt())
                .as("a run against its own copy").isZero();
        assertThat(json.path("tally").path("same").asInt()).as("throughput and origin requests, from the timelines")
                .isPositive();
        assertThat(json.path("tally").path("unjudged").asInt()).as("the latencies: the example keeps no JTL")
                .isPositive();
    }

    @Test
    void badInputIsRefusedInOneLineWithExitCode2AndNothingWritten(TestInfo test) throws IOException {
        Path[] runs = runs(test);
        Path notARun = Files.createDirectories(runs[0].resolveSibling("not-a-run"));

        assertThat(cli.run("compare", notARun.toString(), runs[1].toString())).isEqualTo(2);
        assertThat(cli.err()).contains("A " + notARun + " is not a run folder: it has no summary.json");

        assertThat(cli.run("compare", runs[0].toString(), runs[0].toString())).isEqualTo(2);
        assertThat(cli.err()).contains("A and B are the same folder (" + runs[0] + "): give two runs");

        assertThat(cli.run("compare", runs[0].toString(), runs[1].resolve("missing").toString())).isEqualTo(2);
        assertThat(cli.err()).contains("B " + runs[1].resolve("missing") + " does not exist");

        assertThat(cli.run("compare", runs[0].toString(), runs[1].toString(), "--fail-on-regression", "-3")).isEqualTo(2);
        assertThat(cli.err()).contains("--fail-on-regression is a per cent, 0 or more (got -3)").doesNotContain("Exception");
        for (Path run : runs) {
            assertThat(run.resolve("compare")).doesNotExist();
        }
        assertThat(notARun.resolve("compare")).doesNotExist();
    }

    @Test
    void aTornJtlIsRefusedInOneLineNamingTheFileAndAGateAfterARunFailsOnIt(TestInfo test) throws IOException {
        Path[] runs = runs(test);
        Path jtl = runs[1].resolve("cells/stress-no-caching/jmeter/results.jtl");
        Files.writeString(jtl, "timeStamp,elapsed\n1,2,3,oops\n");

        assertThat(cli.run("compare", runs[0].toString(), runs[1].toString())).isEqualTo(2);

        assertThat(cli.err()).contains("cannot compare: ", jtl.toString()).doesNotContain("Exception");
        assertThat(runs[1].resolve("compare")).doesNotExist();
        BaselineOptions options = new BaselineOptions();
        options.baseline = runs[0];
        options.failOnRegression = 10.0;
        StringWriter err = new StringWriter();
        List<Check.Outcome> gate = options.compare(runs[1], List.of(), new PrintWriter(new StringWriter()),
                new PrintWriter(err, true));
        assertThat(gate).singleElement().satisfies(o -> assertThat(o.passed()).isFalse());
        assertThat(err.toString()).contains("the comparison with the baseline failed: ");
        assertThat(runs[1].resolve("checks.xml")).content().contains("<failure");
    }

    @Test
    void theRunCommandRefusesABaselineThatIsNotARunAndAGateWithoutABaselineBeforeItStarts(TestInfo test) {
        Path missing = TestDirs.fresh(test).resolve("missing");

        assertThat(cli.run("--baseline", missing.toString(), "--profile", "quick")).isEqualTo(2);
        assertThat(cli.err()).contains("--baseline " + missing + " does not exist").doesNotContain("run folder:");

        assertThat(cli.run("--fail-on-regression", "5", "--profile", "quick")).isEqualTo(2);
        assertThat(cli.err()).contains("--fail-on-regression compares with a baseline: give --baseline DIR too");
    }

    @Test
    void afterARunTheGateAddsAFailedCheckToChecksXmlAndSummaryJson(TestInfo test) throws IOException {
        Path[] runs = runs(test);
        BaselineOptions options = new BaselineOptions();
        options.baseline = runs[0];
        options.failOnRegression = 10.0;
        Check.Outcome earlier = new Check.Outcome(new Check("stress/no-caching.rejected_pct < 50", "stress/no-caching",
                null, "<", 50), true, "measured rejected_pct = 31 %");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        List<Check.Outcome> gate = options.compare(runs[2], List.of(earlier), new PrintWriter(out, true),
                new PrintWriter(err, true));

        assertThat(gate).isNotEmpty().allMatch(o -> !o.passed());
        assertThat(runs[2].resolve("checks.xml")).content().contains("stress/no-caching.rejected_pct &lt; 50",
                "stress/no-caching.p95_ms no worse than 10 % of the baseline", "<failure message=\"worse than");
        JsonNode checks = new ObjectMapper().readTree(runs[2].resolve("summary.json").toFile()).path("checks");
        assertThat(checks.findValuesAsText("check")).contains("stress/no-caching.p95_ms no worse than 10 % of the baseline");
        assertThat(out.toString()).contains("worse (REGRESSION)");
        assertThat(runs[2].resolve("compare/index.html")).exists();
    }

    @Test
    void afterARunOfTheSameConfigTheGateIsOnePassedCheck(TestInfo test) throws IOException {
        Path[] runs = runs(test);
        BaselineOptions options = new BaselineOptions();
        options.baseline = runs[0];
        options.failOnRegression = 10.0;

        List<Check.Outcome> gate = options.compare(runs[1], List.of(), new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));

        assertThat(gate).singleElement().satisfies(o -> {
            assertThat(o.passed()).isTrue();
            assertThat(o.check().text()).isEqualTo("no metric worse than 10 % of the baseline outside the noise");
        });
        assertThat(runs[1].resolve("checks.xml")).content().doesNotContain("<failure");
    }
}
