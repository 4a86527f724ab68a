package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** ./run-tests.sh up refuses bad input in one line each, before it binds a port or claims its results folder. */
class UpInputTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void badValuesAreOneLineEachAndNothingIsClaimed(TestInfo test) {
        Path results = TestDirs.fresh(test);

        assertThat(cli.run("up", "--every", "0", "--profile", "full", "--scenario", "stress/direct", "--results",
                results.toString())).isEqualTo(2);

        assertThat(cli.err()).contains("--every must be a whole number of seconds from 1 to 3600 (got 0)",
                "--profile full repeats matrix cells; up has none: use quick or default",
                "--scenario stress/direct sends traffic straight to the origin");
        assertThat(results).isEmptyDirectory();
    }
}
