package dev.ratecache.suite.cli;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.report.Check;
import dev.ratecache.suite.report.Machine;
import dev.ratecache.suite.report.ReportWriter;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.stack.StackPorts;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The command line behind run-tests.sh (named so that no tool takes it for a test class). */
@Command(name = "run-tests.sh", mixinStandardHelpOptions = true, sortOptions = false,
        usageHelpAutoWidth = true, abbreviateSynopsis = true,
        // One string per paragraph: picocli wraps it at the terminal's width, between words.
        description = {
            "Runs a matrix of rate-limiting and caching configurations: for each cell it starts fresh Nginx tiers"
                    + " in front of the origin app server, runs a JMeter plan through them, and measures. Writes a"
                    + " report to results/<timestamp>/ (results/latest points at the newest).",
            "",
            // Examples are laid out by hand, so each stays within the narrowest (80-column) help.
            "  ./run-tests.sh                  the reference experiment's matrix",
            "  ./run-tests.sh --profile quick  the same, scaled down (under 2 minutes)",
            "  ./run-tests.sh test             run every test (./mvnw -B verify)",
            "  ./run-tests.sh render DIR       write the rendered Nginx configs to DIR",
            "  ./run-tests.sh peak             each path's peak req/s against nginx's own",
            "  ./run-tests.sh up [switches]    start the stack and keep it up (Ctrl-C stops it)",
            "  ./run-tests.sh down             stop the stack up started, from another terminal",
            ""},
        subcommands = {RenderCommand.class, GuiCommand.class, PeakCommand.class, UpCommand.class, DownCommand.class},
        footer = {"", "Every process the suite starts is stopped on exit, on failure and on Ctrl-C."})
public final class RunTestsCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    NginxSwitches switches = new NginxSwitches();

    @Option(names = "--origin-threads", paramLabel = "N",
            description = "Request threads of the suite's origin (its capacity on /hare is about N x 10 responses/s). Default: ${DEFAULT-VALUE}.")
    int originThreads = 10;

    @Option(names = "--matrix", paramLabel = "default|full",
            description = "default: the reference experiment's cells; full: every combination of front limit, back limit,"
                    + " server cache and client cache per plan, plus direct. Default: ${DEFAULT-VALUE}.")
    String matrix = "default";

    @Option(names = "--only", paramLabel = "CELL[,CELL]", split = ",",
            description = "Run only these cells, e.g. --only stress/server-cache,load/both.")
    List<String> only = new ArrayList<>();

    @Option(names = "--plan", paramLabel = "FILE.jmx",
            description = "Your own JMeter plan instead of the stress and load plans; its cells are named after the file.")
    Path plan;

    @Option(names = "--profile", paramLabel = "quick|default|full",
            description = "quick: scaled down for CI and a first look (under 2 minutes); default: the reference sizes;"
                    + " full: the reference sizes, each cell 3 times. Default: ${DEFAULT-VALUE}.")
    String profile = "default";

    @Option(names = "--repeat", paramLabel = "N",
            description = "Run each cell N times and report the median and the spread. Default: the profile's (1, or 3 for full).")
    Integer repeat;

    @Option(names = "--assert", paramLabel = "CHECK",
            description = "A pass/fail check, e.g. --assert 'stress/server-cache.rejected_pct == 0'; repeatable."
                    + " A failed check makes the exit code 1; checks.xml has them as JUnit XML.")
    List<String> asserts = new ArrayList<>();

    @Option(names = "--assert-file", paramLabel = "FILE", description = "Checks, one per line (# starts a comment).")
    Path assertFile;

    @Option(names = "-J", paramLabel = "NAME=VALUE",
            description = "A JMeter property for every cell, e.g. -Jusers=10 -Jloops=5; repeatable.")
    Map<String, String> jmeterProperties = new LinkedHashMap<>();

    @Option(names = "--results", paramLabel = "DIR", description = "Where run folders go. Default: results/ in the checkout.")
    Path results;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new RunTestsCommand());
        cli.setParameterExceptionHandler(RunTestsCommand::badInput);
        cli.setExecutionExceptionHandler((e, c, parsed) -> {
            if (e instanceof Repo.NotFound) {
                c.getErr().println("run-tests.sh: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        return cli;
    }

    /** Bad input: one clear line (and where to look), before anything starts. */
    private static int badInput(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        String hint = "";
        // picocli's own suggestions: the flags (or subcommands) that look like a mistyped one.
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            // All of them, as picocli's own handler lists them: its ranking does not always put the intended one first.
            hint = " (did you mean one of " + String.join(", ", unmatched.getSuggestions()) + "?)";
        }
        cli.getErr().println("run-tests.sh: " + e.getMessage() + hint);
        cli.getErr().println("Try ./run-tests.sh --help for every flag and its accepted values.");
        return 2;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Run run = validate();
        LocalDateTime started = LocalDateTime.now().withNano(0);
        Path runDir = (results != null ? results : Repo.root().resolve("results"))
                .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(runDir);
        out.println("run folder: " + runDir);
        out.println("matrix:     " + run.cells.size() + " cells (" + matrix + ", profile " + run.profile
                + (run.repeats > 1 ? ", each " + run.repeats + " times" : "") + ")");
        out.println("switches:   " + switches.describe());
        out.flush();

        MatrixRunner.Outcome outcome = new MatrixRunner(new MatrixRunner.Options(run.cells, run.profile, run.repeats,
                switches, ports, originThreads, jmeterProperties, runDir), out).run();

        List<Check.Outcome> checked = run.checks.stream().map(c -> c.evaluate(outcome.cells())).toList();
        long reportStart = System.nanoTime();
        boolean comparable = run.profile != Profile.QUICK && this.plan == null && jmeterProperties.isEmpty()
                && switches.origins().isEmpty();
        new ReportWriter(runDir, describeRun(run, started), outcome, checked, comparable).write();
        linkLatest(runDir);
        out.println();
        out.println(ReportWriter.terminal(runDir, outcome, checked, comparable));
        out.printf(java.util.Locale.ROOT, "report: %s (index.html, report.md, summary.json, summary.csv); %.1f %% of %.0f s"
                + " outside JMeter runs (report %.1f s)%n", runDir, outcome.overheadPct(), outcome.totalSeconds(),
                (System.nanoTime() - reportStart) / 1e9);
        boolean checksFailed = checked.stream().anyMatch(c -> !c.passed());
        if (outcome.anyFailed()) {
            spec.commandLine().getErr().println("run-tests.sh: some cells failed; the report marks them (INCOMPLETE)");
        }
        if (checksFailed) {
            spec.commandLine().getErr().println("run-tests.sh: " + checked.stream().filter(c -> !c.passed()).count()
                    + " check(s) failed: " + String.join("; ", checked.stream().filter(c -> !c.passed())
                    .map(c -> c.check().text() + " (" + c.detail() + ")").toList()));
        }
        return outcome.anyFailed() || checksFailed ? 1 : 0;
    }

    /** What a run will do, once every input has been checked. */
    record Run(List<Cell> cells, Profile profile, int repeats, List<Check> checks) {}

    /** Every input checked before anything starts; all problems reported at once, one line each. */
    Run validate() {
        List<String> problems = new ArrayList<>(switches.problems());
        if (originThreads < 1 || originThreads > 1000) {
            problems.add("--origin-threads must be a whole number from 1 to 1000 (got " + originThreads + ")");
        }
        Profile chosen = Profile.DEFAULT;
        try {
            chosen = Profile.parse(profile);
        } catch (IllegalArgumentException e) {
            problems.add("--profile " + e.getMessage());
        }
        int repeats = repeat != null ? repeat : chosen.repeats();
        if (repeats < 1 || repeats > 100) {
            problems.add("--repeat must be a whole number from 1 to 100 (got " + repeats + ")");
        }
        List<Plan> plans = Plan.REFERENCE;
        if (plan != null) {
            Plan mine = Plan.custom(plan);
            if (!Files.isRegularFile(plan) || !plan.toString().endsWith(".jmx")) {
                problems.add("--plan " + plan + " is not a .jmx file: give the path of a JMeter plan");
            } else if (Plan.builtIn(mine.name()).isPresent()) {
                problems.add("--plan " + plan + ": rename your plan (" + String.join(", ", Plan.builtInNames())
                        + " are the suite's own plans' names)");
            }
            plans = List.of(mine);
        }
        List<Cell> cells = List.of();
        try {
            cells = Matrix.select(filterBySwitches(Matrix.of(matrix, plans)), only);
            if (cells.isEmpty()) {
                problems.add("no cell matches --cache/--front-limit/--back-limit as given: drop one of them or use --only");
            }
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        jmeterProperties.forEach((name, value) -> propertyProblem(name, value).ifPresent(problems::add));
        List<String> checkTexts = new ArrayList<>(asserts);
        if (assertFile != null) {
            try {
                Files.readAllLines(assertFile).stream().map(String::trim)
                        .filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(checkTexts::add);
            } catch (java.io.IOException e) {
                problems.add("--assert-file " + assertFile + " cannot be read: give a file of checks, one per line");
            }
        }
        List<Check> checks = new ArrayList<>();
        for (String text : checkTexts) {
            try {
                checks.add(Check.parse(text, cells));
            } catch (IllegalArgumentException e) {
                problems.add("--assert " + e.getMessage());
            }
        }
        problems.addAll(ports.problems(switches.origins().isEmpty()));
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("\n  ", problems));
        }
        return new Run(cells, chosen, repeats, checks);
    }

    /** The plans' numeric and on/off properties, checked here so a typo fails before anything starts. */
    static Optional<String> propertyProblem(String name, String value) {
        if (Plan.isCount(name) && !value.matches("\\d{1,9}")) {
            return Optional.of("-J" + name + "=" + value + ": " + name + " must be a whole number >= 0");
        }
        if (name.equals("client_cache") && !value.equals("true") && !value.equals("false")) {
            return Optional.of("-Jclient_cache=" + value + ": use true or false (the matrix sets it per cell)");
        }
        return Optional.empty();
    }

    /** Matrix switches given on the command line narrow the matrix to the cells that agree with them. */
    private List<Cell> filterBySwitches(List<Cell> cells) {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        boolean cacheGiven = parsed.hasMatchedOption("--cache");
        boolean frontGiven = parsed.hasMatchedOption("--front-limit");
        boolean backGiven = parsed.hasMatchedOption("--back-limit");
        return cells.stream()
                .filter(c -> !cacheGiven || c.serverCache() == switches.cache())
                .filter(c -> !frontGiven || c.direct() || c.frontLimit() == switches.frontLimit())
                .filter(c -> !backGiven || c.direct() || c.backLimit() == switches.backLimit())
                .toList();
    }

    private Map<String, Object> describeRun(Run chosen, LocalDateTime started) {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("started", started.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME));
        run.put("matrix", matrix);
        run.put("profile", chosen.profile.toString());
        run.put("repeats", chosen.repeats);
        run.put("switches", switches.describe());
        run.put("origin", switches.origins().isEmpty() ? "the suite's own, " + originThreads + " request threads"
                : switches.origins().toString());
        if (!jmeterProperties.isEmpty()) {
            run.put("jmeter_properties", jmeterProperties.toString());
        }
        run.put("machine", Machine.oneLine(NginxServer.version()));
        return run;
    }

    /** results/latest points at the newest run. */
    private static void linkLatest(Path runDir) {
        Path latest = runDir.getParent().resolve("latest");
        try {
            Files.deleteIfExists(latest);
            Files.createSymbolicLink(latest, runDir.getFileName());
        } catch (java.io.IOException | UnsupportedOperationException e) {
            // A file system without links still has the run folder itself.
        }
    }
}
