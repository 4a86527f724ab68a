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
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** Compares two run folders; reads files only, so it starts nothing and binds no port. */
@Command(name = "compare", mixinStandardHelpOptions = true, abbreviateSynopsis = true,
        description = "Compare two run folders cell by cell: for each metric A, B, B/A, the 95 %% interval of the change"
                + " (a bootstrap of the runs' samples or seconds) and a verdict, better, worse or the same within noise."
                + " Writes compare.md, compare.json and index.html to B/compare/ (or --out). docs/compare.md says how to"
                + " read it.")
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "The run before: a run folder (results/<time>/), e.g. results/example.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "The run after.")
    Path b;

    @Option(names = "--out", paramLabel = "DIR", description = "Where compare.md, compare.json and index.html go. Default: B/compare/.")
    Path out;

    @Option(names = "--fail-on-regression", paramLabel = "PCT",
            description = "Exit 1 when any metric of B is worse than A's by more than PCT per cent and outside the noise.")
    Double failOnRegression;

    @Override
    public Integer call() throws IOException {
        List<String> problems = new ArrayList<>();
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

    private static RunFolder open(String which, Path dir, List<String> problems) {
        try {
            return RunFolder.open(dir);
        } catch (RunFolder.NotARun e) {
            problems.add(which + " " + e.getMessage());
            return null;
        }
    }
}
