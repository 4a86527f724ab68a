package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Wrong input gets one clear line before anything starts, and exit code 2. */
class BadInputTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = RunTestsCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void unknownFlagIsRefusedNamingIt() {
        assertThat(run("--front-rat", "5")).isEqualTo(2);
        assertThat(err.toString()).startsWith("run-tests.sh: Unknown option")
                .contains("'--front-rat'", "did you mean ").containsPattern("did you mean [^)]*--front-rate\\b");
    }

    @Test
    void rejectStatusOtherThan429Or503IsRefused() {
        assertThat(run("--reject-status", "418")).isEqualTo(2);
        assertThat(err.toString()).contains("--reject-status must be 429 or 503 (got 418)");
    }

    @Test
    void limitModeMustBeQueueNodelayOrDelay() {
        assertThat(run("--front-mode", "fast")).isEqualTo(2);
        assertThat(err.toString()).contains("'fast' is not a limit mode: use queue, nodelay or delay=N");
    }

    @Test
    void portInUseIsReportedNamingTheFlagBeforeAnythingStarts() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            assertThat(run("--front-port", String.valueOf(port))).isEqualTo(2);
            assertThat(err.toString())
                    .contains("port " + port + " is already in use")
                    .contains("--front-port");
            assertThat(out.toString()).doesNotContain("run folder");
        }
    }

    @Test
    void twoTiersOnOnePortAreRefused() {
        assertThat(run("--front-port", "18080", "--back-port", "18080")).isEqualTo(2);
        assertThat(err.toString()).contains("--back-port and --front-port are both 18080");
    }

    @Test
    void originMustBeAnHttpUrlWithAPort() {
        assertThat(run("--origin", "ftp://example")).isEqualTo(2);
        assertThat(err.toString()).contains("--origin must be http://host:port");
    }

    @Test
    void unknownCellIsRefusedListingTheValidOnes() {
        assertThat(run("--only", "stress/warp-speed")).isEqualTo(2);
        assertThat(err.toString()).contains("--only names no such cell: stress/warp-speed")
                .contains("valid cells: stress/no-caching, stress/server-cache");
    }

    @Test
    void malformedCheckIsRefusedShowingTheForm() {
        assertThat(run("--assert", "stress/both rejected_pct is zero")).isEqualTo(2);
        assertThat(err.toString()).contains("malformed check").contains("CELL.METRIC OP VALUE");
    }

    @Test
    void checkOfAnUnknownMetricIsRefusedListingTheMetrics() {
        assertThat(run("--assert", "stress/both.speed > 3")).isEqualTo(2);
        assertThat(err.toString()).contains("no such metric 'speed'").contains("throughput, rejected_pct");
    }

    @Test
    void unknownProfileIsRefused() {
        assertThat(run("--profile", "fast")).isEqualTo(2);
        assertThat(err.toString()).contains("'fast' is not a profile: use quick, default or full");
    }

    @Test
    void nonNumericPlanPropertyIsRefusedBeforeAnythingStarts() {
        assertThat(run("-Jusers=abc")).isEqualTo(2);
        assertThat(err.toString()).contains("-Jusers=abc: users must be a whole number");
        assertThat(out.toString()).doesNotContain("run folder");
    }

    @Test
    void helpListsEveryFlag() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("--front-port", "--back-port", "--origin-threads", "--no-cache",
                "--front-rate", "--reject-status", "--origin", "-J=NAME=VALUE", "--matrix", "--only", "--plan",
                "--profile", "--repeat", "--assert", "--assert-file");
    }
}
