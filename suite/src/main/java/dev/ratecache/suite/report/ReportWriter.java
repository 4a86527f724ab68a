package dev.ratecache.suite.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.LibraryDriver;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Reference;
import java.awt.Color;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.text.StringEscapeUtils;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * Writes a matrix run's report into its folder: summary.json and summary.csv (every figure, with
 * units), report.md (the tables), index.html (tables, charts and links to each cell's JMeter
 * dashboard and graphs) and charts/*.png comparing the cells.
 */
public final class ReportWriter {
    /** The charts comparing cells: the metric and the file name. */
    static final List<Metric> CHARTED = List.of(Metric.THROUGHPUT, Metric.REJECTED_PCT, Metric.P95_MS, Metric.ORIGIN_REQUESTS);

    private final Path dir;
    private final Map<String, Object> run;
    private final MatrixRunner.Outcome outcome;
    private final List<Check.Outcome> checks;

    private final boolean comparable;

    /**
     * {@code run} describes the run (profile, matrix, switches, machine, ...) for the report's header;
     * {@code comparable} says whether the run has the reference experiment's sizes, so that its
     * published figures belong beside ours.
     */
    public ReportWriter(Path dir, Map<String, Object> run, MatrixRunner.Outcome outcome, List<Check.Outcome> checks,
            boolean comparable) {
        this.comparable = comparable;
        this.dir = dir;
        this.run = run;
        this.outcome = outcome;
        this.checks = checks;
    }

    public void write() throws IOException {
        writeJson();
        writeCsv();
        writeCharts();
        Files.writeString(dir.resolve("report.md"), markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("index.html"), html(), StandardCharsets.UTF_8);
        if (!checks.isEmpty()) {
            Files.writeString(dir.resolve("checks.xml"), Check.junitXml(checks), StandardCharsets.UTF_8);
        }
    }

    private void writeJson() throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        Map<String, Object> header = new LinkedHashMap<>(run);
        header.put("total_s", round(outcome.totalSeconds()));
        header.put("jmeter_s", round(outcome.jmeterSeconds()));
        header.put("overhead_pct", round(outcome.overheadPct()));
        header.put("complete", !outcome.anyFailed());
        json.put("run", header);
        List<Map<String, String>> metrics = new ArrayList<>();
        for (Metric m : Metric.values()) {
            metrics.add(Map.of("id", m.id(), "unit", m.unit(), "meaning", m.meaning()));
        }
        json.put("metrics", metrics);
        List<Map<String, Object>> cells = new ArrayList<>();
        for (CellResult r : outcome.cells()) {
            Map<String, Object> cell = new LinkedHashMap<>();
            cell.put("name", r.cell().name());
            cell.put("plan", r.cell().plan().name());
            cell.put("description", r.cell().describe());
            cell.put("status", r.failed() ? "failed" : "ok");
            if (r.failed()) {
                cell.put("failure", r.failure());
                cell.put("log", dir.relativize(r.log().toAbsolutePath()).toString());
            }
            cell.put("runs", r.runs().size());
            Map<String, Object> values = new LinkedHashMap<>();
            for (Metric m : Metric.values()) {
                Double median = r.median(m);
                if (median != null) {
                    values.put(m.id(), Map.of("median", round(median), "min", round(r.min(m)), "max", round(r.max(m))));
                }
            }
            cell.put("metrics", values);
            reference(r).ifPresent(ref -> {
                Map<String, Object> reference = new LinkedHashMap<>();
                reference.put("throughput", ref.throughput());
                reference.put("rejected_pct", ref.rejectedPct());
                if (ref.meanMs() != null) {
                    reference.put("mean_ms", ref.meanMs());
                    reference.put("min_ms", ref.minMs());
                    reference.put("max_ms", ref.maxMs());
                }
                cell.put("reference", reference);
                explanation(r).ifPresent(e -> cell.put("why_ours_differs", e));
            });
            cells.add(cell);
        }
        json.put("cells", cells);
        List<Map<String, Object>> checkList = new ArrayList<>();
        for (Check.Outcome o : checks) {
            checkList.add(Map.of("check", o.check().text(), "passed", o.passed(), "detail", o.detail()));
        }
        json.put("checks", checkList);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("summary.json").toFile(), json);
    }

    private void writeCsv() throws IOException {
        List<String> header = new ArrayList<>(List.of("cell", "status", "runs"));
        for (Metric m : Metric.values()) {
            header.add(m.id() + " [" + m.unit() + "]");
        }
        header.addAll(List.of("reference throughput [responses/s]", "reference rejected_pct [%]",
                "reference mean_ms [ms]", "reference min_ms [ms]", "reference max_ms [ms]"));
        try (Writer w = Files.newBufferedWriter(dir.resolve("summary.csv"));
                CSVPrinter csv = new CSVPrinter(w, CSVFormat.DEFAULT.builder().setHeader(header.toArray(String[]::new)).get())) {
            for (CellResult r : outcome.cells()) {
                List<Object> row = new ArrayList<>(List.of(r.cell().name(), r.failed() ? "failed" : "ok", r.runs().size()));
                for (Metric m : Metric.values()) {
                    row.add(r.median(m) == null ? "" : round(r.median(m)));
                }
                Optional<Reference> ref = reference(r);
                row.add(ref.map(Reference::throughput).map(Object.class::cast).orElse(""));
                row.add(ref.map(Reference::rejectedPct).map(Object.class::cast).orElse(""));
                row.add(ref.map(Reference::meanMs).map(Object.class::cast).orElse(""));
                row.add(ref.map(Reference::minMs).map(Object.class::cast).orElse(""));
                row.add(ref.map(Reference::maxMs).map(Object.class::cast).orElse(""));
                csv.printRecord(row);
            }
        }
    }

    private void writeCharts() throws IOException {
        Path charts = Files.createDirectories(dir.resolve("charts"));
        for (Metric metric : CHARTED) {
            DefaultCategoryDataset data = new DefaultCategoryDataset();
            for (CellResult r : outcome.cells()) {
                Double value = r.median(metric);
                data.addValue(value == null ? 0 : value, "measured", r.cell().name());
                Double ref = reference(r).map(x -> metric == Metric.THROUGHPUT ? (Double) x.throughput()
                        : metric == Metric.REJECTED_PCT ? (Double) x.rejectedPct() : null).orElse(null);
                data.addValue(ref, "reference (2014)", r.cell().name());
            }
            JFreeChart chart = ChartFactory.createBarChart(metric.id() + " per cell", null,
                    metric.id() + " (" + metric.unit() + ")", data, PlotOrientation.VERTICAL, true, false, false);
            chart.setBackgroundPaint(Color.WHITE);
            CategoryPlot plot = chart.getCategoryPlot();
            plot.setBackgroundPaint(Color.WHITE);
            plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
            plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_45);
            BarRenderer bars = (BarRenderer) plot.getRenderer();
            bars.setSeriesPaint(0, new Color(0x2b6cb0));
            bars.setSeriesPaint(1, new Color(0xcbd5e0));
            bars.setShadowVisible(false);
            ChartUtils.saveChartAsPNG(charts.resolve(metric.id() + ".png").toFile(), chart, 1100, 550);
        }
    }

    /** The sentence that explains a difference from the reference, when ours differs by more than a quarter. */
    private Optional<String> explanation(CellResult r) {
        Optional<Reference> ref = reference(r);
        if (ref.isEmpty() || r.failed()) {
            return Optional.empty();
        }
        Double throughput = r.median(Metric.THROUGHPUT);
        Double rejected = r.median(Metric.REJECTED_PCT);
        boolean differs = throughput != null && Math.abs(throughput - ref.get().throughput()) > 0.25 * ref.get().throughput()
                || rejected != null && Math.abs(rejected - ref.get().rejectedPct()) > 10;
        return differs ? Optional.of(ref.get().whyOursDiffers()) : Optional.empty();
    }

    private String markdown() {
        StringBuilder md = new StringBuilder("# ratecache report\n\n");
        run.forEach((k, v) -> md.append("- **").append(k).append("**: ").append(v).append('\n'));
        md.append(String.format(Locale.ROOT, "- **time**: %.0f s in all, %.0f s in JMeter runs; %.1f %% outside them%n",
                outcome.totalSeconds(), outcome.jmeterSeconds(), outcome.overheadPct()));
        md.append(outcome.anyFailed() ? "- **status**: INCOMPLETE: some cells failed (below)\n" : "- **status**: every cell completed\n");
        md.append(comparable
                ? "\nFigures in brackets are the reference experiment's (2014, another machine and app server):"
                        + " context, not targets.\n"
                : "\nThis run's sizes differ from the reference experiment's, so its published figures are not shown"
                        + " beside these (run the default profile for that).\n");
        for (String plan : plans()) {
            md.append("\n## ").append(plan).append("\n\n");
            md.append("| cell | throughput (resp/s) | rejected % | other errors % | mean ms | min ms | max ms | p50 | p90 | p95 | p99"
                    + " | origin requests | origin req/s | edge HIT % | client-cache hits | CPU % front / back / origin / JMeter | wall s |\n");
            md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            for (CellResult r : cellsOf(plan)) {
                if (r.failed()) {
                    md.append("| ").append(r.cell().name()).append(" | FAILED: ").append(r.failure())
                            .append(" (").append(dir.relativize(r.log().toAbsolutePath())).append(")")
                            .append(" |||||||||||||||\n");
                    continue;
                }
                Optional<Reference> ref = reference(r);
                md.append("| ").append(r.cell().name())
                        .append(" | ").append(withRef(r, Metric.THROUGHPUT, ref.map(Reference::throughput).orElse(null), 1))
                        .append(" | ").append(withRef(r, Metric.REJECTED_PCT, ref.map(Reference::rejectedPct).orElse(null), 1))
                        .append(" | ").append(fmt(r, Metric.OTHER_ERRORS_PCT, 1))
                        .append(" | ").append(withRef(r, Metric.MEAN_MS, ref.map(Reference::meanMs).orElse(null), 0))
                        .append(" | ").append(withRef(r, Metric.MIN_MS, ref.map(Reference::minMs).orElse(null), 0))
                        .append(" | ").append(withRef(r, Metric.MAX_MS, ref.map(Reference::maxMs).orElse(null), 0))
                        .append(" | ").append(fmt(r, Metric.P50_MS, 0))
                        .append(" | ").append(fmt(r, Metric.P90_MS, 0))
                        .append(" | ").append(fmt(r, Metric.P95_MS, 0))
                        .append(" | ").append(fmt(r, Metric.P99_MS, 0))
                        .append(" | ").append(fmt(r, Metric.ORIGIN_REQUESTS, 0))
                        .append(" | ").append(fmt(r, Metric.ORIGIN_RATE, 1))
                        .append(" | ").append(fmt(r, Metric.EDGE_HIT_PCT, 1))
                        .append(" | ").append(fmt(r, Metric.CLIENT_CACHE_HITS, 0))
                        .append(" | ").append(fmt(r, Metric.CPU_FRONT_PCT, 1)).append(" / ").append(fmt(r, Metric.CPU_BACK_PCT, 1))
                        .append(" / ").append(fmt(r, Metric.CPU_ORIGIN_PCT, 1)).append(" / ").append(fmt(r, Metric.CPU_JMETER_PCT, 1))
                        .append(" | ").append(fmt(r, Metric.WALL_S, 1))
                        .append(" |\n");
            }
            List<String> notes = new ArrayList<>();
            for (CellResult r : cellsOf(plan)) {
                explanation(r).ifPresent(e -> notes.add("- **" + r.cell().name() + "**: " + e));
            }
            if (!notes.isEmpty()) {
                md.append("\nWhere ours differs from the reference:\n\n").append(String.join("\n", notes)).append('\n');
            }
        }
        if (outcome.cells().stream().anyMatch(r -> r.cell().library())) {
            md.append("\nThe library rows send the same traffic through the same stack as the client-cache rows, with"
                    + " the suite's client library (client/) instead of JMeter: its private cache answers repeats"
                    + " while they are fresh, and a 429 or 503 is retried after its Retry-After (at most "
                    + LibraryDriver.RETRIES + " times within " + LibraryDriver.BUDGET.toSeconds() + " s)."
                    + " Fewer requests end rejected; the retries that get through are load the origin"
                    + " would otherwise not have seen. The library also ages a response by the time its request waited"
                    + " (RFC 9111 section 4.2.3, as httpclient5-cache does), so a response that queued longer than its"
                    + " max-age behind a rate limiter arrives already stale and its next use is a revalidation; JMeter's"
                    + " cache counts freshness from receipt and so shows more hits behind the same queue.\n");
        }
        if (outcome.cells().stream().anyMatch(r -> r.runs().size() > 1)) {
            md.append("\nEach figure is the median of the cell's runs, with the spread over the runs as [min-max].\n");
        }
        if (!checks.isEmpty()) {
            md.append("\n## Checks\n\n");
            for (Check.Outcome o : checks) {
                md.append("- ").append(o.passed() ? "PASS" : "FAIL").append(" `").append(o.check().text()).append("`: ")
                        .append(o.detail()).append('\n');
            }
        }
        md.append("\n## Charts\n\n");
        for (Metric m : CHARTED) {
            md.append("![").append(m.id()).append("](charts/").append(m.id()).append(".png)\n");
        }
        md.append("\n## What each column means\n\n");
        for (Metric m : Metric.values()) {
            md.append("- `").append(m.id()).append("` (").append(m.unit()).append("): ").append(m.meaning()).append('\n');
        }
        return md.toString();
    }

    private String html() {
        StringBuilder h = new StringBuilder("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<title>ratecache report</title><style>body{font-family:sans-serif;margin:2em;max-width:110em}"
                + "table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ccc;padding:.3em .5em;text-align:right}"
                + "td:first-child,th:first-child{text-align:left}.failed{color:#b00}img{max-width:48%}</style></head><body>\n");
        h.append("<h1>ratecache report</h1>\n<ul>\n");
        run.forEach((k, v) -> h.append("<li><b>").append(esc(k)).append("</b>: ").append(esc(String.valueOf(v))).append("</li>\n"));
        h.append(String.format(Locale.ROOT, "<li><b>time</b>: %.0f s in all, %.1f %% outside JMeter runs</li>%n",
                outcome.totalSeconds(), outcome.overheadPct()));
        h.append(outcome.anyFailed() ? "<li class=\"failed\"><b>INCOMPLETE</b>: some cells failed</li>\n"
                : "<li>every cell completed</li>\n");
        h.append("</ul>\n<p>Figures in brackets are the reference experiment's (2014): context, not targets."
                + " The full tables and column meanings are in <a href=\"report.md\">report.md</a>;"
                + " every figure is in <a href=\"summary.json\">summary.json</a> and <a href=\"summary.csv\">summary.csv</a>.</p>\n");
        h.append("<table><tr><th>cell</th><th>throughput resp/s</th><th>rejected %</th><th>other errors %</th><th>mean ms</th>"
                + "<th>p95 ms</th><th>origin requests</th><th>edge HIT %</th><th>client-cache hits</th><th>JMeter dashboard</th><th>graphs</th></tr>\n");
        for (CellResult r : outcome.cells()) {
            String folder = "cells/" + r.cell().folder() + (r.runs().size() > 1 ? "/run-1" : "");
            if (r.failed()) {
                h.append("<tr class=\"failed\"><td>").append(esc(r.cell().name())).append("</td><td colspan=\"10\">FAILED: ")
                        .append(esc(r.failure())).append(" (<a href=\"").append(esc(dir.relativize(r.log().toAbsolutePath()).toString()))
                        .append("\">log</a>)</td></tr>\n");
                continue;
            }
            Optional<Reference> ref = reference(r);
            h.append("<tr><td>").append(esc(r.cell().name())).append("</td><td>")
                    .append(esc(withRef(r, Metric.THROUGHPUT, ref.map(Reference::throughput).orElse(null), 1))).append("</td><td>")
                    .append(esc(withRef(r, Metric.REJECTED_PCT, ref.map(Reference::rejectedPct).orElse(null), 1))).append("</td><td>")
                    .append(fmt(r, Metric.OTHER_ERRORS_PCT, 1)).append("</td><td>")
                    .append(esc(withRef(r, Metric.MEAN_MS, ref.map(Reference::meanMs).orElse(null), 0))).append("</td><td>")
                    .append(fmt(r, Metric.P95_MS, 0)).append("</td><td>")
                    .append(fmt(r, Metric.ORIGIN_REQUESTS, 0)).append("</td><td>")
                    .append(fmt(r, Metric.EDGE_HIT_PCT, 1)).append("</td><td>")
                    .append(fmt(r, Metric.CLIENT_CACHE_HITS, 0)).append("</td><td>");
            String client = folder + "/" + r.cell().generator().folder();
            h.append("<a href=\"").append(client).append("/dashboard/index.html\">dashboard</a>");
            if (r.cell().library()) {
                h.append(" <a href=\"").append(client).append("/summary.json\">library statistics</a>");
            }
            h.append("</td><td>");
            for (String graph : dev.ratecache.suite.jmeter.JMeter.GRAPHS) {
                h.append("<a href=\"").append(client).append("/graphs/").append(graph).append(".png\">").append(graph).append("</a> ");
            }
            h.append("</td></tr>\n");
        }
        h.append("</table>\n<h2>Charts</h2>\n");
        for (Metric m : CHARTED) {
            h.append("<img src=\"charts/").append(m.id()).append(".png\" alt=\"").append(m.id()).append(" per cell\">\n");
        }
        return h.append("</body></html>\n").toString();
    }

    private Optional<Reference> reference(CellResult r) {
        return comparable ? r.cell().reference() : Optional.empty();
    }

    private List<String> plans() {
        return outcome.cells().stream().map(r -> r.cell().plan().name()).distinct().toList();
    }

    private List<CellResult> cellsOf(String plan) {
        return outcome.cells().stream().filter(r -> r.cell().plan().name().equals(plan)).toList();
    }

    /** The median; with several runs, followed by the spread as [min-max]. */
    private static String fmt(CellResult r, Metric m, int decimals) {
        Double v = r.median(m);
        if (v == null) {
            return "n/a";
        }
        String f = "%." + decimals + "f";
        String median = String.format(Locale.ROOT, f, v);
        return r.runs().size() < 2 ? median
                : median + String.format(Locale.ROOT, " [" + f + "-" + f + "]", r.min(m), r.max(m));
    }

    private static String withRef(CellResult r, Metric m, Double ref, int decimals) {
        String ours = fmt(r, m, decimals);
        return ref == null ? ours : ours + String.format(Locale.ROOT, " (%." + decimals + "f)", ref);
    }

    private static double round(Double v) {
        return v == null ? Double.NaN : Math.round(v * 1000) / 1000.0;
    }

    private static String esc(String s) {
        return StringEscapeUtils.escapeHtml4(s);
    }
}
