package dev.ratecache.suite.report;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.FleetFallbacks;
import dev.ratecache.suite.matrix.LibraryDriver;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Reference;
import dev.ratecache.suite.matrix.ReplayBreakdown;
import dev.ratecache.suite.matrix.Saturation;
import dev.ratecache.suite.matrix.Source;
import dev.ratecache.suite.matrix.WrkGenerator;
import dev.ratecache.suite.predict.CellPrediction;
import dev.ratecache.suite.predict.Predictions;
import dev.ratecache.suite.predict.Predictor;
import dev.ratecache.suite.replay.ReplayCellReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What every view of the report says (report.md, index.html, the terminal), built once from a
 * run's outcome: the templates only lay it out. Tables take the view's own list of columns.
 */
final class ReportModel {
    static final String LIBRARY_NOTE = "The library rows send the same traffic through the same stack as the client-cache"
            + " rows, with the suite's client library (client/) instead of JMeter (the paths in a random order each"
            + " loop where JMeter draws one): its private cache answers repeats while they are fresh, and a 429 or"
            + " 503 is retried after its Retry-After (at most " + LibraryDriver.RETRIES + " times within "
            + LibraryDriver.BUDGET.toSeconds() + " s). Fewer requests end rejected; the retries that get through are"
            + " load the origin would otherwise not have seen. The library ages a response by the time its request"
            + " waited (RFC 9111 section 4.2.3, as httpclient5-cache does), so a response that queued longer than its"
            + " max-age behind a rate limiter arrives already stale; within the origin's stale-while-revalidate it"
            + " answers at once all the same while one background revalidation per entry refreshes it ("
            + LibraryDriver.REVALIDATION_THREADS + " thread per user), and a revalidation still queued when its"
            + " user's work ends is given up with the client.";

    static final String DASHBOARDS_SKIPPED = "JMeter's dashboards and graphs were not drawn (--no-dashboards); each"
            + " cell's JTL is in its folder, for JMeter to draw them from later (jmeter/README.md, Running)";

    private final Path dir;
    private final Map<String, Object> run;
    private final MatrixRunner.Outcome outcome;
    private final List<Check.Outcome> checks;
    private final boolean comparable;
    private final Map<String, CellPrediction> predictions;
    private final List<ReportSection> sections;

    ReportModel(Path dir, Map<String, Object> run, MatrixRunner.Outcome outcome, List<Check.Outcome> checks,
            boolean comparable, Map<String, CellPrediction> predictions) {
        this(dir, run, outcome, checks, comparable, predictions, List.of());
    }

    ReportModel(Path dir, Map<String, Object> run, MatrixRunner.Outcome outcome, List<Check.Outcome> checks,
            boolean comparable, Map<String, CellPrediction> predictions, List<ReportSection> sections) {
        this.sections = sections;
        this.dir = dir.toAbsolutePath();
        this.docs = docsFrom(dir);
        this.run = run;
        this.outcome = outcome;
        this.checks = checks;
        this.comparable = comparable;
        this.predictions = predictions;
    }

    /** What the model said for a cell; null when the run has no predictions for it. */
    CellPrediction prediction(CellResult r) {
        return predictions.get(r.cell().name());
    }

    /**
     * A cell's row of a plan's predictions table: per predicted metric "measured / predicted
     * (×ratio)", "!" when outside the tolerance; {@code why} says the model's gap or the flags'
     * likely causes.
     */
    public record PredictionRow(String name, List<String> values, boolean flagged, String why) {}

    /** The predictions table of a plan: its headings are the predicted metrics' columns. */
    public record PredictionTable(List<String> headings, List<Heading> columns, List<PredictionRow> rows) {
        public String mdSeparator() {
            return "|---".repeat(headings.size() + 2) + "|";
        }
    }

    /** The predicted metrics' columns, in {@link Predictor#METRICS} order. */
    static final List<Column> PREDICTED = Column.pick(Predictor.METRICS.toArray(Metric[]::new));

    PredictionTable predictionTable(PlanCells plan) {
        List<PredictionRow> rows = new ArrayList<>();
        for (CellResult r : plan.cells()) {
            CellPrediction p = prediction(r);
            // A fleet cell's prediction is its per-client figures, in the fleet's table.
            if (p == null || p.prediction().fleet() != null) {
                continue;
            }
            List<String> values = PREDICTED.stream().map(col -> {
                CellPrediction.Comparison c = p.comparison(col.metric());
                return c == null ? "n/a" : c.text(col.decimals());
            }).toList();
            rows.add(new PredictionRow(r.cell().name(), values, p.anyFlagged(), String.join("; ", p.reasons())));
        }
        return rows.isEmpty() ? null : new PredictionTable(PREDICTED.stream().map(Column::label).toList(),
                PREDICTED.stream().map(this::heading).toList(), rows);
    }

    /** A line of the header: "key: value"; {@code href}, where not null, links the key to its definition. */
    public record Bullet(String key, String value, String href) {
        public boolean linked() {
            return href != null;
        }
    }

    /** A part of a column's heading and where its metric is defined (a joined column has one part per metric). */
    public record HeadingPart(String text, String href) {}

    /**
     * A column's heading as report.md and index.html show it: each part linked to its metric's row of
     * the glossary, then the unit.
     */
    public record Heading(List<HeadingPart> parts, String unit) {
        /** Markdown: "[throughput](…#metric-throughput) (resp/s)". */
        public String md() {
            String linked = String.join(" / ", parts.stream().map(p -> "[" + p.text() + "](" + p.href() + ")").toList());
            return unit.isEmpty() ? linked : linked + " (" + unit + ")";
        }

        public boolean hasUnit() {
            return !unit.isEmpty();
        }
    }

    /**
     * Where the repository's docs are, relative to the run folder, so that report.md and index.html
     * link to the definitions of what they show: results/TIME/ is two folders below the checkout,
     * and a run elsewhere (--results) gets the path to the checkout it ran from.
     */
    final String docs;

    static String docsFrom(Path runDir) {
        try {
            Path docs = dev.ratecache.suite.Repo.root().resolve("docs");
            return runDir.toAbsolutePath().normalize().relativize(docs).toString().replace('\\', '/');
        } catch (dev.ratecache.suite.Repo.NotFound e) {
            return "../../docs";
        }
    }

    /** A link to {@code page} (with its anchor) of the docs, from the run folder. */
    String doc(String page) {
        return docs + "/" + page;
    }

    /** A link to the glossary's entry for a word of the report: methodology.md's "Words" section. */
    String term(String id) {
        return doc("methodology.md#term-" + id);
    }

    /** Links from a column's heading: each of its metrics to its row of the glossary of metrics. */
    Heading heading(Column c) {
        String[] texts = c.heading().split(" / ");
        List<HeadingPart> parts = new ArrayList<>();
        for (int i = 0; i < c.metrics().size(); i++) {
            String text = texts.length == c.metrics().size() ? texts[i] : i == 0 ? c.heading() : null;
            if (text != null) {
                parts.add(new HeadingPart(text, doc("methodology.md#" + c.metrics().get(i).anchor())));
            }
        }
        return new Heading(parts, c.unit());
    }

    /** A write-up the run's published figures come from, as the header names it. */
    public record SourceLine(String role, String title, String author, int year, String link) {}

    /**
     * The write-ups whose figures stand in brackets beside this run's: the reference experiment for
     * the cells of its plans, and each reproduced experiment for its cells, in the order they ran.
     */
    List<SourceLine> sources() {
        java.util.Set<Source> seen = new java.util.LinkedHashSet<>();
        for (CellResult r : outcome.cells()) {
            Cell.Published published = r.cell().trait(Cell.Published.class);
            if (published != null) {
                seen.add(Source.ofSeed(published.source()));
            } else if (r.cell().reference().isPresent()) {
                seen.add(Source.REFERENCE);
            }
        }
        return seen.stream().map(s -> new SourceLine(s == Source.REFERENCE ? "the reference experiment"
                : "seed " + s.seed(), s.title(), s.author(), s.year(), s.link())).toList();
    }

    /** A word of the report's header and where it is defined. */
    public record Word(String text, String href) {}

    /** The words the header and the tables use that a reader may not know, each linked to its definition. */
    List<Word> words() {
        return List.of(new Word("cell", term("cell")), new Word("matrix", term("matrix")),
                new Word("plan", term("plan")), new Word("reference experiment", term("reference-experiment")),
                new Word("seeds", term("seeds")), new Word("queue and nodelay", term("nodelay")),
                new Word("open model", term("open-model")), new Word("JTL", term("jtl")),
                new Word("HIT, STALE, UPDATING", term("cache-status")), new Word("Age native or njs", term("age")),
                new Word("Read with care", term("read-with-care")));
    }

    /** Where a header line's key is defined; null for those that need none (started, machine). */
    String definition(String key) {
        return switch (key) {
            case "matrix" -> term("matrix");
            case "profile" -> term("profile");
            case "repeats" -> term("repeats");
            case "switches" -> doc("switches.md");
            case "reproduce" -> doc("reproductions.md");
            case "database", "app cache" -> doc("app-cache-and-database.md");
            case "origin" -> term("origin");
            default -> null;
        };
    }

    /** A link from a cell's row to one of its files, relative to the run folder. */
    public record Link(String label, String href) {}

    /**
     * A row of a plan's table.
     *
     * @param values one per column of the view (empty for a failed cell)
     * @param log    for a failed cell, its log relative to the run folder
     */
    public record Row(String name, String anchor, boolean failed, String failure, String log, List<String> values,
            List<Link> links) {
        /** The link a table has room for: the JMeter dashboard, or the library's statistics. */
        public List<Link> mainLinks() {
            return links.stream().filter(l -> l.label().equals(DASHBOARD) || l.label().equals(LIBRARY_STATISTICS))
                    .limit(1).toList();
        }
    }

    static final String DASHBOARD = "dashboard";
    static final String LIBRARY_STATISTICS = "library statistics";

    /** The sentence that explains why ours differs from the reference for one cell. */
    public record Note(String cell, String text) {}

    /** A plan's table in one view. */
    public record Table(String plan, String anchor, List<String> headings, List<Heading> columns, List<Row> rows,
            List<Note> notes, PredictionTable predictions, List<Note> warnings) {
        public boolean hasNotes() {
            return !notes.isEmpty();
        }

        /** Whether a cell's app cache failed during its run (Redis down or stopped): said under the table. */
        public boolean hasWarnings() {
            return !warnings.isEmpty();
        }

        /** How many columns a failed cell's reason spans (every figure's). */
        public int colspan() {
            return headings.size();
        }

        /** Markdown's line under the headings. */
        public String mdSeparator() {
            return "|---".repeat(headings.size() + 1) + "|";
        }

        /** Markdown: the empty cells after a failed cell's reason. */
        public String mdFailedFiller() {
            return "|".repeat(headings.size() - 1);
        }
    }

    public record CheckLine(boolean passed, String text, String detail) {}

    public record MetricLine(String id, String unit, String meaning, String href) {}

    /** A plan and its cells in the order they ran. */
    record PlanCells(String name, List<CellResult> cells) {}

    /** Every plan of the run, in the order its first cell ran. */
    List<PlanCells> plans() {
        Map<String, List<CellResult>> byPlan = new LinkedHashMap<>();
        for (CellResult r : outcome.cells()) {
            byPlan.computeIfAbsent(planOf(r), p -> new ArrayList<>()).add(r);
        }
        return byPlan.entrySet().stream().map(e -> new PlanCells(e.getKey(), List.copyOf(e.getValue()))).toList();
    }

    /** The one place that says which plan a cell belongs to: cells of different plans are never compared. */
    private static String planOf(CellResult r) {
        return r.cell().plan().name();
    }

    /** The context every template shares; {@code columns} are the view's table columns. */
    Map<String, Object> context(List<Column> columns) {
        Map<String, Object> c = new LinkedHashMap<>();
        List<Bullet> bullets = new ArrayList<>();
        run.forEach((k, v) -> bullets.add(new Bullet(k, String.valueOf(v), definition(k))));
        c.put("bullets", bullets);
        List<SourceLine> sources = sources();
        c.put("hasSources", !sources.isEmpty());
        c.put("sources", sources);
        c.put("sourcesHref", doc("reproductions.md#the-sources"));
        c.put("words", words());
        c.put("docs", docs);
        Map<String, String> links = new LinkedHashMap<>();
        links.put("plans", doc("concepts.md"));
        links.put("metrics", doc("methodology.md#metrics"));
        links.put("predictions", doc("methodology.md#predictions-beside-every-measurement"));
        links.put("readWithCare", term("read-with-care"));
        links.put("charts", doc("methodology.md#the-report"));
        links.put("checks", doc("running.md"));
        links.put("library", doc("client.md"));
        links.put("loadHosts", doc("several-machines.md"));
        links.put("replay", doc("your-traffic.md"));
        links.put("glossary", doc("methodology.md#words"));
        links.put("reference", term("reference-experiment"));
        c.put("links", links);
        c.put("totalSeconds", String.format(Locale.ROOT, "%.0f", outcome.totalSeconds()));
        c.put("jmeterSeconds", String.format(Locale.ROOT, "%.0f", outcome.jmeterSeconds()));
        c.put("overheadPct", String.format(Locale.ROOT, "%.1f", outcome.overheadPct()));
        c.put("complete", !outcome.anyFailed());
        c.put("dashboardsSkipped", !outcome.dashboards());
        c.put("dashboardsSkippedNote", DASHBOARDS_SKIPPED);
        c.put("comparable", comparable);
        // Cells beside another experiment's published rows than the reference's: the brackets say whose.
        c.put("reproduced", outcome.cells().stream()
                .anyMatch(r -> r.cell().trait(Cell.Published.class) != null));
        c.put("tables", tables(columns));
        c.put("library", outcome.cells().stream().anyMatch(r -> r.cell().library()));
        c.put("libraryNote", LIBRARY_NOTE);
        c.put("repeated", outcome.cells().stream().anyMatch(r -> r.runs().size() > 1));
        c.put("hasChecks", !checks.isEmpty());
        c.put("checks", checks.stream().map(o -> new CheckLine(o.passed(), o.check().text(), o.detail())).toList());
        List<MetricLine> metrics = new ArrayList<>();
        for (Metric m : Metric.values()) {
            metrics.add(new MetricLine(m.id(), m.unit(), m.meaning(), doc("methodology.md#" + m.anchor())));
        }
        c.put("metrics", metrics);
        c.put("replays", replays());
        c.put("matrixSections", sections);
        List<LoadHostRow> hosts = loadHosts();
        c.put("hasLoadHosts", !hosts.isEmpty());
        c.put("loadHosts", hosts);
        c.put("hasPredictions", !predictions.isEmpty());
        c.put("tolerancePct", String.format(Locale.ROOT, "%.0f", 100 * Predictions.TOLERANCE));
        c.put("orders", Predictor.ORDERS);
        return c;
    }

    /** A cell of a distributed run (--load-hosts): the samples each load host sent, as JMeter merged them. */
    record LoadHostRow(String cell, String perHost, long total) {}

    /** Every distributed cell's samples per load host (its first run's, as its load-hosts.json), in run order. */
    List<LoadHostRow> loadHosts() {
        List<LoadHostRow> rows = new ArrayList<>();
        for (CellResult r : outcome.cells()) {
            Map<String, Long> perHost = r.firstBreakdowns().samplesPerLoadHost();
            if (perHost != null) {
                rows.add(new LoadHostRow(r.cell().name(), String.join(", ", perHost.entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue()).toList()),
                        perHost.values().stream().mapToLong(Long::longValue).sum()));
            }
        }
        return rows;
    }

    /** The model's rejected share per tier for a keys cell; empty when it has none (a gap). */
    Map<String, Double> tierPredictions(CellResult r) {
        return ReportSection.predictedTierRejections(r, predictions);
    }

    /** A replay cell's breakdown, as the templates show it. */
    record ReplaySection(String cell, String lateness, boolean behind, List<Map<String, String>> paths,
            List<Map<String, String>> clients, long clientsInAll, long clientsRejected, boolean hasKeys,
            List<Map<String, String>> keys, long keysInAll, long keysRejected, List<Map<String, String>> tiers) {}

    /** Every replay cell's per-path and per-client tables, in run order (none for the plans' cells). */
    List<ReplaySection> replays() {
        List<ReplaySection> sections = new ArrayList<>();
        for (CellResult r : outcome.cells()) {
            ReplayBreakdown b = r.firstBreakdowns().figure(ReplayBreakdown.class);
            if (b == null) {
                continue;
            }
            List<Map<String, String>> paths = b.paths().stream().map(p -> Map.of("path", cellText(p.path()),
                    "requests", String.valueOf(p.requests()), "rejectedPct", fmt(p.rejectedPct()),
                    "edgeHitPct", fmt(p.edgeHitPct()),
                    "origin", p.originRequests() == null ? "n/a" : String.valueOf(p.originRequests()))).toList();
            List<Map<String, String>> clients = b.clients().stream().map(cl -> Map.of("client", cellText(cl.client()),
                    "address", cl.address(), "requests", String.valueOf(cl.requests()),
                    "rejected", String.valueOf(cl.rejected()), "delayed", String.valueOf(cl.delayed()))).toList();
            boolean hasKeys = b.keys() != null;
            List<Map<String, String>> keys = !hasKeys ? List.of() : b.keys().stream().map(k -> Map.of(
                    "key", cellText(k.key()), "tier", k.tier(), "requests", String.valueOf(k.requests()),
                    "rejected", String.valueOf(k.rejected()), "rejectedPct", fmt(k.rejectedPct()))).toList();
            List<Map<String, String>> tiers = !hasKeys ? List.of() : b.tiers().stream().map(t -> Map.of(
                    "tier", t.tier(), "keys", String.valueOf(t.keys()), "keysRejected", String.valueOf(t.keysRejected()),
                    "requests", String.valueOf(t.requests()), "rejected", String.valueOf(t.rejected()),
                    "rejectedPct", fmt(t.rejectedPct()))).toList();
            sections.add(new ReplaySection(r.cell().name(), b.lateness().describe(), b.behindSchedule(), paths, clients,
                    b.clientsInAll(), b.clientsRejected(), hasKeys, keys, hasKeys ? b.keysInAll() : 0,
                    hasKeys ? b.keysRejected() : 0, tiers));
        }
        return sections;
    }

    /**
     * A logged value (a path, a client, a key) in a table cell, with what is not printable escaped.
     * A bar is the Markdown template's to escape (ReportTemplates): escaped here too, it came out as a
     * backslash that let the bar end the cell after all.
     */
    static String cellText(String text) {
        return Printable.escape(text);
    }

    static String fmt(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    List<Table> tables(List<Column> columns) {
        return plans().stream().map(plan -> table(plan, columns)).toList();
    }

    /** A plan's table with the view's columns, and the notes on where ours differs from the reference. */
    Table table(PlanCells plan, List<Column> viewColumns) {
        List<Column> columns = viewColumns.stream().filter(c -> c.shownFor(plan.cells())).toList();
        List<Row> rows = new ArrayList<>();
        List<Note> notes = new ArrayList<>();
        List<Note> warnings = new ArrayList<>();
        for (CellResult r : plan.cells()) {
            // Read once: the row's mark and the warning under the table say the same.
            Optional<String> distortion = distortion(r);
            rows.add(row(r, columns, distortion.isPresent()));
            explanation(r).ifPresent(e -> notes.add(new Note(r.cell().name(), e)));
            cacheFailure(r).ifPresent(e -> warnings.add(new Note(r.cell().name(), e)));
            databaseUnanswered(r).ifPresent(e -> warnings.add(new Note(r.cell().name(), e)));
            distortion.ifPresent(e -> warnings.add(new Note(r.cell().name(), e)));
            errors(r).ifPresent(e -> warnings.add(new Note(r.cell().name(), e)));
            Saturation.of(r).ifPresent(s -> warnings.add(new Note(r.cell().name(), s.warning())));
            sharedLimitNotRun(r).ifPresent(e -> warnings.add(new Note(r.cell().name(), e)));
        }
        return new Table(plan.name(), "plan-" + safe(plan.name()), columns.stream().map(Column::label).toList(),
                columns.stream().map(this::heading).toList(), rows, notes, predictionTable(plan), warnings);
    }

    /** What a cell whose app cache failed says: how often, that the database answered, and the origin's last error. */
    static Optional<String> cacheFailure(CellResult r) {
        return r.runs().stream().map(dev.ratecache.suite.matrix.CellMeasurement::caches)
                .filter(c -> c != null && c.cacheFailed()).findFirst()
                .map(dev.ratecache.suite.matrix.CellMeasurement.Caches::describeFailure);
    }

    /** What a cell whose origin answered 504s or 502s says: how many, and why, counted rather than hidden among the errors. */
    static Optional<String> databaseUnanswered(CellResult r) {
        return r.runs().stream().map(m -> m.breakdowns().figure(dev.ratecache.suite.matrix.DatabaseFigures.class))
                .filter(d -> d != null && d.unanswered()).findFirst()
                .map(dev.ratecache.suite.matrix.DatabaseFigures::describeUnanswered);
    }

    /** What a cell with --fleet-limit shared says when most of its requests fell back: the limit it names did not run. */
    static Optional<String> sharedLimitNotRun(CellResult r) {
        return r.runs().stream().map(m -> m.breakdowns().figure(FleetFallbacks.class))
                .filter(f -> f != null && f.mostFellBack()).findFirst()
                .map(FleetFallbacks::warning);
    }

    /** What a replay cell whose generator fell behind the log's schedule says: its figures are not the log's traffic. */
    static Optional<String> distortion(CellResult r) {
        return ReplayCellReport.schedule(r).filter(ReplayCellReport.Schedule::behind)
                .map(s -> "DISTORTED: the generator fell behind the log's schedule (" + s.describe()
                        + "), so these figures are not the log's traffic; replay at a lower --speed, or with more --threads");
    }

    /** Errors other than rate-limit rejections above this share of the answers are worth a warning. */
    static final double ERRORS_WORTH_A_WARNING_PCT = 1.0;

    /**
     * What a cell whose answers were errors other than rejections says: its figures measure the
     * failure (a 500 from a cache the workers cannot write, an origin that died), not the tiers.
     */
    static Optional<String> errors(CellResult r) {
        Double pct = r.failed() ? null : r.median(Metric.OTHER_ERRORS_PCT);
        if (pct == null || pct <= ERRORS_WORTH_A_WARNING_PCT) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "%.1f %% of the answers were errors other than rate-limit"
                + " rejections: these figures measure that failure; see the tiers' error logs (nginx/*/logs/error.log)"
                + " and origin.log", pct));
    }

    /** The cell's status in summary.json and summary.csv: failed, distorted (a replay behind its schedule) or ok. */
    static String status(CellResult r) {
        return r.failed() ? "failed" : distortion(r).isPresent() ? "distorted" : "ok";
    }

    private Row row(CellResult r, List<Column> columns, boolean distorted) {
        if (r.failed()) {
            return new Row(r.cell().name(), anchor(r), true, r.failure(), relative(r.log()), List.of(), links(r));
        }
        Optional<Reference> ref = reference(r);
        String name = r.cell().name() + (distorted ? " (DISTORTED)" : "");
        return new Row(name, anchor(r), false, "", "",
                columns.stream().map(col -> col.format(r, ref)).toList(), links(r));
    }

    /** The cell's files worth opening, those that exist. */
    List<Link> links(CellResult r) {
        List<Link> links = new ArrayList<>();
        Path client = clientFolder(r);
        // Every generator's JTL gets JMeter's dashboard and graphs (unless skipped); the library's driver adds its statistics.
        if (outcome.dashboards()) {
            addIfExists(links, DASHBOARD, client.resolve("dashboard/index.html"));
            for (String graph : JMeter.GRAPHS) {
                addIfExists(links, graph, client.resolve("graphs/" + graph + ".png"));
            }
        }
        if (r.cell().library()) {
            addIfExists(links, LIBRARY_STATISTICS, client.resolve("summary.json"));
        }
        addIfExists(links, "JTL", jtlOf(r));
        // A generator without a JTL (wrk) keeps its own report, to set beside the published one.
        addIfExists(links, "wrk report", client.resolve(WrkGenerator.OUTPUT));
        addIfExists(links, "bombardier result", client.resolve(dev.ratecache.suite.matrix.BombardierGenerator.OUTPUT));
        addIfExists(links, "timeline", timelineOf(r));
        return links;
    }

    private void addIfExists(List<Link> links, String label, Path file) {
        if (Files.isRegularFile(file)) {
            links.add(new Link(label, relative(file)));
        }
    }

    /** The folder of the cell's (first) run: the cell's own, or run-1 when it ran several times. */
    static Path runFolder(CellResult r) {
        return r.firstRunDir();
    }

    /** Where the cell's client left its files: jmeter/ for JMeter cells, library/ for library cells. */
    static Path clientFolder(CellResult r) {
        return runFolder(r).resolve(r.cell().generator().folder());
    }

    /** The client's results of the cell's (first) run. */
    static Path jtlOf(CellResult r) {
        return clientFolder(r).resolve("results.jtl");
    }

    /** The per-second timeline the runner wrote for the cell's (first) run. */
    static Path timelineOf(CellResult r) {
        return runFolder(r).resolve("timeline.json");
    }

    /** An id for HTML anchors: the cell's folder name, which has no slash. */
    static String anchor(CellResult r) {
        return "cell-" + r.cell().folder();
    }

    /** A name safe in a file name or an HTML id (a user's plan is named after its file). */
    static String safe(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]", "-");
    }

    String relative(Path file) {
        return dir.relativize(file.toAbsolutePath()).toString().replace('\\', '/');
    }

    Optional<Reference> reference(CellResult r) {
        return comparable ? r.cell().reference() : Optional.empty();
    }

    /** The sentence that explains a difference from the reference, when ours differs by more than a quarter. */
    Optional<String> explanation(CellResult r) {
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
}
