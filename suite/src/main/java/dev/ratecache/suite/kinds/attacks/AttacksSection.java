package dev.ratecache.suite.kinds.attacks;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.report.ReportSection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * --matrix attacks' table: for each attack, what the attacker held, what the normal clients kept
 * against the same edge without it, what reached the origin, and what ended the attacker's
 * connections beside the settings that bound them.
 */
public final class AttacksSection {
    static final List<String> HEADINGS = List.of("cell", "attacker's connections: taken in all / most held at once",
            "held while the normal clients ran (start / end)", "normal clients' throughput (responses/s, % of baseline)",
            "normal clients' p95 (ms; baseline)", "origin requests", "how the edge ended the attacker's connections",
            "the edge's own count: most open / at the attack's end", "the edge's bound");

    private AttacksSection() {}

    /** The section, when any cell has attack figures (its first run's). */
    public static List<ReportSection> of(List<CellResult> cells) {
        List<ReportSection.Row> rows = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        Map<String, Map<String, Object>> figures = new LinkedHashMap<>();
        for (CellResult r : cells) {
            AttackFigures f = r.runs().isEmpty() ? null : r.firstBreakdowns().figure(AttackFigures.class);
            if (f == null || r.cell().trait(Attack.class) == null) {
                continue;
            }
            String name = r.cell().name();
            Optional<CellResult> baseline = cells.stream()
                    .filter(c -> c.cell().name().equals(AttackPromise.baselineOf(name)) && !c.failed()).findFirst();
            Double with = r.median(Metric.THROUGHPUT);
            Double without = baseline.map(b -> b.median(Metric.THROUGHPUT)).orElse(null);
            Double kept = with == null || without == null || without == 0 ? null : 100 * with / without;
            Double origin = r.median(Metric.ORIGIN_REQUESTS);
            rows.add(new ReportSection.Row(name, List.of(f.opened() + " / " + f.peakHeld(),
                    f.heldAtTraffic() + " / " + f.heldAfterTraffic(),
                    String.format(Locale.ROOT, "%.1f (%s)", with, kept == null ? "no baseline"
                            : String.format(Locale.ROOT, "%.0f %%", kept)),
                    String.format(Locale.ROOT, "%.0f (%s)", r.median(Metric.P95_MS), baseline
                            .map(b -> String.format(Locale.ROOT, "%.0f", b.median(Metric.P95_MS))).orElse("n/a")),
                    origin == null ? "n/a" : String.format(Locale.ROOT, "%.0f", origin),
                    String.join("; ", f.endings().stream().map(AttackFigures.Ending::words).toList()),
                    f.edge() == null ? "n/a" : f.edge().peak().active() + " / " + f.edge().last().active(), f.bound())));
            lines.add(name + ": " + f.terminalLine() + ".");
            figures.put(name, Map.of("attack", json(f, kept)));
        }
        if (rows.isEmpty()) {
            return List.of();
        }
        String intro = "Each attack cell runs the stress plan behind the edge cache while slow clients, from an"
                + " address of their own, hold connections of the front tier; they start first, open another connection"
                + " as soon as the edge ends one, and go on until the normal clients are done and the attack has lasted"
                + " twice --client-timeout and 2 s more."
                + " The normal clients' figures are set beside the same edge's baseline cell, the plan without the"
                + " attack; they must keep " + Math.round(AttackPromise.KEPT * 100) + " % of its throughput, and the"
                + " origin's busiest second must stay within the back limit (both in checks.xml). The bound is the"
                + " edge's own setting for each attack, as its config renders it; the endings say what it did.";
        return List.of(new ReportSection("Attacks: slow clients at the edge", intro,
                List.of(new ReportSection.Table(HEADINGS, rows)), lines, figures).definedIn("attacks.md"));
    }

    private static Map<String, Object> json(AttackFigures f, Double kept) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kind", f.kind().toString());
        json.put("connections", f.connections());
        json.put("opened", f.opened());
        json.put("peak_held", f.peakHeld());
        json.put("held_at_traffic", f.heldAtTraffic());
        json.put("held_after_traffic", f.heldAfterTraffic());
        json.put("held_at_end", f.held());
        json.put("attack_s", f.attackSeconds());
        json.put("throughput_kept_pct", kept);
        List<Map<String, Object>> endings = new ArrayList<>();
        for (AttackFigures.Ending e : f.endings()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("how", e.how());
            m.put("status", e.status());
            m.put("count", e.count());
            m.put("median_s", e.medianSeconds());
            m.put("max_s", e.maxSeconds());
            endings.add(m);
        }
        json.put("endings", endings);
        json.put("bound", f.bound());
        if (f.edge() != null) {
            json.put("edge_peak_active", f.edge().peak().active());
            json.put("edge_peak_reading", f.edge().peak().reading());
            json.put("edge_peak_writing", f.edge().peak().writing());
            json.put("edge_peak_waiting", f.edge().peak().waiting());
            json.put("edge_last_active", f.edge().last().active());
        }
        return json;
    }
}
