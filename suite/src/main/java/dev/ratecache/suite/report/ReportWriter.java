package dev.ratecache.suite.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Reference;
import dev.ratecache.suite.matrix.Saturation;
import dev.ratecache.suite.predict.CellPrediction;
import dev.ratecache.suite.predict.Predictions;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes a matrix run's report into its folder: summary.json and summary.csv (every figure, with
 * units), report.md (the tables, and the per-plan charts as charts/*.png), index.html (tables,
 * per-plan charts and each cell over time, drawn by Chart.js from assets/, and links to each
 * cell's files) and checks.xml. report.md, index.html and the terminal's tables come from the
 * templates in resources/report/, filled from one {@link ReportModel}, each with its own list of
 * {@link Column}s.
 *
 * <p>The PNGs stay beside index.html because report.md is what a repository browser shows, and it
 * runs no scripts; they cover the per-plan comparison, index.html the rest.
 */
public final class ReportWriter {
    private final Path dir;
    private final Map<String, Object> run;
    private final MatrixRunner.Outcome outcome;
    private final List<Check.Outcome> checks;
    private final ReportModel model;
    private final Map<String, CellPrediction> predictions;
    private final List<ReportSection> sections;

    /**
     * {@code run} describes the run (profile, matrix, switches, machine, ...) for the report's header;
     * {@code comparable} says whether the run has the reference experiment's sizes, so that its
     * published figures belong beside ours.
     */
    public ReportWriter(Path dir, Map<String, Object> run, MatrixRunner.Outcome outcome, List<Check.Outcome> checks,
            boolean comparable) {
        this(dir, run, outcome, checks, comparable, Map.of());
    }

    /** With the model's prediction for each cell, by cell name, beside what it measured. */
    public ReportWriter(Path dir, Map<String, Object> run, MatrixRunner.Outcome outcome, List<Check.Outcome> checks,
            boolean comparable, Map<String, CellPrediction> predictions) {
        this(dir, run, outcome, checks, comparable, predictions, List.of());
    }

    /** With the sections the kind of matrix adds ({@link ReportSection}). */
    public ReportWriter(Path dir, Map<String, Object> run, MatrixRunner.Outcome outcome, List<Check.Outcome> checks,
            boolean comparable, Map<String, CellPrediction> predictions, List<ReportSection> sections) {
        this.dir = dir;
        this.run = run;
        this.outcome = outcome;
        this.checks = checks;
        this.predictions = predictions;
        this.sections = sections;
        this.model = new ReportModel(dir, run, outcome, checks, comparable, predictions, sections);
    }

    public void write() throws IOException {
        writeJson();
        writeCsv();
        List<ChartData.BarChart> bars = ChartData.bars(model);
        PngCharts.write(bars, dir.resolve("charts"));
        Files.writeString(dir.resolve("report.md"), markdown(bars), StandardCharsets.UTF_8);
        new HtmlPage(dir, model).write(bars);
        if (!checks.isEmpty()) {
            JUnitXml.write(checks, dir.resolve("checks.xml"));
        }
    }

    /**
     * The tables for the terminal at the end of a run: what report.md's tables say, in aligned
     * columns (fewer of them), with the checks; a failed cell's log relative to the run folder {@code dir}.
     */
    public static String terminal(Path dir, MatrixRunner.Outcome outcome, List<Check.Outcome> checks, boolean comparable) {
        return terminal(dir, outcome, checks, comparable, Map.of());
    }

    /** The same, with each plan's predictions under its table. */
    public static String terminal(Path dir, MatrixRunner.Outcome outcome, List<Check.Outcome> checks, boolean comparable,
            Map<String, CellPrediction> predictions) {
        return terminal(dir, outcome, checks, comparable, predictions, List.of());
    }

    /** The same, with the sections the kind of matrix adds. */
    public static String terminal(Path dir, MatrixRunner.Outcome outcome, List<Check.Outcome> checks, boolean comparable,
            Map<String, CellPrediction> predictions, List<ReportSection> sections) {
        ReportModel model = new ReportModel(dir, Map.of(), outcome, checks, comparable, predictions, sections);
        Map<String, Object> context = model.context(Column.TERMINAL);
        context.put("tables", model.tables(Column.TERMINAL).stream()
                .map(t -> Map.of("plan", t.plan(), "lines", TextTable.lines(t),
                        "predictionLines", t.predictions() == null ? List.of() : TextTable.lines(t.predictions()),
                        "warnings", t.warnings()))
                .toList());
        return ReportTemplates.text("terminal").execute(context);
    }

    private String markdown(List<ChartData.BarChart> bars) {
        Map<String, Object> context = model.context(Column.ALL);
        Map<String, List<Map<String, String>>> images = new LinkedHashMap<>();
        for (ChartData.BarChart b : bars) {
            images.computeIfAbsent(b.plan(), p -> new ArrayList<>())
                    .add(Map.of("alt", b.plan() + " " + b.metric(), "file", b.file()));
        }
        context.put("chartPlans", images.entrySet().stream()
                .map(e -> Map.of("plan", e.getKey(), "images", e.getValue())).toList());
        return ReportTemplates.markdown("report.md").execute(context);
    }

    private void writeJson() throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        Map<String, Object> header = new LinkedHashMap<>(run);
        header.put("total_s", round(outcome.totalSeconds()));
        header.put("jmeter_s", round(outcome.jmeterSeconds()));
        header.put("overhead_pct", round(outcome.overheadPct()));
        header.put("complete", !outcome.anyFailed());
        header.put("sources", model.sources());
        json.put("run", header);
        List<Map<String, String>> metrics = new ArrayList<>();
        for (Metric m : Metric.values()) {
            Map<String, String> metric = new LinkedHashMap<>();
            metric.put("id", m.id());
            metric.put("unit", m.unit());
            metric.put("meaning", m.meaning());
            metric.put("measured", m.measured());
            metric.put("definition", model.doc("methodology.md#" + m.anchor()));
            metrics.add(metric);
        }
        json.put("metrics", metrics);
        List<Map<String, Object>> cells = new ArrayList<>();
        for (CellResult r : outcome.cells()) {
            Map<String, Object> cell = new LinkedHashMap<>();
            cell.put("name", r.cell().name());
            cell.put("plan", r.cell().plan().name());
            cell.put("description", r.cell().describe());
            if (!r.cell().direct()) {
                cell.put("edge", r.cell().edge().toString());
            }
            cell.put("status", ReportModel.status(r));
            if (r.failed()) {
                cell.put("failure", r.failure());
                cell.put("log", dir.relativize(r.log().toAbsolutePath()).toString());
            } else {
                // What the terminal and Read with care say as SATURATED, for a script to read.
                Optional<Saturation> saturation = Saturation.of(r);
                cell.put("saturated", saturation.isPresent());
                saturation.ifPresent(sat -> cell.put("saturation", sat.describe()));
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
            for (ReportSection section : sections) {
                cell.putAll(section.cellFigures().getOrDefault(r.cell().name(), Map.of()));
            }
            CellPrediction p = predictions.get(r.cell().name());
            if (p != null) {
                cell.put("prediction", predictionJson(p));
            }
            reference(r).ifPresent(ref -> {
                Map<String, Object> reference = new LinkedHashMap<>();
                for (Column c : Column.REFERENCED) {
                    Double figure = c.referenceOf(Optional.of(ref));
                    if (figure != null) {
                        reference.put(c.metric().id(), figure);
                    }
                }
                cell.put("reference", reference);
                model.explanation(r).ifPresent(e -> cell.put("why_ours_differs", e));
            });
            cells.add(cell);
        }
        json.put("cells", cells);
        List<Map<String, Object>> checkList = new ArrayList<>();
        for (Check.Outcome o : checks) {
            checkList.add(Map.of("check", o.check().text(), "passed", o.passed(), "detail", o.detail()));
        }
        json.put("checks", checkList);
        if (!sections.isEmpty()) {
            json.put("sections", sections);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("summary.json").toFile(), json);
    }

    /** A cell's prediction in summary.json: per metric predicted, measured, ratio and flag; the gap or the causes. */
    private static Map<String, Object> predictionJson(CellPrediction p) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("predicted", p.prediction().predicted());
        if (!p.prediction().predicted()) {
            json.put("gap", p.prediction().gap());
            return json;
        }
        json.put("overhead_ms", p.prediction().overheadMs());
        json.put("tolerance_pct", Math.round(100 * Predictions.TOLERANCE));
        json.put("orders", p.prediction().orders());
        Map<String, Object> metrics = new LinkedHashMap<>();
        for (CellPrediction.Comparison c : p.comparisons()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("predicted", round(c.predicted()));
            m.put("measured", round(c.measured()));
            m.put("ratio", c.ratio() == null ? null : round(c.ratio()));
            if (c.range() != null) {
                m.put("range_low", round(c.range().low()));
                m.put("range_high", round(c.range().high()));
            }
            m.put("flagged", c.flagged());
            metrics.put(c.metric().id(), m);
        }
        json.put("metrics", metrics);
        json.put("flagged", p.anyFlagged());
        json.put("reasons", p.reasons());
        json.put("explained", p.explained());
        return json;
    }

    private void writeCsv() throws IOException {
        List<String> header = new ArrayList<>(List.of("cell", "status", "runs"));
        for (Metric m : Metric.values()) {
            header.add(m.id() + " [" + m.unit() + "]");
        }
        for (Column c : Column.REFERENCED) {
            header.add("reference " + c.metric().id() + " [" + c.metric().unit() + "]");
        }
        try (Writer w = Files.newBufferedWriter(dir.resolve("summary.csv"));
                CSVPrinter csv = new CSVPrinter(w, CSVFormat.DEFAULT.builder().setHeader(header.toArray(String[]::new)).get())) {
            for (CellResult r : outcome.cells()) {
                List<Object> row = new ArrayList<>(List.of(r.cell().name(), ReportModel.status(r), r.runs().size()));
                for (Metric m : Metric.values()) {
                    row.add(r.median(m) == null ? "" : round(r.median(m)));
                }
                Optional<Reference> ref = reference(r);
                for (Column c : Column.REFERENCED) {
                    Double figure = c.referenceOf(ref);
                    row.add(figure == null ? "" : figure);
                }
                csv.printRecord(row);
            }
        }
    }

    private Optional<Reference> reference(CellResult r) {
        return model.reference(r);
    }

    /** A figure as summary.json keeps it: to three decimals; NaN for none. */
    public static double round(Double v) {
        return v == null ? Double.NaN : Math.round(v * 1000) / 1000.0;
    }
}
