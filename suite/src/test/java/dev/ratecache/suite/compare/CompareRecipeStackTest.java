package dev.ratecache.suite.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.HeadlessChromium;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * docs/compare-in-ci.sh, the CI recipe, run by bash as a user's CI runs it, on fixture run folders
 * (a baseline saved from one run, then the same config drawn again, then a deliberately slower
 * run), with the suite's command line from this JVM's class path; and compare's index.html as
 * headless Chromium draws it. A stack test: it starts bash, java and Chromium.
 */
@StackTest
class CompareRecipeStackTest {
    private static final Path RECIPE = Repo.root().resolve("docs/compare-in-ci.sh");

    record Result(int exit, String out, String err) {}

    /** The recipe with {@code args}, its suite command this JVM's classes; stdout and stderr kept. */
    private static Result recipe(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", RECIPE.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Absolute, as the recipe runs in its own folder.
        String classPath = String.join(File.pathSeparator, Arrays.stream(System.getProperty("java.class.path")
                .split(File.pathSeparator)).map(e -> Path.of(e).toAbsolutePath().toString()).toList());
        builder.environment().put("RATECACHE_CLI", javaBin + " -Dratecache.home=" + Repo.root() + " -cp " + classPath
                + " dev.ratecache.suite.cli.RunTestsCommand");
        builder.environment().put("REGRESSION_PCT", "10");
        Path out = dir.resolve("recipe.out");
        Path err = dir.resolve("recipe.err");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the recipe ran past 60 s: " + command);
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void aBaselineSavedThenTheSameConfigPassesAndADeliberatelySlowerRunFails(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        Path first = RunFixture.write(dir.resolve("results/first"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1);
        Files.writeString(first.resolve("report.md"), "# not part of a baseline\n");
        Path again = RunFixture.write(dir.resolve("results/again"), RunFixture.SWITCHES, RunFixture.cells(), 1, 2);
        Path slower = RunFixture.write(dir.resolve("results/slower"), RunFixture.SWITCHES, RunFixture.cells().stream()
                .map(c -> c.withLatency(c.latencyMs() * 1.5)).toList(), 1, 3);
        Path baseline = dir.resolve("ci/baseline");

        Result saved = recipe(dir, "--save", baseline.toString(), first.toString());
        assertThat(saved.exit()).as(saved.err()).isZero();
        assertThat(baseline.resolve("summary.json")).exists();
        assertThat(baseline.resolve("cells/stress-no-caching/jmeter/results.jtl")).exists();
        assertThat(baseline.resolve("cells/stress-no-caching/timeline.json")).exists();
        assertThat(baseline.resolve("report.md")).as("only what compare reads").doesNotExist();

        Result same = recipe(dir, "--check", baseline.toString(), again.toString());
        assertThat(same.exit()).as(same.out() + same.err()).isZero();
        assertThat(same.out()).contains("same within noise");

        Result worse = recipe(dir, "--check", baseline.toString(), slower.toString());
        assertThat(worse.exit()).as(worse.out() + worse.err()).isEqualTo(1);
        assertThat(worse.err()).contains("worse than the baseline by more than 10 % and outside the noise",
                "stress/no-caching.p95_ms");

        Result notARun = recipe(dir, "--check", baseline.toString(), dir.resolve("results/none").toString());
        assertThat(notARun.exit()).isEqualTo(2);
        assertThat(notARun.err()).contains("does not exist");
    }

    @Test
    @LongTest
    void theRunModeHandsTheBaselineAndTheGateToTheRunCommand(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        Path baseline = RunFixture.write(dir.resolve("baseline"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1);

        Result refused = recipe(dir, dir.resolve("no-baseline").toString(), "--profile", "quick");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("--baseline " + dir.resolve("no-baseline") + " does not exist");

        List<String> args = new ArrayList<>(List.of(baseline.toString(), "--profile", "quick", "--only",
                "stress/no-caching", "--results", dir.resolve("results").toString(), "--dry-run"));
        args.addAll(StackPorts.free().flags());
        Result dry = recipe(dir, args.toArray(String[]::new));
        assertThat(dry.exit()).as(dry.out() + dry.err()).isZero();
        assertThat(dry.out()).contains("dry run: every check passed");
    }

    @Test
    void chromiumDrawsEveryChartOfTheComparisonsPage(TestInfo test) throws Exception {
        Required.that(HeadlessChromium.binary().isPresent(), "no Chromium on the PATH (Debian's chromium)");
        Path dir = TestDirs.fresh(test);
        RunFolder a = RunFolder.open(RunFixture.write(dir.resolve("a"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1));
        RunFolder b = RunFolder.open(RunFixture.write(dir.resolve("b"), RunFixture.SWITCHES, RunFixture.cells().stream()
                .map(c -> c.withRate(c.rate() * 1.2)).toList(), 1, 2));
        new CompareWriter(Comparer.compare(a, b), 10).write(dir.resolve("compare"), a, b);

        String dom = HeadlessChromium.in(dir.resolve("chromium"), Duration.ofSeconds(90))
                .dumpDom(dir.resolve("compare/index.html"), Duration.ofSeconds(10));

        assertThat(dom).doesNotContain("data-error");
        Matcher canvas = Pattern.compile("<canvas[^>]*>").matcher(dom);
        int canvases = 0;
        while (canvas.find()) {
            canvases++;
            assertThat(canvas.group()).as("a drawn chart").containsPattern("data-painted=\"[1-9]\\d*\"")
                    .containsPattern("data-points=\"[1-9]\\d*\"");
        }
        assertThat(canvases).as("a bar chart per metric and a seconds chart per cell").isEqualTo(
                CompareMetric.values().length + 2);
    }
}
