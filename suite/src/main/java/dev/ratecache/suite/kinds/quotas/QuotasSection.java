package dev.ratecache.suite.kinds.quotas;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.report.Column;
import dev.ratecache.suite.report.ReportSection;
import dev.ratecache.suite.report.ReportWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section of --matrix quotas: per cell and key, what its quota admitted and rejected,
 * when it ran out, and its fullest window against the quota, with the model's figures beside them;
 * then each key over time, a tenth of a window a row: what was admitted, what the quota rejected,
 * and the least RateLimit remaining the edge told it, so the exhaustion, the 429s and the reset show.
 */
public final class QuotasSection {
    static final List<String> HEADINGS = List.of("cell", "key", "sent", "admitted (model)", "quota 429 (model)",
            "out after s (model)", "fullest window / quota", "fullest stretch / bound", "model replay agrees",
            "Redis fallbacks");
    /**
     * --matrix quotas' model of its cells: the one-edge simulation has no quota, and the model's quota
     * decides each key's requests in the section's table, at the times the client sent them.
     */
    public static final dev.ratecache.suite.predict.Predictor.Model MODEL = dev.ratecache.suite.predict.Predictor.none(
            "the model predicts a quota cell's per-key figures (the quotas table), not its latencies and caches");

    /** Rows of the timeline per window. */
    static final int SLICES_PER_WINDOW = 10;

    private QuotasSection() {}

    /** The section, when any cell has quota figures. */
    public static List<ReportSection> of(List<CellResult> cells) {
        List<ReportSection.Row> rows = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        Map<String, Map<String, Object>> json = new LinkedHashMap<>();
        List<Column> timeline = new ArrayList<>();
        for (CellResult r : cells) {
            QuotaFigures f = r.runs().isEmpty() ? null : r.firstBreakdowns().figure(QuotaFigures.class);
            if (f == null) {
                continue;
            }
            List<Object> keys = new ArrayList<>();
            for (QuotaFigures.KeyFigures k : f.keys()) {
                QuotaFigures.Predicted kp = k.predicted();
                QuotaFigures.Window fullest = k.fullest();
                rows.add(new ReportSection.Row(r.cell().name(), List.of(k.key(), String.valueOf(k.sent()),
                        beside(k.admitted(), kp.admitted(), k.sent()),
                        beside(k.quotaRejected(), kp.rejected(), k.sent()),
                        seconds(k.firstExhaustedAfterSeconds()) + " (" + seconds(kp.firstExhaustedSeconds()) + ")",
                        (fullest == null ? 0 : fullest.admitted()) + " / " + f.limit(),
                        k.mostInWindow() + " / " + f.stretchBound(),
                        f.modelAgrees() + " of " + f.modelDecisions(), String.valueOf(f.fallbacks()))));
                keys.add(keyJson(k, kp));
                timeline.add(new Column(r.cell().name() + " " + k.key(), f, k));
            }
            lines.add(meaning(r.cell().name(), f));
            Map<String, Object> cell = new LinkedHashMap<>();
            cell.put("mode", f.mode());
            cell.put("quota", f.limit());
            cell.put("window_s", f.windowMs() / 1000);
            cell.put("bound", f.stretchBound());
            cell.put("model_agrees", f.modelAgrees());
            cell.put("model_decisions", f.modelDecisions());
            cell.put("fallbacks", f.fallbacks());
            cell.put("keys", keys);
            json.put(r.cell().name(), Map.of("quotas", cell));
        }
        if (rows.isEmpty()) {
            return List.of();
        }
        String intro = "Each cell counts one quota per key across the edges in Redis, its window compressed for the run"
                + " (a minute standing for a day). In the keys plan's cells, one key spends its quota early (three times"
                + " the quota's average rate) and one spreads it (0.9 times); in the library's, the client library paces"
                + " a key to the edge's RateLimit while wanting more than the quota. Counted from the edges' logs on"
                + " Redis's clock (quota_at), so the windows are the script's own. Beside each figure the model's"
                + " (model/'s quota deciding the key's requests at the times the client sent them; ! off by more than"
                + " 2 % of the key's requests or 2). Fullest stretch: the most admitted in any window-long stretch, against"
                + " the stated bound (2N - 1 for sliding's estimate, 2N across two fixed windows). Model replay: the"
                + " model deciding the logged requests in Redis's order, which must agree with the script on each.";
        return List.of(new ReportSection("Quotas: a quota per key across the edges", intro,
                List.of(new ReportSection.Table(HEADINGS, rows), timelineTable(timeline)), lines, json)
                .definedIn("quotas.md"));
    }

    /** One key of one cell in the timeline. */
    private record Column(String name, QuotaFigures figures, QuotaFigures.KeyFigures key) {}

    /**
     * Each key over time, a tenth of its window a row: "admitted/429 r least", from the cell's first
     * request the quota decided.
     */
    static ReportSection.Table timelineTable(List<Column> columns) {
        List<String> headings = new ArrayList<>(List.of("t (s)"));
        columns.forEach(c -> headings.add(c.name() + ": admitted/429 r"));
        long windowMs = columns.stream().mapToLong(c -> c.figures().windowMs()).max().orElse(1000);
        long step = Math.max(1, windowMs / 1000 / SLICES_PER_WINDOW);
        long last = columns.stream().flatMap(c -> c.key().seconds().keySet().stream()).mapToLong(Long::longValue)
                .max().orElse(0);
        List<ReportSection.Row> rows = new ArrayList<>();
        for (long from = 0; from <= last; from += step) {
            List<String> values = new ArrayList<>();
            for (Column c : columns) {
                QuotaFigures.Second s = c.figures().slice(c.key(), from, from + step);
                values.add(s == null ? "-" : s.admitted() + "/" + s.rejected() + " r "
                        + (s.leastRemaining() < 0 ? "-" : s.leastRemaining()));
            }
            rows.add(new ReportSection.Row(String.valueOf(from), values));
        }
        return new ReportSection.Table(headings, rows);
    }

    /** "612 / 610" (measured / model), "!" when off by more than {@link QuotaFigures.Predicted#close}. */
    private static String beside(long measured, long predicted, long sent) {
        return measured + " / " + predicted + (QuotaFigures.Predicted.close(measured, predicted, sent) ? "" : " !");
    }

    private static String seconds(double s) {
        return s < 0 ? "never" : String.format(Locale.ROOT, "%.1f", s);
    }

    private static Map<String, Object> keyJson(QuotaFigures.KeyFigures k, QuotaFigures.Predicted p) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("key", k.key());
        json.put("sent", k.sent());
        json.put("admitted", k.admitted());
        json.put("quota_rejected", k.quotaRejected());
        json.put("other_rejected", k.otherRejected());
        json.put("first_exhausted_after_s", ReportWriter.round(k.firstExhaustedAfterSeconds()));
        json.put("fullest_window", k.fullest() == null ? 0 : k.fullest().admitted());
        json.put("fullest_stretch", k.mostInWindow());
        json.put("predicted_admitted", p.admitted());
        json.put("predicted_quota_rejected", p.rejected());
        json.put("predicted_first_exhausted_after_s", ReportWriter.round(p.firstExhaustedSeconds()));
        return json;
    }

    /** What the cell means for the user, in one sentence. */
    static String meaning(String cell, QuotaFigures f) {
        List<String> parts = new ArrayList<>();
        for (QuotaFigures.KeyFigures k : f.keys()) {
            double out = k.firstExhaustedAfterSeconds();
            parts.add(out < 0 ? String.format(Locale.ROOT, "%s never ran out (%d admitted, %d rejected)", k.key(),
                    k.admitted(), k.quotaRejected())
                    : String.format(Locale.ROOT, "%s ran out %.1f s into a window and had %d requests rejected by it",
                            k.key(), out, k.quotaRejected()));
        }
        return String.format(Locale.ROOT, "%s (%d per %d s, %s): %s; the model replaying the logged requests decided %d"
                + " of %d as Redis did.", cell, f.limit(), f.windowMs() / 1000, f.mode(), String.join("; ", parts),
                f.modelAgrees(), f.modelDecisions());
    }
}
