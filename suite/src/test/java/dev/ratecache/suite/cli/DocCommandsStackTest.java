package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.docs.DocCommands;
import dev.ratecache.suite.docs.DocFixtures;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every command README.md and docs/ show, run as the page shows it and required to exit with the
 * code the page says, as Rust's doc tests are. What is cheap runs whole (render, advise, explain, down,
 * --help). What starts a stack and measures for minutes runs with --dry-run here: every check the
 * real run makes before it starts (the input, the files it names, the ports, the tools), and the
 * cells it would run; the README's run command runs whole in QuickMatrixEndToEndTest, which takes
 * it from the README. With {@code -Ddocs.full=true} every command runs whole instead, a matrix under
 * --profile quick (well over an hour; {@code -Ddocs.only=REGEX} keeps the lines that match). Only a
 * command whose page says what it needs that this machine cannot give (several hosts, your own
 * app) is skipped, with that reason.
 */
@StackTest
class DocCommandsStackTest {
    /** Commands cheap enough to run whole in every test run. */
    private static final Set<String> WHOLE = Set.of("render", "advise", "explain", "down");

    private static Path fixtures;
    private static Path scratch;

    @BeforeAll
    static void fixtures() throws IOException {
        Path dir = TestDirs.fresh(DocCommandsStackTest.class, "docs");
        fixtures = DocFixtures.write(dir.resolve("fixtures"));
        scratch = dir.resolve("scratch");
    }

    static Stream<DocCommands.Command> commands() {
        return DocCommands.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void everyCommandInTheDocsExitsAsItsPageSays(DocCommands.Command command) throws Exception {
        assumeTrue(command.needs().isEmpty(), () -> "needs " + command.needs().orElseThrow());
        assumeTrue(command.text().matches(System.getProperty("docs.only", ".*")), "not chosen by -Ddocs.only");
        List<String> subcommands = List.copyOf(RunTestsCommand.commandLine().getSubcommands().keySet());
        String sub = command.subcommand(subcommands);
        boolean whole = full() || WHOLE.contains(sub) || command.args().contains("--help");
        CommandRun cli = new CommandRun();
        List<String> args = args(command, sub, whole);
        int exit = whole && sub.equals("up") ? upThenDown(args) : cli.run(args.toArray(String[]::new));

        int expected = whole || command.exits() == 2 ? command.exits() : 0;
        assertThat(exit).as("%s\nran as: ./run-tests.sh %s\n%s\n%s", command, String.join(" ", args), cli.out(), cli.err())
                .isEqualTo(expected);
        if (!whole && exit == 0) {
            assertThat(cli.out()).contains("dry run: every check passed; nothing was started");
        }
    }

    @Test
    void aDryRunChecksEverythingThenStartsNothingAndWritesNoRunFolder() throws Exception {
        Path results = TestDirs.fresh(DocCommandsStackTest.class, "dry-run");
        List<String> args = new ArrayList<>(List.of("--matrix", "caches", "--app-cache", "redis", "--dry-run",
                "--results", results.toString()));
        args.addAll(StackPorts.free().flags());
        CommandRun cli = new CommandRun();
        long childrenBefore = ProcessHandle.current().descendants().count();

        assertThat(cli.run(args.toArray(String[]::new))).as(cli.err()).isZero();
        assertThat(cli.out()).contains("would run:   hotset/app-cache", "dry run: every check passed; nothing was started");
        try (Stream<Path> written = Files.list(results)) {
            assertThat(written).isEmpty();
        }
        assertThat(ProcessHandle.current().descendants().count()).isLessThanOrEqualTo(childrenBefore);
    }

    @Test
    void aDryRunRefusesBadInputAsTheRealRunWould() {
        CommandRun cli = new CommandRun();

        assertThat(cli.run("--dry-run", "--only", "stress/nowhere")).isEqualTo(2);
        assertThat(cli.err()).contains("stress/nowhere").doesNotContain("dry run");
    }

    /**
     * up stays in the foreground until down stops it, as the page says: started as its own process
     * (down signals the up's PID, and this JVM is not an up), its exit code once down did.
     */
    private static int upThenDown(List<String> args) throws Exception {
        Path results = Files.createDirectories(Path.of(args.get(args.indexOf("--results") + 1)));
        // As from a terminal: env gives the JVM SIGINT's default handling back, as UpDownTest explains.
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT", ManagedProcess.javaBinary(),
                "-Dratecache.home=" + Repo.root(), "-cp", System.getProperty("java.class.path"),
                RunTestsCommand.class.getName()));
        command.addAll(args);
        Path output = results.resolve("up.out");
        try (ManagedProcess up = ManagedProcess.start("up", command, results, output)) {
            Awaitility.await().atMost(Duration.ofMinutes(3)).until(() -> !up.isAlive()
                    || Files.exists(output) && Files.readString(output).contains("run-tests.sh up: running"));
            assertThat(new CommandRun().run("down", "--results", results.toString())).as(Files.readString(output)).isZero();
            return up.waitFor(Duration.ofMinutes(1));
        }
    }

    private static boolean full() {
        return Boolean.getBoolean("docs.full");
    }

    /**
     * The page's words, with the files it names taken from the fixtures, folders it writes in this
     * test's scratch, and the test's own free ports and results folder where the page gives none.
     */
    private static List<String> args(DocCommands.Command command, String sub, boolean whole) {
        List<String> args = new ArrayList<>();
        for (String word : command.args()) {
            Path fixture = fixtures.resolve(word);
            if (!word.startsWith("-") && !word.contains("/") && fixture.toFile().isFile()) {
                args.add(fixture.toString());
            } else if (word.startsWith("/tmp/")) {
                args.add(scratch.resolve(word.substring("/tmp/".length())).toString());
            } else {
                args.add(word);
            }
        }
        CommandLine.Model.CommandSpec spec = sub.isEmpty() ? RunTestsCommand.commandLine().getCommandSpec()
                : RunTestsCommand.commandLine().getSubcommands().get(sub).getCommandSpec();
        List<String> ports = StackPorts.free().flags();
        for (int i = 0; i + 1 < ports.size(); i += 2) {
            addUnlessGiven(spec, args, ports.get(i), ports.get(i + 1));
        }
        addUnlessGiven(spec, args, "--results", scratch.resolve("results").toString());
        if (whole && full()) {
            addUnlessGiven(spec, args, "--profile", "quick");
            addUnlessGiven(spec, args, "--no-dashboards", null);
        } else if (!whole) {
            args.add("--dry-run");
        }
        return args;
    }

    private static void addUnlessGiven(CommandLine.Model.CommandSpec spec, List<String> args, String flag, String value) {
        if (spec.findOption(flag) == null || args.contains(flag)) {
            return;
        }
        args.add(flag);
        if (value != null) {
            args.add(value);
        }
    }
}
