package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.docs.Committed;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Member;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * docs/reference.md is every command's --help, as picocli renders it from the commands' own model:
 * a flag added, renamed or described anew changes the help, and this test fails until the page is
 * written again (the failure says how), so the page cannot drift from the command line.
 *
 * <p>A group of flags that several commands share (a mixin, or a base class's fields: the stack's
 * switches, the ports, --dry-run) is printed once, under its own heading, and each command's section
 * links to it: printed per command, the stack's switches made the page five times their length.
 * The terminal's --help still lists every flag of the command.
 */
class FlagReferenceTest {
    /** Wide enough for the longest example line, narrow enough to read on a phone turned sideways. */
    private static final int WIDTH = 100;

    static final Path PAGE = Repo.root().resolve("docs/reference.md");

    /**
     * Each shared group's heading, by the class that declares its flags. A new shared group needs
     * one (the test says so), so that its heading names what its flags are for.
     */
    private static final Map<String, String> TITLES = Map.ofEntries(
            Map.entry("MatrixCommand", "Matrix runs"),
            Map.entry("StackPorts", "Ports and addresses"),
            Map.entry("StackSwitches", "The stack: edge, Age, workers"),
            Map.entry("LimitSwitches", "Rate limits and keys"),
            Map.entry("CacheSwitches", "The edge cache"),
            Map.entry("OriginSwitches", "The origin and freshness"),
            Map.entry("FleetSwitches", "A fleet of edges"),
            Map.entry("TlsSwitches", "TLS"),
            Map.entry("ConnectionSwitches", "Connections and timeouts"),
            Map.entry("OriginThreads", "The origin's threads"),
            Map.entry("OriginDelayOptions", "The origin's delays"),
            Map.entry("DatabaseOptions", "The origin's database and app cache"),
            Map.entry("DryRun", "Dry run"),
            Map.entry("LoadHostOptions", "Load from other hosts"),
            Map.entry("RmiSecurity", "JMeter's RMI"),
            Map.entry("LogInput", "Reading an access log"),
            Map.entry("EdgeOption", "The edge product"),
            Map.entry("BaselineOptions", "Comparing with a baseline"),
            Map.entry("OwnConfigOptions", "Your own nginx config as the front tier"));

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
        List<CommandLine> all = new ArrayList<>(List.of(cli));
        all.addAll(cli.getSubcommands().values());
        for (CommandLine each : all) {
            if (!each.getCommandSpec().usageMessage().hidden()) {
                assertThat(reference).contains(each.getCommandSpec().options().stream().filter(o -> !o.hidden())
                        .map(o -> o.longestName().replaceFirst("^--", "")).toList());
            }
        }
        assertThat(reference).doesNotContain("\u001b[");
    }

    @Test
    void everySharedGroupHasAHeadingAndIsPrintedOnce() {
        String reference = reference();
        for (String group : groups(commandLines()).keySet()) {
            assertThat(TITLES).as("a heading for the flags %s declares, in FlagReferenceTest.TITLES", group)
                    .containsKey(group);
            String heading = "### " + TITLES.get(group) + "\n";
            assertThat(reference.indexOf(heading)).as(heading).isPositive()
                    .isEqualTo(reference.lastIndexOf(heading));
        }
        // --front-rate is the stack's, taken by five commands: printed once, in its group.
        assertThat(reference.split("--front-rate=R ", -1)).hasSize(2);
    }

    /** The page: the root command, then each shown command, then each shared group once. */
    static String reference() {
        Map<String, CommandLine> commands = commandLines();
        Map<String, List<String>> groups = groups(commands);
        StringBuilder page = new StringBuilder("""
                # Reference: every command and flag

                <!-- Generated from the command line's own model by FlagReferenceTest: do not edit by hand. -->

                This is `--help` of `./run-tests.sh` and of each of its commands, at %d columns. A test
                renders it afresh from the command line and fails when this page differs, so it always
                matches the code. The flags several commands share (the stack's switches, the ports,
                `--dry-run`, ...) are printed once, under [Flags several commands share](#flags-several-commands-share),
                and each command's section links to the groups it takes;
                `./run-tests.sh COMMAND --help` prints every flag of the command on your terminal.

                """.formatted(WIDTH));
        for (Map.Entry<String, CommandLine> command : commands.entrySet()) {
            String name = command.getKey();
            CommandLine cli = command.getValue();
            List<OptionSpec> own = cli.getCommandSpec().options().stream()
                    .filter(o -> !groups.containsKey(group(o))).toList();
            Map<String, CommandLine.IHelpSectionRenderer> sections = cli.getHelpSectionMap();
            sections.put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, WordWrappedHelp.wrapped(
                    UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> help.optionListExcludingGroups(own)));
            cli.setHelpSectionMap(sections);
            page.append("## `").append(name).append("`\n\n```\n").append(usage(cli).stripTrailing()).append("\n```\n\n");
            Set<String> taken = new LinkedHashSet<>();
            cli.getCommandSpec().options().stream().map(FlagReferenceTest::group).filter(groups::containsKey)
                    .forEach(taken::add);
            if (!taken.isEmpty()) {
                page.append("Also takes the shared flags of ").append(String.join(", ", taken.stream()
                        .map(g -> "[" + TITLES.getOrDefault(g, g) + "](#" + anchor(TITLES.getOrDefault(g, g)) + ")")
                        .toList())).append(".\n\n");
            }
        }
        page.append("## Flags several commands share\n\n");
        for (Map.Entry<String, List<String>> group : groups.entrySet()) {
            String title = TITLES.getOrDefault(group.getKey(), group.getKey());
            CommandLine first = commands.get(group.getValue().get(0));
            List<OptionSpec> options = first.getCommandSpec().options().stream()
                    .filter(o -> group.getKey().equals(group(o))).toList();
            String list = WordWrappedHelp.wrapped(UsageMessageSpec.SECTION_KEY_OPTION_LIST,
                    help -> help.optionListExcludingGroups(options)).render(first.getHelp());
            page.append("### ").append(title).append("\n\n").append("Taken by ")
                    .append(String.join(", ", group.getValue().stream().map(c -> "`" + c + "`").toList()))
                    .append(".\n\n```\n").append(list.stripTrailing()).append("\n```\n\n");
        }
        return page.toString().stripTrailing() + "\n";
    }

    /** The root command and each one --help lists (a hidden one is a maintainer's), by heading, at the page's width. */
    private static Map<String, CommandLine> commandLines() {
        CommandLine root = RunTestsCommand.commandLine();
        Map<String, CommandLine> commands = new LinkedHashMap<>();
        commands.put("./run-tests.sh", root);
        root.getSubcommands().forEach((name, sub) -> {
            if (!sub.getCommandSpec().usageMessage().hidden()) {
                commands.put(name, sub);
            }
        });
        for (CommandLine each : commands.values()) {
            each.setUsageHelpAutoWidth(false);
            each.setUsageHelpWidth(WIDTH);
            each.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        }
        return commands;
    }

    /** The groups of flags more than one command takes, each with the commands that take it, in page order. */
    private static Map<String, List<String>> groups(Map<String, CommandLine> commands) {
        Map<String, List<String>> takenBy = new LinkedHashMap<>();
        commands.forEach((name, cli) -> cli.getCommandSpec().options().stream().map(FlagReferenceTest::group)
                .filter(g -> g != null).distinct()
                .forEach(g -> takenBy.computeIfAbsent(g, k -> new ArrayList<>()).add(name)));
        takenBy.values().removeIf(names -> names.size() < 2);
        return takenBy;
    }

    /** The class that declares {@code option}; null for --help and --version, which every command lists itself. */
    private static String group(OptionSpec option) {
        if (option.usageHelp() || option.versionHelp() || !(option.userObject() instanceof Member member)) {
            return null;
        }
        return member.getDeclaringClass().getSimpleName();
    }

    /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
    private static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
    }

    /** The commands --help lists: a hidden one (a maintainer's) is not the users' to look up. */
    private static List<String> shown() {
        return RunTestsCommand.commandLine().getSubcommands().entrySet().stream()
                .filter(e -> !e.getValue().getCommandSpec().usageMessage().hidden()).map(Map.Entry::getKey).toList();
    }

    private static String usage(CommandLine cli) {
        StringWriter out = new StringWriter();
        cli.usage(new PrintWriter(out, true));
        return out.toString();
    }
}
