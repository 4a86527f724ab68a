package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** ./run-tests.sh peak refuses bad input in one line each, before it binds a port or starts a tool. */
class PeakInputTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private CommandLine cli;

    private int run(String... args) {
        cli = RunTestsCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void badInputGetsOneLineBeforeAnythingStarts() {
        assertThat(run("peak", "--duration", "0", "--connections", "2", "--threads", "3")).isEqualTo(2);
        assertThat(err.toString())
                .contains("--duration must be a whole number from 1 to 3600 (got 0)")
                .contains("--threads (3) must not exceed --connections (2)");
        assertThat(out.toString()).doesNotContain("machine:");
    }

    @Test
    void helpFitsEightyColumns() {
        cli = RunTestsCommand.commandLine();
        CommandLine peak = cli.getSubcommands().get("peak");
        peak.setUsageHelpAutoWidth(false);
        peak.setUsageHelpWidth(80);
        cli.setOut(new PrintWriter(out, true));

        assertThat(cli.execute("peak", "--help")).isZero();
        assertThat(out.toString().lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
        assertThat(out.toString()).contains("--duration", "--connections", "--threads", "--rounds", "--url");
    }

    @Test
    void anOriginOfYourOwnNeedsItsUrl() {
        assertThat(run("peak", "--origin", "http://127.0.0.1:9")).isEqualTo(2);
        assertThat(err.toString()).contains("--url: with --origin, give the path of a cacheable URL");
    }

    @Test
    void appPathThatIsNotAnItemIsRefusedBeforeAnythingStarts() {
        assertThat(run("peak", "--app-path", "/hare")).isEqualTo(2);
        assertThat(err.toString()).contains("--app-path must be an item of the suite's origin, /items/ID (got '/hare')");
        assertThat(out.toString()).doesNotContain("starting");
    }
}
