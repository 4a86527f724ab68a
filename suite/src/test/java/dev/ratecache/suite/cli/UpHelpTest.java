package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** up's and down's help fit an 80-column terminal with each example on one line, and the root help lists them. */
class UpHelpTest {
    private static String help(String sub) {
        CommandLine cli = RunTestsCommand.commandLine();
        CommandLine command = sub == null ? cli : cli.getSubcommands().get(sub);
        command.setUsageHelpAutoWidth(false);
        command.setUsageHelpWidth(80);
        StringWriter out = new StringWriter();
        command.usage(new PrintWriter(out, true));
        return out.toString();
    }

    @Test
    void fitsEightyColumns() {
        for (String sub : new String[] {"up", "down"}) {
            String help = help(sub);
            assertThat(help.lines()).as(sub).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
            // An example wrapped by picocli would leave a line that starts with a flag.
            assertThat(help.lines()).as(sub).noneMatch(l -> l.startsWith("--"));
        }
        assertThat(help("up")).contains("./run-tests.sh up --scenario stress/server-cache", "--every", "--results",
                "./run-tests.sh up --edge haproxy --front-mode nodelay --back-mode nodelay", "--edge");
        assertThat(help("down")).contains("Exit codes:", "0   stopped, or nothing was running");
        assertThat(help(null)).contains("./run-tests.sh up [switches]", "./run-tests.sh down");
    }
}
