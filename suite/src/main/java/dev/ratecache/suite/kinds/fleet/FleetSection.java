package dev.ratecache.suite.kinds.fleet;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.FleetFigures;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.predict.CellPrediction;
import dev.ratecache.suite.predict.Predictions;
import dev.ratecache.suite.report.ReportSection;
import dev.ratecache.suite.report.ReportWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section of --matrix fleet: each cell's per-client figures (its first run's, the
 * medians for the cell's columns) with the model's beside them, and what each means for the user.
 */
public final class FleetSection {
    static final List<String> HEADINGS = List.of("cell", "effective limit (x rate + burst)", "heavy key admitted/s",
            "other keys rejected %", "edge HIT %", "origin requests", "admitted p95 (ms)", "Redis fallbacks");

    private FleetSection() {}

    /** The section, when any cell has fleet figures. */
    public static List<ReportSection> of(List<CellResult> cells, Map<String, CellPrediction> predictions) {
        String tolerance = String.format(Locale.ROOT, "%.0f", 100 * Predictions.TOLERANCE);
        List<ReportSection.Row> rows = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        Map<String, Map<String, Object>> figures = new LinkedHashMap<>();
        for (CellResult r : cells) {
            FleetFigures f = r.runs().isEmpty() ? null : r.firstBreakdowns().figure(FleetFigures.class);
            if (f == null) {
                continue;
            }
            CellPrediction p = predictions.get(r.cell().name());
            var predicted = p == null ? null : p.prediction().fleet();
            var compared = predicted == null ? null : predicted.against(r.cell(), f);
            String limit = compared == null ? String.format(Locale.ROOT, "%.2f / n/a", f.effectiveLimit())
                    : compared.limitText();
            String rate = compared == null ? String.format(Locale.ROOT, "%.1f / n/a", f.admittedPerSecond())
                    : compared.rateText();
            String note = compared == null ? "no prediction" : compared.flagged()
                    ? "outside ±" + tolerance + " % of the model: " + compared.reason()
                    : "within ±" + tolerance + " % of the model";
            rows.add(new ReportSection.Row(r.cell().name(), List.of(limit, rate, ReportSection.fmt(f.crowdRejectedPct()),
                    median(r, Metric.EDGE_HIT_PCT, 1), median(r, Metric.ORIGIN_REQUESTS, 0),
                    median(r, Metric.ADMITTED_P95_MS, 0), f.fallbacks() == null ? "n/a" : String.valueOf(f.fallbacks()))));
            lines.add(r.cell().name() + ": " + f.meaning(r.cell()) + "; " + note + ".");
            figures.put(r.cell().name(), Map.of("fleet", json(r, p)));
        }
        if (rows.isEmpty()) {
            return List.of();
        }
        String intro = "One key sends at twice its tier's rate beside a crowd of keys under theirs, through each"
                + " strategy of --fleet-limit (see each cell's description). Effective limit: what the heavy key was"
                + " admitted in its busiest second (a sliding window over the client's start times), divided by its"
                + " tier's rate plus burst; 1 is the promise kept. Beside each measured figure the model's (measured /"
                + " model, ! outside ±" + tolerance + " %): per-edge as N buckets behind the balancer, split as N"
                + " buckets of rate/N and burst/N, shared and client-hash as one limit_req. Other keys rejected: what"
                + " the strategy costs the well-behaved. Redis fallbacks: requests an edge counted with its own split"
                + " limit because Redis failed or was slow (shared only).";
        return List.of(new ReportSection("Fleet: one per-client limit across the edges", intro,
                List.of(new ReportSection.Table(HEADINGS, rows)), lines, figures).definedIn("several-machines.md"));
    }

    /** A fleet cell's per-client figures (its first run's), the model's beside them, and what they mean. */
    private static Map<String, Object> json(CellResult r, CellPrediction p) {
        FleetFigures f = r.firstBreakdowns().figure(FleetFigures.class);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("edges", r.cell().trait(Cell.Fleet.class).edges());
        json.put("strategy", r.cell().trait(Cell.Fleet.class).strategy().toString());
        json.put("balance", r.cell().edgeBalance() == null ? null : r.cell().edgeBalance().toString());
        json.put("heavy_key", f.heavyKey());
        json.put("limit", f.limit());
        json.put("sent", f.sent());
        json.put("admitted", f.admitted());
        json.put("admitted_per_s", ReportWriter.round(f.admittedPerSecond()));
        json.put("busiest_second", f.busiest());
        json.put("effective_limit", ReportWriter.round(f.effectiveLimit()));
        json.put("other_keys_rejected_pct", ReportWriter.round(f.crowdRejectedPct()));
        json.put("fallbacks", f.fallbacks());
        var predicted = p == null ? null : p.prediction().fleet();
        if (predicted != null) {
            var c = predicted.against(r.cell(), f);
            json.put("predicted_effective_limit", ReportWriter.round(predicted.effectiveLimit()));
            json.put("predicted_admitted_per_s", ReportWriter.round(predicted.admittedPerSecond()));
            json.put("flagged", c.flagged());
            json.put("reason", c.reason());
        }
        json.put("meaning", f.meaning(r.cell()));
        return json;
    }

    private static String median(CellResult r, Metric m, int decimals) {
        Double v = r.median(m);
        return v == null ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
