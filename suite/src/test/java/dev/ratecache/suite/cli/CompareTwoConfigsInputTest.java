package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.compare.RunFixture;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * compare --switches "..." --switches "..." (and --nginx-conf twice): the input checked before
 * anything starts, each problem one line with exit code 2, and the words of what changed. A unit
 * test: nothing here gets past the checks of the input, so no port is bound and nothing runs.
 */
class CompareTwoConfigsInputTest {
    private final CommandRun cli = new CommandRun();

    private int compare(Path results, String... args) {
        String[] all = Stream.concat(Stream.of("compare", "--results", results.toString(), "--profile", "quick",
                "--only", "stress/no-caching"), Stream.of(args)).toArray(String[]::new);
        return cli.run(all);
    }

    private static void assertNothingWritten(Path results) throws IOException {
        if (Files.exists(results)) {
            try (Stream<Path> written = Files.list(results)) {
                assertThat(written).isEmpty();
            }
        }
    }

    @Test
    void oneSwitchesAloneIsRefusedInOneLine(TestInfo test) throws IOException {
        Path results = TestDirs.fresh(test);

        assertThat(compare(results, "--switches", "--front-burst 50")).isEqualTo(2);

        assertThat(cli.err()).startsWith("run-tests.sh: --switches takes two sets of switches, A's and B's: give it"
                + " twice, --switches \"...\" --switches \"...\" (got 1)\n");
        assertNothingWritten(results);
    }

    @Test
    void switchesThatDoNotParseAreRefusedNamingTheSide(TestInfo test) throws IOException {
        Path results = TestDirs.fresh(test);

        assertThat(compare(results, "--switches", "--front-burst '200", "--switches", "")).isEqualTo(2);
        assertThat(cli.err()).contains("--switches '--front-burst '200' does not parse: its ' is never closed");

        assertThat(compare(results, "--switches", "--front-bust 200", "--switches", "--front-burst 50")).isEqualTo(2);
        assertThat(cli.err()).contains("A (--switches '--front-bust 200'): Unknown option", "'--front-bust'")
                .doesNotContain("B (");

        assertThat(compare(results, "--switches", "--front-burst lots", "--switches", "--front-burst 50")).isEqualTo(2);
        assertThat(cli.err()).contains("A (--switches '--front-burst lots'): ", "--front-burst");

        assertThat(compare(results, "--switches", "render out", "--switches", "")).isEqualTo(2);
        assertThat(cli.err()).contains("'render' is a command, not a switch of a run");
        assertNothingWritten(results);
    }

    @Test
    void bothPairsTheSameSwitchesTwiceAndAFlagGivenOnceInsideASideAreRefused(TestInfo test) throws IOException {
        Path results = TestDirs.fresh(test);
        Path conf = Files.writeString(results.resolveSibling("a.conf"), "events {}\n");

        assertThat(compare(results, "--switches", "", "--switches", "--front-burst 50", "--nginx-conf", conf.toString(),
                "--nginx-conf", conf.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("give two --switches or two --nginx-conf, not both");

        assertThat(compare(results, "--switches", "--front-burst  50", "--switches", "--front-burst 50")).isEqualTo(2);
        assertThat(cli.err()).contains("--switches gives the same switches twice ('--front-burst  50')");

        assertThat(compare(results, "--switches", "--profile full", "--switches", "--front-burst 50")).isEqualTo(2);
        assertThat(cli.err()).contains("A (--switches '--profile full'): --profile is given once, to compare, for both"
                + " sides: take it out of the side's switches");

        assertThat(compare(results, "--nginx-conf", conf.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("--nginx-conf takes two configs, the old and the new: give it twice");

        Path copy = Files.writeString(results.resolveSibling("b.conf"), "events {}\n");
        assertThat(compare(results, "--nginx-conf", conf.toString(), "--nginx-conf", copy.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("--nginx-conf names the same config twice");
        assertNothingWritten(results);
    }

    @Test
    void runFoldersAndConfigsTogetherOrNeitherAreRefused(TestInfo test) throws IOException {
        Path results = TestDirs.fresh(test);

        assertThat(cli.run("compare", "x", "--switches", "", "--switches", "--front-burst 50")).isEqualTo(2);
        assertThat(cli.err()).contains("compare takes two run folders or two configs, not both: drop x");

        assertThat(cli.run("compare")).isEqualTo(2);
        assertThat(cli.err()).contains("compare takes two run folders, A B, or two configs");

        Path run = RunFixture.write(results.resolve("a"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1);
        Path other = RunFixture.write(results.resolve("b"), RunFixture.SWITCHES, RunFixture.cells(), 1, 2);
        assertThat(cli.run("compare", run.toString(), other.toString(), "--profile", "quick")).isEqualTo(2);
        assertThat(cli.err()).contains("--profile choose what two configs run");
    }

    @Test
    void aProblemOfTheSharedFlagsIsSaidOnceNotOncePerSide(TestInfo test) throws IOException {
        Path results = TestDirs.fresh(test);

        assertThat(cli.run("compare", "--results", results.toString(), "--only", "stress/nowhere", "--switches", "",
                "--switches", "--front-burst 50")).isEqualTo(2);

        assertThat(cli.err().lines().filter(l -> l.contains("stress/nowhere")).count()).isEqualTo(1);
        assertThat(cli.err()).doesNotContain("A (", "B (");
        assertNothingWritten(results);
    }

    @Test
    void aSideStringIsSplitAsAShellSplitsIt() {
        assertThat(TwoConfigs.words("  --front-burst 50 -J 'a b=c d' --x=\"y z\" e\\ f ")).containsExactly(
                "--front-burst", "50", "-J", "a b=c d", "--x=y z", "e f");
        assertThat(TwoConfigs.words("")).isEmpty();
        assertThatThrownBy(() -> TwoConfigs.words("--a \"b")).hasMessage("its \" is never closed");
    }

    @Test
    void comparingTwoRunsOfDifferentBurstsSaysWhatChangedInWords(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        Path a = RunFixture.write(dir.resolve("a"), RunFixture.SWITCHES, RunFixture.cells(), 1, 1);
        Path b = RunFixture.write(dir.resolve("b"), RunFixture.SWITCHES.replace("burst 200", "burst 5"),
                RunFixture.cells().stream().map(c -> c.withRejected(0.6)).toList(), 1, 2);

        assertThat(cli.run("compare", a.toString(), b.toString())).as(cli.err()).isZero();

        assertThat(cli.out()).contains("runs differ: front burst 200 -> 5",
                "stress/no-caching: front burst 200 -> 5: rejections rose from 31.2 % to 58.7 %");
        assertThat(b.resolve("compare/compare.md")).content().contains("## What changed",
                "- stress/server-cache: front burst 200 -> 5: rejections rose from 0.00 % to 58.8 %");
        assertThat(b.resolve("compare/compare.json")).content().contains("\"words\" : [ \"front burst 200 -> 5: rejections rose");
        assertThat(b.resolve("compare/index.html")).content().contains("<h2>What changed</h2>");
    }

    @Test
    void theSidesOfNginxConfsAreTheRunCommandsNginxConf() {
        List<String> problems = new java.util.ArrayList<>();

        List<TwoConfigs.Side> sides = TwoConfigs.sides(List.of(), List.of(Path.of("old.conf"), Path.of("new.conf")), problems);

        assertThat(problems).isEmpty();
        assertThat(sides).extracting(TwoConfigs.Side::words).containsExactly(List.of("--nginx-conf", "old.conf"),
                List.of("--nginx-conf", "new.conf"));
    }
}
