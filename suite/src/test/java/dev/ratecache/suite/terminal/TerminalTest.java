package dev.ratecache.suite.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Help.Ansi;

/** Verdicts in colour on a terminal, and the same text, byte for byte, where colour is off (a pipe, NO_COLOR). */
class TerminalTest {
    private static final String RED = "\u001b[31m";
    private static final String GREEN = "\u001b[32m";
    private static final String YELLOW = "\u001b[33m";

    private static final String RESULTS = """
            INCOMPLETE: some cells failed (below)
              FAILED: JMeter exited with code 1 (see cells/stress-both/jmeter/jmeter.log)
              99.7 responses/s, rejected 0.0 %; APP CACHE FAILED: redis-server stopped
              warning fleet/split: most requests fell back
              PASS stress/server-cache.rejected_pct == 0: 0.0
              FAIL stress/no-caching.rejected_pct > 50: 12.0
              bar: haproxy's full edge at 0.91 of its bare form's HIT rate: BELOW, the bar is 0.95
              a PASSWORD, a Failed word and a warning inside a line are left alone
            """;

    private static Terminal terminal(Ansi ansi) {
        return new Terminal(new PrintWriter(new StringWriter()), ansi, false, false);
    }

    @Test
    void onATerminalFailuresAreRedPassesGreenAndWarningsYellow() {
        String coloured = terminal(Ansi.ON).highlight(RESULTS);

        assertThat(coloured).contains(RED + "INCOMPLETE\u001b[", "  " + RED + "FAILED\u001b[", "; " + RED + "APP CACHE FAILED\u001b[",
                "  " + YELLOW + "warning\u001b[", "  " + GREEN + "PASS\u001b[", "  " + RED + "FAIL\u001b[",
                ": " + RED + "BELOW\u001b[", "  a PASSWORD, a Failed word and a warning inside a line are left alone");
        assertThat(coloured.replaceAll("\u001b\\[[0-9;]*m", "")).isEqualTo(RESULTS);
    }

    @Test
    void withoutColourTheTextIsUnchangedAndHoldsNoEscape() {
        assertThat(terminal(Ansi.OFF).highlight(RESULTS)).isEqualTo(RESULTS).doesNotContain("\u001b");
    }

    @Test
    void aLiveLineIsWrittenOnlyOnATerminal() {
        StringWriter piped = new StringWriter();
        LiveLine line = new LiveLine(new Terminal(new PrintWriter(piped), Ansi.OFF, false, false));
        line.show("  0m01s  left: cell 0m10s, run 1m00s");
        line.clear();
        assertThat(piped.toString()).isEmpty();

        StringWriter tty = new StringWriter();
        line = new LiveLine(new Terminal(new PrintWriter(tty), Ansi.OFF, true, false));
        line.show("  0m01s  long");
        line.show("  0m02s");
        line.clear();
        assertThat(tty.toString()).isEqualTo("\r  0m01s  long" + "\r  0m02s      " + "\r" + " ".repeat(7) + "\r");
    }
}
