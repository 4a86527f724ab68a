package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.docs.Committed;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * docs/reference.md is every command's --help, as picocli renders it from the commands' own model:
 * a flag added, renamed or described anew changes the help, and this test fails until the page is
 * written again (the failure says how), so the page cannot drift from the command line.
 */
class FlagReferenceTest {
    /** Wide enough for the longest example line, narrow enough to read on a phone turned sideways. */
    private static final int WIDTH = 100;

    static final Path PAGE = Repo.root().resolve("docs/reference.md");

    @Test
    void docsReferenceIsEveryCommandsHelpAsTheCommandLineRendersIt() throws Exception {
        Committed.page(PAGE, reference(), "./mvnw -B -q test -pl suite -am -Dtest=FlagReferenceTest -Ddocs.write=true");
    }

    @Test
    void theReferenceHasEveryCommandAndEveryOption() {
        String reference = reference();
        CommandLine cli = RunTestsCommand.commandLine();
        assertThat(reference).contains(shown().stream().map(c -> "## `" + c + "`").toList());
        // A negatable flag shows as --[no-]NAME: its name without the dashes is there either way.
        assertThat(reference).contains(cli.getCommandSpec().options().stream()
                .map(o -> o.longestName().replaceFirst("^--", "")).toList());
        assertThat(reference).doesNotContain("\u001b[");
    }

    static String reference() {
        StringBuilder page = new StringBuilder("""
                # Reference: every command and flag

                <!-- Generated from the command line's own model by FlagReferenceTest: do not edit by hand. -->

                This is `--help` of `./run-tests.sh` and of each of its commands, at %d columns. A test
                renders it afresh from the command line and fails when this page differs, so it always
                matches the code: `./run-tests.sh COMMAND --help` prints the same on your terminal.

                """.formatted(WIDTH));
        List<String> commands = new ArrayList<>(List.of(""));
        commands.addAll(shown());
        for (String command : commands) {
            page.append(command.isEmpty() ? "## `./run-tests.sh`" : "## `" + command + "`").append("\n\n```\n")
                    .append(help(command).stripTrailing()).append("\n```\n\n");
        }
        return page.toString().stripTrailing() + "\n";
    }

    /** The commands --help lists: a hidden one (a maintainer's) is not the users' to look up. */
    private static List<String> shown() {
        return RunTestsCommand.commandLine().getSubcommands().entrySet().stream()
                .filter(e -> !e.getValue().getCommandSpec().usageMessage().hidden()).map(Map.Entry::getKey).toList();
    }

    private static String help(String command) {
        CommandLine cli = RunTestsCommand.commandLine();
        List<CommandLine> all = new ArrayList<>(List.of(cli));
        all.addAll(cli.getSubcommands().values());
        for (CommandLine each : all) {
            each.setUsageHelpAutoWidth(false);
            each.setUsageHelpWidth(WIDTH);
            each.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        }
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        String[] args = command.isEmpty() ? new String[] {"--help"} : new String[] {command, "--help"};
        assertThat(cli.execute(args)).as("%s --help", command).isZero();
        return out.toString();
    }
}
