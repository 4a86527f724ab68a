package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ./run-tests.sh replay refuses a log or flags it cannot use in one line per problem, before anything starts. */
class ReplayInputTest {
    private final CommandRun cli = new CommandRun();
    private Path dir;

    @BeforeEach
    void dir(TestInfo test) {
        dir = TestDirs.fresh(test);
    }


    private Path twoRequests() throws Exception {
        return Files.write(dir.resolve("access.log"), List.of(
                "198.51.100.1 - - [20/Nov/2026:10:00:00 +0000] \"GET /a HTTP/1.1\" 200 5 \"-\" \"test\"",
                "198.51.100.2 - - [20/Nov/2026:10:00:01 +0000] \"GET /b HTTP/1.1\" 200 5 \"-\" \"test\""));
    }

    /** Each case: what is wrong, the arguments after replay that say it, and what the one line must say. */
    static Stream<Arguments> refusedInput() throws IOException {
        Path logs = TestDirs.fresh(ReplayInputTest.class, "logs");
        Path pastLimit = Files.write(logs.resolve("past-limit.log"),
                List.of(AdviseInputTest.pastLimitLine(), AdviseInputTest.pastLimitLine()));
        Path hugeBodies = Files.write(logs.resolve("huge-bodies.log"), List.of(AdviseInputTest.HUGE_BODY,
                AdviseInputTest.HUGE_BODY));
        String good = Files.write(logs.resolve("access.log"), List.of(
                "198.51.100.1 - - [20/Nov/2026:10:00:00 +0000] \"GET /a HTTP/1.1\" 200 5 \"-\" \"test\"",
                "198.51.100.2 - - [20/Nov/2026:10:00:01 +0000] \"GET /b HTTP/1.1\" 200 5 \"-\" \"test\"")).toString();
        return Stream.concat(Stream.of(
                refused("a combined log whose body sizes are too large for a number",
                        List.of(hugeBodies.toString(), "--log-format", "combined"),
                        hugeBodies + ": 2 of 2 lines (100.0 %) are not nginx combined (limit 1 %); line 1: \"198.51.100.1"),
                refused("number past an int, naming replay's range", List.of(good, "--threads", "99999999999"),
                        "run-tests.sh: --threads must be a whole number from 1 to 5000 (got 99999999999)\n"),
                refused("number past an int for a flag replay shares", List.of(good, "--repeat", "99999999999"),
                        "run-tests.sh: --repeat must be a whole number from 1 to 100 (got 99999999999)\n"),
                refused("number past an int for a flag with no range of its own", List.of(good, "--top", "99999999999"),
                        "run-tests.sh: --top must be a whole number no more than 2147483647 (got 99999999999)\n")), RefusedRows.linesPastTheLimit(pastLimit));
    }

    @ParameterizedTest(name = "{0} is refused")
    @MethodSource("refusedInput")
    void badInputIsRefusedSayingWhyBeforeAnythingStarts(String what, List<String> args, List<String> said) {
        List<String> all = new ArrayList<>(List.of("replay"));
        all.addAll(args);
        all.addAll(List.of("--results", dir.toString()));

        assertThat(cli.run(all.toArray(String[]::new))).isEqualTo(2);

        assertThat(cli.err()).contains(said).doesNotContainPattern("[\\p{Cntrl}&&[^\\n]]");
        assertThat(dir).isEmptyDirectory();
        assertThat(cli.out()).doesNotContain("run folder");
    }

    @Test
    void aMissingLogIsOneLineAndNothingElse() {
        Path missing = dir.resolve("missing.log");

        assertThat(cli.run("replay", missing.toString(), "--results", dir.toString())).isEqualTo(2);

        assertThat(cli.err().lines()).containsExactly("run-tests.sh: " + missing + ": no such file",
                "Try ./run-tests.sh --help for every flag and its accepted values.");
    }

    @Test
    void aKeyFieldWithoutAHeaderLimitKeyIsRefusedInOneLineBeforeAnythingStarts() throws Exception {
        Path log = Files.write(dir.resolve("api.jsonl"), List.of(
                "{\"time\":\"2026-11-20T10:00:00+00:00\",\"client\":\"c1\",\"method\":\"GET\",\"uri\":\"/a\",\"k\":\"k1\"}",
                "{\"time\":\"2026-11-20T10:00:01+00:00\",\"client\":\"c1\",\"method\":\"GET\",\"uri\":\"/b\",\"k\":\"k2\"}"));

        assertThat(cli.run("replay", log.toString(), "--key-field", "k", "--results", dir.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("--key-field sends each request's key in the limit key's header: add"
                + " --limit-key header:NAME (got --limit-key addr)");

        assertThat(cli.run("replay", log.toString(), "--key-field", "k", "--limit-key", "cookie:sid",
                "--results", dir.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("(got --limit-key cookie:sid)");
        try (var files = Files.list(dir)) {
            assertThat(files.filter(Files::isDirectory)).as("no run folder").isEmpty();
        }
    }

    @Test
    void aKeyFieldForALogWithoutFieldsIsRefusedInOneLine() throws Exception {
        assertThat(cli.run("replay", twoRequests().toString(), "--key-field", "k", "--limit-key", "header:X-Api-Key",
                "--log-format", "combined", "--results", dir.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("--key-field needs a log with named fields (suite-json or json:...);"
                + " --log-format combined has none");

        // Recognised as combined by auto: refused when it is read, still before anything starts.
        assertThat(cli.run("replay", twoRequests().toString(), "--key-field", "k", "--limit-key", "header:X-Api-Key",
                "--results", dir.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("--key-field k needs a log with named fields (suite-json or json:...);"
                + " this log is read as combined, which has none");
    }

    @Test
    void aMatrixOfTheSuitesOwnPlansSaysWhatAReplayRuns() throws Exception {
        assertThat(cli.run("replay", twoRequests().toString(), "--matrix", "caches", "--results", dir.toString()))
                .isEqualTo(2);

        assertThat(cli.err()).contains("--matrix caches runs the suite's hotset plan on /items:"
                + " a replay runs --matrix default or full").doesNotContain("--plan");
    }

    @Test
    void aBinaryFileGivenAsALogIsQuotedWithItsUnprintableBytesEscaped() throws Exception {
        Path binary = Files.write(dir.resolve("a.out"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0x1b, '[', '2', 'J'});

        assertThat(cli.run("replay", binary.toString(), "--results", dir.toString())).isEqualTo(2);

        assertThat(cli.err()).contains("line 1: \"\\x7fELF\\x02\\x01\\x01\\x00\\x1b[2J\"")
                .doesNotContainPattern("[\\p{Cntrl}&&[^\\n]]");
    }

    @Test
    void aCheckFileLineIsQuotedWithItsUnprintableBytesEscaped() throws Exception {
        Path checks = Files.write(dir.resolve("checks.txt"), List.of("stress/both.speed\u0007 > 3"));

        assertThat(cli.run("--assert-file", checks.toString(), "--results", dir.toString())).isEqualTo(2);

        assertThat(cli.err()).contains("speed\\x07").doesNotContainPattern("[\\p{Cntrl}&&[^\\n]]");
    }
}
