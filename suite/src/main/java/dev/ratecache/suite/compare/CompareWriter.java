package dev.ratecache.suite.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.suite.report.HtmlPage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A comparison's four views: the terminal's table, compare.md, compare.json and index.html (each
 * metric's bars of A and B side by side per cell, and each cell's responses and origin requests per
 * second, A's line over B's, drawn by Chart.js from assets/ so that the page opens from file://).
 */
public final class CompareWriter {
    static final List<String> HEADINGS = List.of("cell", "metric", "A", "B", "B/A", "change", "95 % interval", "verdict");

    private final Comparison comparison;
    private final double failOnRegressionPct;

    /** {@code failOnRegressionPct}: the gate's per cent, NaN when no gate was asked for. */
    public CompareWriter(Comparison comparison, double failOnRegressionPct) {
        this.comparison = comparison;
        this.failOnRegressionPct = failOnRegressionPct;
    }

    /** Writes compare.md, compare.json, index.html and its assets into {@code dir}, which it creates. */
    public void write(Path dir, RunFolder a, RunFolder b) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("compare.md"), markdown(dir), StandardCharsets.UTF_8);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("compare.json").toFile(), json());
        Path assets = HtmlPage.chartAssets(dir);
        HtmlPage.copyResource("compare/compare.js", assets.resolve("compare.js"));
        Files.writeString(dir.resolve("index.html"), html(a, b), StandardCharsets.UTF_8);
    }

    private List<List<String>> rows() {
        List<List<String>> rows = new ArrayList<>();
        for (CellComparison c : comparison.cells()) {
            if (c.presence() != CellComparison.Presence.BOTH || !c.note().isEmpty()) {
                String said = c.presence() != CellComparison.Presence.BOTH ? c.presence().words() : c.note();
                rows.add(List.of(c.name(), "", "", "", "", "", "", said));
                continue;
            }
            for (MetricComparison m : c.metrics()) {
                rows.add(List.of(c.name(), m.metric().id(), MetricComparison.figure(m.a()), MetricComparison.figure(m.b()),
                        Double.isNaN(m.ratio()) ? "n/a" : String.format(Locale.ROOT, "%.3f", m.ratio()), m.changeText(),
                        m.intervalText(), verdictText(m)));
            }
        }
        return rows;
    }

    private String verdictText(MetricComparison m) {
        String words = m.verdict().words();
        return !Double.isNaN(failOnRegressionPct) && m.regression(failOnRegressionPct) ? words + " (REGRESSION)" : words;
    }

    /** The terminal's lines: the runs, what differs, the table, the tally. */
    public String terminal() {
        StringBuilder out = new StringBuilder();
        out.append("A: ").append(comparison.a()).append('\n');
        out.append("B: ").append(comparison.b()).append('\n');
        if (!comparison.differences().isEmpty()) {
            out.append("runs differ: ").append(String.join("; ", comparison.differences())).append('\n');
        }
        for (CellComparison c : comparison.cells()) {
            List<String> own = c.differences().stream().filter(d -> !comparison.differences().contains(d)).toList();
            if (!own.isEmpty()) {
                out.append(c.name()).append(" differs: ").append(String.join("; ", own)).append('\n');
            }
            c.warnings().forEach(w -> out.append(c.name()).append(": note: ").append(w).append('\n'));
        }
        for (CellComparison c : comparison.cells()) {
            c.words().forEach(w -> out.append(c.name()).append(": ").append(w).append('\n'));
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADINGS);
        rows.addAll(rows());
        int[] width = new int[HEADINGS.size()];
        rows.forEach(r -> {
            for (int i = 0; i < r.size(); i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        });
        for (List<String> r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.size(); i++) {
                boolean figure = i >= 2 && i <= 4;
                String cell = r.get(i);
                String padding = " ".repeat(width[i] - cell.length());
                line.append(figure ? padding + cell : cell + padding).append(i < r.size() - 1 ? "  " : "");
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        out.append(tally()).append('\n');
        return out.toString();
    }

    /** "3 better, 1 worse, 40 the same within noise, 0 not judged". */
    String tally() {
        return String.format(Locale.ROOT, "%d better, %d worse, %d the same within noise, %d not judged",
                comparison.count(Verdict.BETTER), comparison.count(Verdict.WORSE), comparison.count(Verdict.SAME),
                comparison.unjudged());
    }

    String markdown(Path dir) {
        StringBuilder md = new StringBuilder("# Compare\n\n");
        md.append("- A: `").append(comparison.a()).append("`\n");
        md.append("- B: `").append(comparison.b()).append("`\n");
        md.append("- A's switches: ").append(comparison.switchesA()).append('\n');
        md.append("- B's switches: ").append(comparison.switchesB()).append('\n');
        md.append("- What differs: ").append(comparison.differences().isEmpty() ? "nothing in the settings or switches"
                : String.join("; ", comparison.differences())).append('\n');
        md.append("- Verdicts: ").append(tally()).append('\n');
        if (!Double.isNaN(failOnRegressionPct)) {
            List<Comparison.Regression> regressions = comparison.regressions(failOnRegressionPct);
            md.append(String.format(Locale.ROOT, "- Regressions (worse by more than %s %% and outside the noise): %s%n",
                    MetricComparison.pct(failOnRegressionPct), regressions.isEmpty() ? "none"
                            : String.join("; ", regressions.stream().map(Comparison.Regression::text).toList())));
        }
        md.append("\nEach interval is the 95 % interval of B - A (in per cent of A), from a bootstrap of ")
                .append(Noise.RESAMPLES).append(" resamples of the runs' samples (latencies, rejections, errors) or")
                .append(" seconds (throughput, origin requests); a change is better or worse only when the interval")
                .append(" leaves out 0 and the change passes its metric's floor, measured on two runs of one config")
                .append(". How to read it: [docs/compare.md](").append(docsLink(dir)).append(").\n\n");
        for (CellComparison c : comparison.cells()) {
            List<String> own = c.differences().stream().filter(d -> !comparison.differences().contains(d)).toList();
            if (!own.isEmpty()) {
                md.append("- ").append(c.name()).append(" differs: ").append(String.join("; ", own)).append('\n');
            }
            c.warnings().forEach(w -> md.append("- ").append(c.name()).append(": note: ").append(w).append('\n'));
        }
        if (comparison.cells().stream().anyMatch(c -> !c.words().isEmpty())) {
            md.append("\n## What changed\n\n");
            for (CellComparison c : comparison.cells()) {
                c.words().forEach(w -> md.append("- ").append(c.name()).append(": ").append(w).append('\n'));
            }
        }
        md.append("\n| ").append(String.join(" | ", HEADINGS)).append(" |\n");
        md.append("|---".repeat(HEADINGS.size())).append("|\n");
        for (List<String> r : rows()) {
            md.append("| ").append(String.join(" | ", r.stream().map(s -> s.replace("|", "\\|")).toList())).append(" |\n");
        }
        return md.toString();
    }

    /** docs/compare.md from {@code dir}: the checkout's, as the report links its docs; else its place in a checkout. */
    private static String docsLink(Path dir) {
        try {
            Path docs = dev.ratecache.suite.Repo.root().resolve("docs/compare.md");
            return dir.toAbsolutePath().normalize().relativize(docs).toString().replace('\\', '/');
        } catch (dev.ratecache.suite.Repo.NotFound e) {
            return "docs/compare.md";
        }
    }

    Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("a", comparison.a().toString());
        json.put("b", comparison.b().toString());
        json.put("switches_a", comparison.switchesA());
        json.put("switches_b", comparison.switchesB());
        json.put("differences", comparison.differences());
        // Ordered maps: the file reads the same way every time, and diffs of two comparisons stay small.
        Map<String, Object> method = new LinkedHashMap<>();
        method.put("interval", "95 % percentile bootstrap of B - A");
        method.put("resamples", Noise.RESAMPLES);
        Map<String, Object> floors = new LinkedHashMap<>();
        for (CompareMetric m : CompareMetric.values()) {
            floors.put(m.id(), Map.of("relative_pct", 100 * m.relativeFloor(), "absolute", m.absoluteFloor()));
        }
        method.put("floors", floors);
        json.put("method", method);
        Map<String, Object> tally = new LinkedHashMap<>();
        tally.put("better", comparison.count(Verdict.BETTER));
        tally.put("worse", comparison.count(Verdict.WORSE));
        tally.put("same", comparison.count(Verdict.SAME));
        tally.put("unjudged", comparison.unjudged());
        json.put("tally", tally);
        List<Map<String, Object>> cells = new ArrayList<>();
        for (CellComparison c : comparison.cells()) {
            Map<String, Object> cell = new LinkedHashMap<>();
            cell.put("name", c.name());
            cell.put("presence", c.presence().name().toLowerCase(Locale.ROOT));
            if (!c.note().isEmpty()) {
                cell.put("note", c.note());
            }
            cell.put("differences", c.differences());
            cell.put("warnings", c.warnings());
            cell.put("words", c.words());
            List<Map<String, Object>> metrics = new ArrayList<>();
            for (MetricComparison m : c.metrics()) {
                Map<String, Object> metric = new LinkedHashMap<>();
                metric.put("id", m.metric().id());
                metric.put("unit", m.metric().unit());
                metric.put("better", m.metric().better().name().toLowerCase(Locale.ROOT));
                metric.put("a", m.a());
                metric.put("b", m.b());
                metric.put("ratio", finite(m.ratio()));
                metric.put("change_pct", finite(m.changePct()));
                metric.put("low", finite(m.low()));
                metric.put("high", finite(m.high()));
                metric.put("method", m.method());
                metric.put("mann_whitney_p", finite(m.pValue()));
                metric.put("verdict", m.verdict().name().toLowerCase(Locale.ROOT));
                if (!Double.isNaN(failOnRegressionPct)) {
                    metric.put("regression", m.regression(failOnRegressionPct));
                }
                metrics.add(metric);
            }
            cell.put("metrics", metrics);
            cells.add(cell);
        }
        json.put("cells", cells);
        if (!Double.isNaN(failOnRegressionPct)) {
            json.put("fail_on_regression_pct", failOnRegressionPct);
            json.put("regressions", comparison.regressions(failOnRegressionPct).stream().map(Comparison.Regression::text).toList());
        }
        return json;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? Math.round(v * 1000) / 1000.0 : null;
    }

    private String html(RunFolder a, RunFolder b) throws IOException {
        Map<String, Object> data = new LinkedHashMap<>();
        List<String> both = comparison.cells().stream().filter(c -> !c.metrics().isEmpty()).map(CellComparison::name).toList();
        data.put("cells", both);
        List<Map<String, Object>> bars = new ArrayList<>();
        for (CompareMetric m : CompareMetric.values()) {
            List<Double> ofA = new ArrayList<>();
            List<Double> ofB = new ArrayList<>();
            for (CellComparison c : comparison.cells()) {
                c.metrics().stream().filter(x -> x.metric() == m).findFirst().ifPresent(x -> {
                    ofA.add(x.a());
                    ofB.add(x.b());
                });
            }
            if (ofA.size() == both.size() && !ofA.isEmpty()) {
                bars.add(Map.of("metric", m.id(), "unit", m.unit(), "a", ofA, "b", ofB));
            }
        }
        data.put("bars", bars);
        Map<String, Object> seconds = new LinkedHashMap<>();
        for (String cell : both) {
            Map<String, Object> series = new LinkedHashMap<>();
            series.put("a_responses", first(a.perSecond(cell, "offered")));
            series.put("b_responses", first(b.perSecond(cell, "offered")));
            series.put("a_origin", first(a.perSecond(cell, "origin")));
            series.put("b_origin", first(b.perSecond(cell, "origin")));
            seconds.put(cell, series);
        }
        data.put("seconds", seconds);
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>Compare: ").append(escape(comparison.b().getFileName() + " against "
                        + comparison.a().getFileName())).append("</title>\n<style>\n")
                .append("body{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",sans-serif;margin:2em;color:#1a202c}\n")
                .append("table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;border-bottom:1px solid #e2e8f0;text-align:left}\n")
                .append(".better{color:#276749}.worse{color:#c53030;font-weight:600}.chart{height:280px;max-width:1000px;margin:0 0 1em}\n")
                .append("</style>\n</head>\n<body>\n<h1>Compare</h1>\n<ul>\n")
                .append("<li>A: <code>").append(escape(comparison.a().toString())).append("</code></li>\n")
                .append("<li>B: <code>").append(escape(comparison.b().toString())).append("</code></li>\n")
                .append("<li>What differs: ").append(escape(comparison.differences().isEmpty() ? "nothing in the settings or switches"
                        : String.join("; ", comparison.differences()))).append("</li>\n")
                .append("<li>Verdicts: ").append(escape(tally())).append("</li>\n</ul>\n");
        List<String> notes = comparison.cells().stream().flatMap(c -> c.warnings().stream().map(w -> c.name() + ": " + w)).toList();
        if (!notes.isEmpty()) {
            html.append("<ul class=\"notes\">\n");
            notes.forEach(n -> html.append("<li>").append(escape(n)).append("</li>\n"));
            html.append("</ul>\n");
        }
        List<String> words = comparison.cells().stream().flatMap(c -> c.words().stream().map(w -> c.name() + ": " + w)).toList();
        if (!words.isEmpty()) {
            html.append("<h2>What changed</h2>\n<ul class=\"words\">\n");
            words.forEach(w -> html.append("<li>").append(escape(w)).append("</li>\n"));
            html.append("</ul>\n");
        }
        html.append("<h2>The table</h2>\n<table>\n<tr>");
        HEADINGS.forEach(h -> html.append("<th>").append(escape(h)).append("</th>"));
        html.append("</tr>\n");
        for (List<String> r : rows()) {
            String verdict = r.get(r.size() - 1);
            String cls = verdict.startsWith("worse") ? " class=\"worse\"" : verdict.startsWith("better") ? " class=\"better\"" : "";
            html.append("<tr").append(cls).append(">");
            r.forEach(v -> html.append("<td>").append(escape(v)).append("</td>"));
            html.append("</tr>\n");
        }
        html.append("</table>\n");
        html.append("<h2>Each metric, A and B</h2>\n");
        for (Map<String, Object> bar : bars) {
            html.append("<figure class=\"chart\"><canvas data-kind=\"bar\" data-metric=\"").append(escape((String) bar.get("metric")))
                    .append("\" role=\"img\" aria-label=\"").append(escape((String) bar.get("metric")))
                    .append(", A and B per cell\"></canvas></figure>\n");
        }
        html.append("<h2>Each cell over time, A over B</h2>\n");
        for (String cell : both) {
            html.append("<h3>").append(escape(cell)).append("</h3>\n<figure class=\"chart\"><canvas data-kind=\"seconds\" data-cell=\"")
                    .append(escape(cell)).append("\" role=\"img\" aria-label=\"").append(escape(cell))
                    .append(": requests and origin requests per second, A and B\"></canvas></figure>\n");
        }
        // "</" inside the JSON would end the script element early.
        String json = new ObjectMapper().writeValueAsString(data).replace("</", "<\\/");
        html.append("<script type=\"application/json\" id=\"data\">").append(json).append("</script>\n")
                .append("<script src=\"assets/chart.umd.js\"></script>\n<script src=\"assets/charts.js\"></script>\n<script src=\"assets/compare.js\"></script>\n")
                .append("</body>\n</html>\n");
        return html.toString();
    }

    /** The first repeat's series, as the report's charts show the first run: empty when there is none. */
    private static List<Long> first(List<List<Long>> repeats) {
        return repeats.isEmpty() ? List.of() : repeats.get(0);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
