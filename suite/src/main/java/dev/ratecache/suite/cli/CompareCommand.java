package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.compare.CompareWriter;
import dev.ratecache.suite.compare.Comparer;
import dev.ratecache.suite.compare.Comparison;
import dev.ratecache.suite.compare.RunFolder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.stack.StackPorts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Compares two run folders, reading files only, so it starts nothing and binds no port; or, given two
 * configs, runs both (their cells in turn) and compares the two runs.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, abbreviateSynopsis = true,
        description = "Compare two run folders cell by cell: for each metric A, B, B/A, the 95 %% interval of the change"
                + " (a bootstrap of the runs' samples or seconds) and a verdict, better, worse or the same within noise,"
                + " and what changed in words beside the model's prediction of it. Writes compare.md, compare.json and"
                + " index.html to B/compare/ (or --out). With --switches twice (or --nginx-conf twice) instead of A and"
                + " B, it runs the matrix with each, cell by cell in turn, and compares the two runs. docs/compare.md"
                + " says how to read it.")
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "A",
            description = "The run before: a run folder (results/<time>/), e.g. results/example.")
    Path a;

    @Parameters(index = "1", arity = "0..1", paramLabel = "B", description = "The run after.")
    Path b;

    @Option(names = "--out", paramLabel = "DIR", description = "Where compare.md, compare.json and index.html go. Default: B/compare/.")
    Path out;

    @Option(names = "--fail-on-regression", paramLabel = "PCT",
            description = "Exit 1 when any metric of B is worse than A's by more than PCT per cent and outside the noise.")
    Double failOnRegression;

    @Option(names = "--switches", paramLabel = "FLAGS",
            description = "Instead of A and B, twice: the run command's flags for A, then for B, each in one string,"
                    + " e.g. --switches \"--front-burst 200\" --switches \"--front-burst 50\" (\"\" for the defaults)."
                    + " Both run over the same --matrix, --only, --profile and --repeat, their cells in turn (A's, B's,"
                    + " the next...), each into a run folder of its own; then the two runs are compared.")
    List<String> switches = new ArrayList<>();

    @Option(names = "--nginx-conf", paramLabel = "FILE",
            description = "Instead of A and B, twice: your old nginx config, then the new, each as the front tier"
                    + " (the run command's --nginx-conf), run and compared as --switches runs its two.")
    List<Path> configs = new ArrayList<>();

    @Option(names = "--matrix", paramLabel = "KIND", description = "With two configs: the matrix both run (the run"
            + " command's --matrix). Default: default.")
    MatrixKind matrix;

    @Option(names = "--only", paramLabel = "CELL[,CELL]", split = ",",
            description = "With two configs: only these cells, for both.")
    List<String> only = new ArrayList<>();

    @Option(names = "--profile", paramLabel = "PROFILE", description = "With two configs: the profile both run."
            + " Default: default.")
    Profile profile;

    @Option(names = "--repeat", paramLabel = "N", description = "With two configs: each cell N times, on both sides."
            + " Default: the profile's.")
    String repeat;

    @Option(names = "--results", paramLabel = "DIR", description = "With two configs: where the two run folders go."
            + " Default: results/ in the checkout.")
    Path results;

    @Option(names = "--no-dashboards", description = "With two configs: skip JMeter's dashboards of each cell, on both sides.")
    boolean noDashboards;

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    DryRun dryRun = new DryRun();

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (!switches.isEmpty() || !configs.isEmpty()) {
            return twoConfigs();
        }
        List<String> problems = new ArrayList<>();
        if (a == null || b == null) {
            problems.add("compare takes two run folders, A B, or two configs: --switches \"...\" --switches \"...\", or"
                    + " --nginx-conf OLD --nginx-conf NEW");
        } else {
            runOnly().ifPresent(problems::add);
        }
        Refuse.ifAny(spec, problems);
        RunFolder before = open("A", a, problems);
        RunFolder after = open("B", b, problems);
        if (before != null && after != null && Files.isSameFile(a, b)) {
            problems.add("A and B are the same folder (" + Printable.shown(a.toString()) + "): give two runs");
        }
        BaselineOptions.pctProblem("--fail-on-regression", failOnRegression).ifPresent(problems::add);
        Path dir = out != null ? out : b.resolve("compare");
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            problems.add("--out " + Printable.shown(dir.toString()) + " is a file, not a folder");
        }
        Refuse.ifAny(spec, problems);
        if (dryRun.on) {
            return dryRun.report(spec.commandLine().getOut(), List.of("compare " + a + " with " + b + " into " + dir));
        }
        return compare(before, after, dir);
    }

    /** The comparison of two runs read: its table on the terminal, its files in {@code dir}; the exit code. */
    private int compare(RunFolder before, RunFolder after, Path dir) throws IOException {
        List<String> problems = new ArrayList<>();
        Comparison comparison;
        try {
            comparison = Comparer.compare(before, after);
        } catch (IOException e) {
            // A torn or foreign JTL or timeline: the reader's one line names the file.
            problems.add("cannot compare: " + Printable.shown(String.valueOf(e.getMessage())));
            Refuse.ifAny(spec, problems);
            return 2;
        }
        double pct = failOnRegression == null ? Double.NaN : failOnRegression;
        CompareWriter writer = new CompareWriter(comparison, pct);
        writer.write(dir, before, after);
        PrintWriter terminal = spec.commandLine().getOut();
        terminal.print(writer.terminal());
        terminal.println("compare: " + dir + " (index.html, compare.md, compare.json)");
        terminal.flush();
        if (failOnRegression != null && !comparison.regressions(pct).isEmpty()) {
            BaselineOptions.sayRegressions(spec.commandLine().getErr(), comparison, pct);
            return 1;
        }
        return 0;
    }

    /** Flags that choose what two configs run, given beside two run folders, which were run already. */
    private java.util.Optional<String> runOnly() {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        List<String> given = new ArrayList<>();
        for (String flag : List.of("--matrix", "--only", "--profile", "--repeat", "--results", "--no-dashboards")) {
            if (parsed.hasMatchedOption(flag)) {
                given.add(flag);
            }
        }
        return given.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(String.join(", ", given)
                + " choose what two configs run (--switches, --nginx-conf): A and B were run already, so drop "
                + (given.size() == 1 ? "it" : "them"));
    }

    /** --switches or --nginx-conf, twice: both runs, their cells in turn, then their comparison. */
    private int twoConfigs() throws IOException, InterruptedException {
        List<String> problems = new ArrayList<>();
        if (a != null) {
            problems.add("compare takes two run folders or two configs, not both: drop " + Printable.shown(a.toString())
                    + (b == null ? "" : " " + Printable.shown(b.toString())) + ", or the configs");
        }
        List<TwoConfigs.Side> sides = TwoConfigs.sides(switches, configs, problems);
        if (out != null && Files.exists(out) && !Files.isDirectory(out)) {
            problems.add("--out " + Printable.shown(out.toString()) + " is a file, not a folder");
        }
        BaselineOptions.pctProblem("--fail-on-regression", failOnRegression).ifPresent(problems::add);
        Refuse.ifAny(spec, problems);
        List<String> shared = shared();
        problems.addAll(TwoConfigs.problems(sides, shared, results, true));
        Refuse.ifAny(spec, problems);
        PrintWriter terminal = spec.commandLine().getOut();
        if (dryRun.on) {
            return dryRun.report(terminal, sides.stream().map(s -> s.label() + ": ./run-tests.sh " + String.join(" ",
                    s.args(shared).stream().map(Printable::shown).toList())).toList());
        }
        terminal.println("compare: A is " + sides.get(0).given() + ", B is " + sides.get(1).given()
                + "; their cells run in turn, A's then B's");
        terminal.flush();
        TwoConfigs.Runs runs = TwoConfigs.run(sides, shared, terminal, spec.commandLine().getErr());
        if (!runs.both()) {
            spec.commandLine().getErr().println("run-tests.sh: compare: a run stopped before its first cell: nothing"
                    + " to compare");
            return Math.max(runs.exitA(), runs.exitB());
        }
        RunFolder before;
        RunFolder after;
        try {
            before = RunFolder.open(runs.a());
            after = RunFolder.open(runs.b());
        } catch (RunFolder.NotARun e) {
            spec.commandLine().getErr().println("run-tests.sh: compare: no comparison: " + e.getMessage());
            return 1;
        }
        terminal.println();
        int compared = compare(before, after, out != null ? out : runs.b().resolve("compare"));
        return Math.max(compared, Math.max(runs.exitA(), runs.exitB()));
    }

    /** The flags both sides run with, as the run command takes them. */
    private List<String> shared() {
        List<String> shared = new ArrayList<>();
        if (matrix != null) {
            shared.addAll(List.of("--matrix", matrix.toString()));
        }
        if (!only.isEmpty()) {
            shared.addAll(List.of("--only", String.join(",", only)));
        }
        if (profile != null) {
            shared.addAll(List.of("--profile", profile.toString()));
        }
        if (repeat != null) {
            shared.addAll(List.of("--repeat", repeat));
        }
        if (results != null) {
            shared.addAll(List.of("--results", results.toString()));
        }
        if (noDashboards) {
            shared.add("--no-dashboards");
        }
        shared.addAll(ports.flags());
        return shared;
    }

    private static RunFolder open(String which, Path dir, List<String> problems) {
        try {
            return RunFolder.open(dir);
        } catch (RunFolder.NotARun e) {
            problems.add(which + " " + e.getMessage());
            return null;
        }
    }
}
