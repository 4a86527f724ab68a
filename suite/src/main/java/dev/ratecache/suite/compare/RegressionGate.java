package dev.ratecache.suite.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ratecache.suite.report.Check;
import dev.ratecache.suite.report.JUnitXml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * --fail-on-regression as checks: one failed check per metric worse by more than the per cent and
 * outside the noise, or one passed check saying there was none, so that a CI system reading
 * checks.xml shows the gate either way.
 */
public final class RegressionGate {
    private RegressionGate() {}

    public static List<Check.Outcome> checks(Comparison comparison, double pct, Path baseline) {
        String pctText = MetricComparison.pct(pct);
        List<Check.Outcome> outcomes = new ArrayList<>();
        for (Comparison.Regression r : comparison.regressions(pct)) {
            String text = r.cell() + "." + r.metric().metric().id() + " no worse than " + pctText + " % of the baseline";
            outcomes.add(new Check.Outcome(new Check(text, r.cell(), null, "<=", pct), false,
                    "worse than " + baseline + " outside the noise: " + r.text()));
        }
        if (outcomes.isEmpty()) {
            String text = "no metric worse than " + pctText + " % of the baseline outside the noise";
            outcomes.add(new Check.Outcome(new Check(text, "", null, "<=", pct), true, String.format(Locale.ROOT,
                    "against %s: %d better, %d worse within %s %%, %d not judged", baseline,
                    comparison.count(Verdict.BETTER), comparison.count(Verdict.WORSE), pctText, comparison.unjudged())));
        }
        return outcomes;
    }

    /**
     * Writes {@code all} (the run's checks with the gate's) to the run folder's checks.xml, and the
     * gate's into summary.json's checks, which the report wrote before the comparison could be made.
     */
    public static void record(Path runDir, List<Check.Outcome> all, List<Check.Outcome> gate) throws IOException {
        JUnitXml.write(all, runDir.resolve("checks.xml"));
        Path summary = runDir.resolve("summary.json");
        if (!Files.isRegularFile(summary)) {
            return;
        }
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = (ObjectNode) json.readTree(summary.toFile());
        ArrayNode checks = root.withArray("checks");
        for (Check.Outcome o : gate) {
            checks.addObject().put("check", o.check().text()).put("passed", o.passed()).put("detail", o.detail());
        }
        json.writeValue(summary.toFile(), root);
    }
}
