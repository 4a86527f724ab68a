package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.jmeter.Summariser;
import dev.ratecache.suite.terminal.Terminal;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Help.Ansi;

/** A cell's live line, and where JMeter's own output goes while it runs, told each tick by hand. */
class CellProgressTest {
    private static final String BANNER = """
            WARN StatusConsoleListener The use of package scanning to locate plugins is deprecated
            Creating summariser <summary>
            Created the tree successfully using stress.jmx
            """;
    private static final String SUMMARY = "summary +    199 in 00:00:02 =  102.2/s Avg:   409 Min:    59 Max:   689"
            + " Err:    12 (6.03%) Active: 0 Started: 100 Finished: 100\n";

    @TempDir
    Path dir;

    private final StringWriter written = new StringWriter();

    private Summariser summariser(String output) {
        Summariser s = new Summariser();
        output.lines().forEach(s::accept);
        return s;
    }

    @Test
    void theLineSaysElapsedRequestsRateErrorsAndTimeLeftInTheCellAndTheRun() {
        assertThat(CellProgress.text(12.4, summariser(BANNER + SUMMARY), Duration.ofSeconds(32), Duration.ofSeconds(190)))
                .isEqualTo("  0m12s  199 req  102.2 r/s  6.0 % err  left: cell 0m20s, run 2m58s");
    }

    @Test
    void beforeJMeterCountsAnythingTheLineSaysOnlyTheTimes() {
        assertThat(CellProgress.text(3, summariser(BANNER), Duration.ofSeconds(32), Duration.ofSeconds(190)))
                .isEqualTo("  0m03s  left: cell 0m29s, run 3m07s");
    }

    @Test
    void aCellPastItsGuessHasNothingLeftNotLessThanNothing() {
        assertThat(CellProgress.text(40, new Summariser(), Duration.ofSeconds(32), Duration.ofSeconds(35)))
                .isEqualTo("  0m40s  left: cell 0m00s, run 0m00s");
    }

    @Test
    void aLongRunsLineStillFitsEightyColumns() {
        Summariser s = summariser("summary + 9999999 in 00:40:00 = 4166.7/s Avg: 1 Min: 1 Max: 9 Err: 9999999"
                + " (100.00%) Active: 1 Started: 1 Finished: 0");
        assertThat(CellProgress.text(2400, s, Duration.ofMinutes(40), Duration.ofMinutes(999)))
                .hasSizeLessThanOrEqualTo(80);
    }

    @Test
    void onATerminalTheLineRewritesItselfWithJMetersCountsAndNoneOfItsOutput() throws IOException {
        Path output = dir.resolve("jmeter.out");
        Files.writeString(output, BANNER);
        CellProgress progress = progress(new Terminal(out(), Ansi.OFF, true, false), output);

        progress.tick();
        Files.writeString(output, SUMMARY, StandardOpenOption.APPEND);
        progress.tick();
        progress.close();

        String shown = written.toString();
        assertThat(shown).startsWith("\r  0m").contains("  199 req  102.2 r/s  6.0 % err")
                .doesNotContain("StatusConsoleListener", "summariser", "summary +", "\n");
        // Blanked at the end: the cell's result line starts on a clean line.
        assertThat(shown.substring(shown.lastIndexOf('\r', shown.length() - 2))).matches("\r +\r");
    }

    @Test
    void whenPipedNothingIsWrittenWhileTheCellRuns() throws IOException {
        Path output = dir.resolve("jmeter.out");
        Files.writeString(output, BANNER + SUMMARY);
        CellProgress progress = progress(Terminal.plain(out()), output);

        progress.tick();
        progress.close();

        assertThat(written.toString()).isEmpty();
    }

    @Test
    void verboseCopiesJMetersOutputWholeLineByLineAndNoLiveLine() throws IOException {
        Path output = dir.resolve("jmeter.out");
        Files.writeString(output, BANNER + "summary +    199 in 00:00:02");
        CellProgress progress = progress(new Terminal(out(), Ansi.OFF, true, true), output);

        progress.tick();
        assertThat(written.toString()).isEqualTo(BANNER);
        Files.writeString(output, SUMMARY.substring("summary +    199 in 00:00:02".length()), StandardOpenOption.APPEND);
        progress.close();

        assertThat(written.toString()).isEqualTo(BANNER + SUMMARY).doesNotContain("\r");
    }

    private PrintWriter out() {
        return new PrintWriter(written, true);
    }

    private CellProgress progress(Terminal terminal, Path output) {
        return new CellProgress(terminal, output, Duration.ofSeconds(30), Duration.ofMinutes(3), System.nanoTime(), false);
    }
}
