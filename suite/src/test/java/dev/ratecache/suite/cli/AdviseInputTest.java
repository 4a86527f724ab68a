package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.accesslog.AccessLog;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ./run-tests.sh advise refuses a log it cannot use, and flags it cannot take, in one line, exit 2,
 * before it writes a thing; what it quotes from the log has what is not printable escaped.
 */
class AdviseInputTest {
    private static final Path DIR = TestDirs.fresh(AdviseInputTest.class, "logs");

    private final CommandRun cli = new CommandRun();

    /** Each case: what is wrong, the arguments that say it, and what the one line must say. */
    static Stream<Arguments> refusedInput() {
        Path pastLimit = log("past-limit.log", pastLimitLine(), pastLimitLine());
        Path hugeBodies = log("huge-bodies.log", HUGE_BODY, HUGE_BODY);
        return Stream.concat(Stream.of(
                refused("a log whose body sizes are too large for a number", List.of(hugeBodies.toString()),
                        hugeBodies + ": the first 2 lines are in none of the formats auto knows (suite-json, combined,"
                                + " common); line 1: \"198.51.100.1 - - [20/Nov/2026:10:00:00 +0000] \"GET /a HTTP/1.1\" 200"
                                + " 99999999999999999999 "),
                // A log that does not exist: the flags are checked before it is read.
                refused("results folder that is a file", List.of("no-such-access.log", "--results", "pom.xml"),
                        "--results pom.xml is a file, not a folder: give a folder, or a path where one can be made"),
                refused("results folder below a file", List.of("no-such-access.log", "--results", "pom.xml/advice"),
                        "--results pom.xml/advice: ", "pom.xml is a file, not a folder"),
                refused("an nginx config that does not exist", List.of("no-such-access.log", "--nginx-conf", "no-such.conf"),
                        "--nginx-conf no-such.conf does not exist"),
                refused("an nginx config that is a folder", List.of("no-such-access.log", "--nginx-conf", DIR.toString()),
                        "--nginx-conf " + DIR + " is a directory, not a file"),
                refused("a server name without a config", List.of("no-such-access.log", "--server-name", "api.example.com"),
                        "--server-name chooses a server of your config: add --nginx-conf FILE")),
                RefusedRows.linesPastTheLimit(pastLimit));
    }

    /** A combined line whose body size no long holds. */
    static final String HUGE_BODY = "198.51.100.1 - - [20/Nov/2026:10:00:00 +0000] \"GET /a HTTP/1.1\" 200 99999999999999999999"
            + " \"-\" \"curl/8\"";

    /** A combined line with a user agent past {@link AccessLog#MAX_LINE_CHARS}, which starts by clearing the screen. */
    static String pastLimitLine() {
        return "198.51.100.1 - - [20/Nov/2026:10:00:00 +0000] \"GET /a HTTP/1.1\" 200 5 \"-\" \"\u001b[2J"
                + "x".repeat(AccessLog.MAX_LINE_CHARS) + "\"";
    }

    static Path log(String name, String... lines) {
        try {
            return Files.write(DIR.resolve(name), List.of(lines));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0} is refused")
    @MethodSource("refusedInput")
    void badInputIsRefusedSayingWhy(String what, List<String> args, List<String> said) {
        Path results = DIR.resolve("results");
        List<String> all = new ArrayList<>(List.of("advise"));
        all.addAll(args);
        if (!args.contains("--results")) {
            all.addAll(List.of("--results", results.toString()));
        }

        assertThat(cli.run(all.toArray(String[]::new))).isEqualTo(2);

        assertThat(cli.err()).contains(said).doesNotContain("Exception").doesNotContainPattern("[\\p{Cntrl}&&[^\\n]]");
        assertThat(cli.err().lines().findFirst().orElse("")).startsWith("run-tests.sh: ").contains(said.get(0));
        assertThat(results).doesNotExist();
    }
}
