package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** --matrix tiers: input it cannot take is refused in one line before anything starts. */
class TiersInputTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void aKeyOutsideAHeaderIsRefusedBecauseThePlanSendsKeysInAHeader() {
        assertThat(cli.run("--matrix", "tiers", "--limit-key", "cookie:session")).isEqualTo(2);
        assertThat(cli.err()).contains("--matrix tiers sends each key in a header: use --limit-key header:NAME");
        assertThat(cli.out()).doesNotContain("run folder");
    }

    /** Each case: what is wrong, the arguments that say it, and what the one line must say. */
    static Stream<Arguments> refusedInput() throws IOException {
        Path dir = TestDirs.fresh(TiersInputTest.class, "files");
        Path pastAnInt = Files.writeString(dir.resolve("past-an-int.txt"), "free 2147483648 10 nodelay k1\n");
        Path pastTheMost = Files.writeString(dir.resolve("past-the-most.txt"), "free 10 10 nodelay k1\npro 10 2000000 queue k2\n");
        return Stream.of(
                refused("tier rate past an int", List.of("--tiers", pastAnInt.toString()),
                        "--tiers " + pastAnInt + ":1: rate '2147483648' must be a whole number of requests/s from 1 to"
                                + " 100000, e.g. 10 or 10r/s"),
                refused("tier burst past the most", List.of("--tiers", pastTheMost.toString()),
                        "--tiers " + pastTheMost + ":2: burst '2000000' must be a whole number from 0 to 1000000"));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said) {
        List<String> all = new java.util.ArrayList<>(List.of("--matrix", "tiers", "--limit-key", "header:X-Api-Key"));
        all.addAll(args);
        assertThat(cli.run(all.toArray(String[]::new))).isEqualTo(2);
        assertThat(cli.err()).contains(said);
        assertThat(cli.out()).doesNotContain("run folder");
    }

    @Test
    void anOnlyOutsideTheTiersMatrixListsItsCells() {
        assertThat(cli.run("--matrix", "tiers", "--only", "stress/both")).isEqualTo(2);
        assertThat(cli.err()).contains("valid cells: keys/addr, keys/addr.noisy, keys/api-key, keys/api-key.noisy,"
                + " keys/api-key.misses, keys/api-key.misses.noisy");
    }
}
