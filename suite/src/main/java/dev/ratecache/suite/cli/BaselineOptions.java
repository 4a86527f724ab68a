package dev.ratecache.suite.cli;

import dev.ratecache.suite.compare.CompareWriter;
import dev.ratecache.suite.compare.Comparer;
import dev.ratecache.suite.compare.Comparison;
import dev.ratecache.suite.compare.MetricComparison;
import dev.ratecache.suite.compare.RegressionGate;
import dev.ratecache.suite.compare.RunFolder;
import dev.ratecache.suite.report.Check;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * A run's comparison with an earlier one (--baseline), and the gate on it (--fail-on-regression):
 * a mixin, so that the run command's own flags stay as they were.
 */
final class BaselineOptions {
    @Option(names = "--baseline", paramLabel = "DIR",
            description = "Once the run finishes, compare it with the run folder DIR (./run-tests.sh compare DIR"
                    + " NEW): the table on the terminal, compare.md, compare.json and index.html in the run folder's"
                    + " compare/.")
    Path baseline;

    @Option(names = "--fail-on-regression", paramLabel = "PCT",
            description = "With --baseline: a metric worse than the baseline's by more than PCT per cent and outside"
                    + " the noise is a failed check (checks.xml) and makes the exit code 1.")
    Double failOnRegression;

    /** What is wrong with the flags, before anything starts. */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (baseline != null) {
            try {
                RunFolder.open(baseline);
            } catch (RunFolder.NotARun e) {
                problems.add("--baseline " + e.getMessage());
            }
        } else if (failOnRegression != null) {
            problems.add("--fail-on-regression compares with a baseline: give --baseline DIR too");
        }
        pctProblem("--fail-on-regression", failOnRegression).ifPresent(problems::add);
        return problems;
    }

    static Optional<String> pctProblem(String flag, Double pct) {
        if (pct != null && (!Double.isFinite(pct) || pct < 0)) {
            return Optional.of(flag + " is a per cent, 0 or more (got " + MetricComparison.pct(pct) + ")");
        }
        return Optional.empty();
    }

    /**
     * Compares the finished run in {@code runDir} with the baseline, when one was given; with
     * --fail-on-regression, the gate's checks, already written with {@code checked} to checks.xml.
     */
    List<Check.Outcome> compare(Path runDir, List<Check.Outcome> checked, PrintWriter out, PrintWriter err)
            throws IOException {
        if (baseline == null) {
            return List.of();
        }
        RunFolder before;
        RunFolder after;
        try {
            before = RunFolder.open(baseline);
            after = RunFolder.open(runDir);
        } catch (RunFolder.NotARun e) {
            // The baseline was read before the run, so this is a folder changed or removed since.
            err.println("run-tests.sh: no comparison with the baseline: " + e.getMessage());
            return failOnRegression == null ? List.of() : record(runDir, checked, List.of(new Check.Outcome(new Check(
                    "compared with the baseline", "", null, "==", 1), false, e.getMessage())));
        }
        Comparison comparison;
        try {
            comparison = Comparer.compare(before, after);
        } catch (IOException e) {
            // The run's own report stands; only the comparison is lost, and a gate cannot pass unjudged.
            String why = "the comparison with the baseline failed: " + e.getMessage();
            err.println("run-tests.sh: " + why);
            return failOnRegression == null ? List.of() : record(runDir, checked, List.of(new Check.Outcome(new Check(
                    "compared with the baseline", "", null, "==", 1), false, why)));
        }
        double pct = failOnRegression == null ? Double.NaN : failOnRegression;
        CompareWriter writer = new CompareWriter(comparison, pct);
        Path dir = runDir.resolve("compare");
        writer.write(dir, before, after);
        out.println();
        out.print(writer.terminal());
        out.println("compare: " + dir + " (index.html, compare.md, compare.json)");
        out.flush();
        if (failOnRegression == null) {
            return List.of();
        }
        List<Check.Outcome> gate = record(runDir, checked, RegressionGate.checks(comparison, pct, baseline));
        if (!comparison.regressions(pct).isEmpty()) {
            sayRegressions(err, comparison, pct);
        }
        return gate;
    }

    /** The gate's checks written with the run's to checks.xml and summary.json; the gate's returned. */
    private static List<Check.Outcome> record(Path runDir, List<Check.Outcome> checked, List<Check.Outcome> gate)
            throws IOException {
        List<Check.Outcome> all = new ArrayList<>(checked);
        all.addAll(gate);
        RegressionGate.record(runDir, all, gate);
        return gate;
    }

    static void sayRegressions(PrintWriter err, Comparison comparison, double pct) {
        List<Comparison.Regression> regressions = comparison.regressions(pct);
        err.println("run-tests.sh: " + regressions.size() + " metric(s) worse than the baseline by more than "
                + MetricComparison.pct(pct) + " % and outside the noise: "
                + String.join("; ", regressions.stream().map(Comparison.Regression::text).toList()));
        err.flush();
    }
}
