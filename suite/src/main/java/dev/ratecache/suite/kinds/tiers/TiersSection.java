package dev.ratecache.suite.kinds.tiers;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.TierFigures;
import dev.ratecache.suite.predict.CellPrediction;
import dev.ratecache.suite.report.ReportSection;
import dev.ratecache.suite.report.ReportWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's sections of --matrix tiers: one per keys cell, with its figures per tier (its first
 * run's) and the model's rejected share beside the measured one.
 */
public final class TiersSection {
    static final List<String> HEADINGS = List.of("tier", "keys", "admitted/s", "rejected %", "rejected % (model)",
            "p95 admitted (ms)", "Jain's index");
    private static final String HOW_TO_READ = "Admitted/s over the samples' window; the model's rejected % beside"
            + " the measured one (n/a where the model states a gap, in the cell's prediction); p95 of admitted"
            + " requests only; Jain's index of the admitted rates of the tier's well-behaved keys ((Σx)² / (n·Σx²):"
            + " 1 = equal shares, 1/n = one key took all).";

    private TiersSection() {}

    /** Every keys cell's section, in run order. */
    public static List<ReportSection> of(List<CellResult> cells, Map<String, CellPrediction> predictions) {
        List<ReportSection> sections = new ArrayList<>();
        for (CellResult r : cells) {
            TierFigures f = r.runs().isEmpty() ? null : r.firstBreakdowns().figure(TierFigures.class);
            if (f == null) {
                continue;
            }
            Map<String, Double> predicted = ReportSection.predictedTierRejections(r, predictions);
            List<ReportSection.Row> rows = f.tiers().stream().map(t -> new ReportSection.Row(ReportSection.cellText(t.name()),
                    List.of(String.valueOf(t.keys()), ReportSection.fmt(t.admittedPerSecond()), ReportSection.fmt(t.rejectedPct()),
                            predicted.containsKey(t.name()) ? ReportSection.fmt(predicted.get(t.name())) : "n/a",
                            t.p95AdmittedMs() == null ? "n/a" : String.format(Locale.ROOT, "%.0f", t.p95AdmittedMs()),
                            t.jain() == null ? "n/a" : String.format(Locale.ROOT, "%.3f", t.jain())))).toList();
            String noisy = f.noisyKey() == null
                    ? String.format(Locale.ROOT, "Every key well-behaved: %s %% of their requests rejected.",
                            ReportSection.fmt(f.wellBehavedRejectedPct()))
                    : String.format(Locale.ROOT, "Noisy neighbour: while key %s flooded (%s %% of its requests"
                            + " rejected), the well-behaved keys had %s %% of theirs rejected.",
                            ReportSection.cellText(f.noisyKey()),
                            f.noisyRejectedPct() == null ? "n/a" : ReportSection.fmt(f.noisyRejectedPct()),
                            ReportSection.fmt(f.wellBehavedRejectedPct()));
            sections.add(new ReportSection("Tiers: " + r.cell().name(), r.cell().describe() + ". " + noisy + " "
                    + HOW_TO_READ, List.of(new ReportSection.Table(HEADINGS, rows)), List.of(),
                    Map.of(r.cell().name(), Map.of("tiers", json(f, predicted)))).definedIn("concepts.md#cells-and-matrices"));
        }
        return sections;
    }

    /** A keys cell's figures per tier and key (its first run's), and the noisy-neighbour figure. */
    private static Map<String, Object> json(TierFigures f, Map<String, Double> predicted) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("window_s", ReportWriter.round(f.windowSeconds()));
        json.put("noisy_key", f.noisyKey());
        json.put("well_behaved_rejected_pct", ReportWriter.round(f.wellBehavedRejectedPct()));
        json.put("noisy_rejected_pct", f.noisyRejectedPct() == null ? null : ReportWriter.round(f.noisyRejectedPct()));
        List<Map<String, Object>> tiers = new ArrayList<>();
        for (var t : f.tiers()) {
            Map<String, Object> tier = new LinkedHashMap<>();
            tier.put("name", t.name());
            tier.put("keys", t.keys());
            tier.put("sent", t.sent());
            tier.put("admitted", t.admitted());
            tier.put("rejected", t.rejected());
            tier.put("admitted_per_s", ReportWriter.round(t.admittedPerSecond()));
            tier.put("rejected_pct", ReportWriter.round(t.rejectedPct()));
            tier.put("predicted_rejected_pct", predicted.containsKey(t.name()) ? ReportWriter.round(predicted.get(t.name())) : null);
            tier.put("p95_admitted_ms", t.p95AdmittedMs());
            tier.put("jain", t.jain() == null ? null : Math.round(t.jain() * 1000) / 1000.0);
            List<Map<String, Object>> keys = new ArrayList<>();
            for (var k : t.perKey()) {
                Map<String, Object> key = new LinkedHashMap<>();
                key.put("key", k.key());
                key.put("noisy", k.noisy());
                key.put("sent", k.sent());
                key.put("admitted", k.admitted());
                key.put("rejected", k.rejected());
                key.put("admitted_per_s", ReportWriter.round(k.admittedPerSecond()));
                key.put("rejected_pct", ReportWriter.round(k.rejectedPct()));
                keys.add(key);
            }
            tier.put("per_key", keys);
            tiers.add(tier);
        }
        json.put("tiers", tiers);
        return json;
    }
}
