package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** --help reads as written: lines break between words only, and no line runs past the width. */
class HelpTest {
    private static final int UNWRAPPED = 10_000;

    private static String help(int width, String... command) {
        CommandLine cli = RunTestsCommand.commandLine();
        cli.setUsageHelpAutoWidth(false);
        cli.setUsageHelpWidth(width);
        for (CommandLine sub : cli.getSubcommands().values()) {
            sub.setUsageHelpAutoWidth(false);
            sub.setUsageHelpWidth(width);
        }
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        String[] args = new String[command.length + 1];
        System.arraycopy(command, 0, args, 0, command.length);
        args[command.length] = "--help";
        assertThat(cli.execute(args)).isZero();
        return out.toString();
    }

    @ParameterizedTest(name = "{0} columns")
    @ValueSource(ints = {80, 120, 200})
    void helpFitsTheWidthAndKeepsEachExampleOnOneLine(int width) {
        String help = help(width);

        assertThat(help.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(width));
        assertThat(help).contains("  ./run-tests.sh --profile quick  the same, scaled down (under 2 minutes)\n",
                "  ./run-tests.sh render DIR       write the rendered Nginx configs to DIR\n");
        // A wrapped paragraph breaks only between words: its first sentence reads whole once lines are joined.
        assertThat(help.replaceAll("\\s+", " ")).contains("runs a JMeter plan through them, and measures.");
    }

    /** Every command's help, at each width: what a user copies from it must be what was written. */
    static Stream<Arguments> commandsAndWidths() {
        List<String> commands = new ArrayList<>(List.of(""));
        commands.addAll(RunTestsCommand.commandLine().getSubcommands().keySet());
        return commands.stream().flatMap(c -> Stream.of(80, 100, 133).map(w -> Arguments.of(c, w)));
    }

    @ParameterizedTest(name = "{0} --help at {1} columns")
    @MethodSource("commandsAndWidths")
    void helpBreaksLinesBetweenWordsOnlyAndFitsTheWidth(String command, int width) {
        String[] args = command.isEmpty() ? new String[0] : new String[] {command};
        String wrapped = help(width, args);

        assertThat(wrapped.lines()).allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(width));
        // The same words in the same order as with no wrapping at all: no word, flag, path or
        // argument was cut in two (picocli's own wrapping cut "./run-tests.sh" after the dot).
        assertThat(wrapped.split("\\s+")).containsExactly(help(UNWRAPPED, args).split("\\s+"));
    }

    @Test
    void aCommandTooLongForEightyColumnsGoesOnWithABackslashAndCopiesWhole() {
        String help = help(80, "advise");

        assertThat(help).contains("  ./run-tests.sh advise app.jsonl \\\n"
                + "      --log-format json:time=ts,client=ip,method=verb,uri=path\n");
    }

    @Test
    void aWrappedOptionGoesOnUnderItsDescription() {
        String help = help(80);

        assertThat(help).contains("  ./run-tests.sh up [switches]    keep the stack up (Ctrl-C stops it)\n",
                "      --front-mode=MODE      Front end burst handling: queue, nodelay or\n"
                        + "                               delay=N. Default: queue.\n");
    }

    @ParameterizedTest(name = "{0} columns")
    @ValueSource(ints = {80, 200})
    void guiHelpFitsTheWidth(int width) {
        String help = help(width, "gui");

        assertThat(help.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(width));
        assertThat(help).contains("  ./run-tests.sh gui load --scenario load/client-cache\n");
    }

    @ParameterizedTest(name = "{0} --help")
    @ValueSource(strings = {"advise", "replay"})
    void theLogsHelpStatesTheLongestLineRead(String command) {
        String help = help(80, command).replaceAll("\\s+", " ");

        assertThat(help).contains("a line longer than 1 MiB (1048576 characters) is a bad line");
    }

    /** picocli formats each description: a bare % (as in "90 % of") is a format error it only warns of on stderr. */
    @Test
    void everyDescriptionFormatsWithoutAWarning() {
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream seen = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(seen, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            help(120);
            RunTestsCommand.commandLine().getSubcommands().keySet().forEach(c -> help(120, c));
        } finally {
            System.setErr(err);
        }
        assertThat(seen.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
    }

    @Test
    void peakHelpFitsEightyColumns() {
        String help = help(80, "peak");

        assertThat(help.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
        assertThat(help).contains("--duration", "--connections", "--threads", "--rounds", "--url");
    }

    /** A description at the margin wraps at the margin, even where its examples below have a text column. */
    @Test
    void aDescriptionWrapsAtTheMarginNotUnderItsExamplesText() {
        String help = help(100, "up");
        assertThat(help).contains("\nmatrix cell's, and keep them running");
    }
}
