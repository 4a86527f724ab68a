package dev.ratecache.suite.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Timeline;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's files, from results made up for the purpose. */
class ReportWriterTest {
    private static final Cell NO_CACHING = Matrix.reference(List.of(Plan.STRESS)).get(0);
    private static final List<Cell> CELLS = Matrix.reference(Plan.REFERENCE);

    private static CellMeasurement run(double throughput, long rejected) {
        JtlSummary jtl = new JtlSummary(1000, rejected, 0, 0, throughput, 100, 1, 900, 50, 80, 90, 99, 10_000);
        return new CellMeasurement(jtl, 400.0, null, new CellMeasurement.Cpu(0.1, 0.1, 1.0, 5.0), 12);
    }

    @Test
    void repeatedCellShowsItsMedianAndSpread() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "repeat");
        CellResult cell = new CellResult(NO_CACHING, List.of(run(20, 500), run(30, 600), run(25, 550)), null, dir, dir);
        new ReportWriter(dir, Map.of("profile", "full"), new MatrixRunner.Outcome(List.of(cell), 100, 95, 1),
                List.of(), true).write();

        assertThat(Files.readString(dir.resolve("report.md")))
                .contains("| stress/no-caching | 25.0 [20.0-30.0] (23.0) | 55.0 [50.0-60.0] (54.0) |")
                .contains("spread over the runs as [min-max]");
        JsonNode throughput = new ObjectMapper().readTree(dir.resolve("summary.json").toFile())
                .get("cells").get(0).get("metrics").get("throughput");
        assertThat(throughput.get("median").asDouble()).isEqualTo(25.0);
        assertThat(throughput.get("min").asDouble()).isEqualTo(20.0);
        assertThat(throughput.get("max").asDouble()).isEqualTo(30.0);
    }

    @Test
    void failedCellIsMarkedWithItsReasonAndLogAndTheRunIncomplete() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "failed");
        Path log = dir.resolve("cells/stress-no-caching/nginx/back/logs/error.log");
        CellResult failed = new CellResult(NO_CACHING, List.of(), "the back tier did not start", log, dir);
        new ReportWriter(dir, Map.of(), new MatrixRunner.Outcome(List.of(failed), 10, 0, 0), List.of(), true).write();

        assertThat(Files.readString(dir.resolve("report.md")))
                .contains("INCOMPLETE")
                .contains("FAILED: the back tier did not start (cells/stress-no-caching/nginx/back/logs/error.log)");
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertThat(summary.get("run").get("complete").asBoolean()).isFalse();
        assertThat(summary.get("cells").get(0).get("status").asText()).isEqualTo("failed");
        assertThat(Files.readString(dir.resolve("index.html"))).contains("INCOMPLETE");
        assertThat(ReportWriter.terminal(dir, new MatrixRunner.Outcome(List.of(failed), 10, 0, 0), List.of(), true))
                .contains("INCOMPLETE")
                .containsPattern("(?m)^  stress/no-caching +FAILED: the back tier did not start"
                        + " \\(cells/stress-no-caching/nginx/back/logs/error.log\\)$");
    }

    @Test
    void aKindsSectionShowsItsTableAndFindingsInEveryView() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "section");
        ReportSection section = new ReportSection("Tiers: keys/x", "How to read it.", List.of(new ReportSection.Table(
                List.of("tier", "keys", "rejected %"), List.of(new ReportSection.Row("free", List.of("20", "3.5")),
                        new ReportSection.Row("paid-long-name", List.of("5", "0.0"))))), List.of("a finding"),
                Map.of("stress/no-caching", Map.of("sectionFigure", 7)));
        MatrixRunner.Outcome outcome = everyCell(dir);
        new ReportWriter(dir, Map.of(), outcome, List.of(), true, Map.of(), List.of(section)).write();

        assertThat(Files.readString(dir.resolve("report.md"))).contains("## Tiers: keys/x\n\nHow to read it.\n\n"
                + "| tier | keys | rejected % |\n|---|---|---|\n| free | 20 | 3.5 |\n| paid-long-name | 5 | 0.0 |\n\n"
                + "- a finding\n");
        assertThat(Files.readString(dir.resolve("index.html"))).contains("<thead><tr><th>tier</th><th>keys</th>"
                + "<th>rejected %</th></tr></thead>", "<tr><td>free</td><td>20</td><td>3.5</td></tr>", "<li>a finding</li>");
        JsonNode cells = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("cells");
        assertThat(cells.get(0).get("sectionFigure").asInt()).isEqualTo(7);
        assertThat(cells.get(1).has("sectionFigure")).isFalse();
        JsonNode json = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("sections").get(0);
        assertThat(json.at("/tables/0/rows/1/values/1").asText()).isEqualTo("0.0");
        assertThat(json.has("cellFigures")).isFalse();
        assertThat(ReportWriter.terminal(dir, outcome, List.of(), true, Map.of(), List.of(section)))
                .contains("Tiers: keys/x\n  tier            keys  rejected %\n  free              20         3.5\n"
                        + "  paid-long-name     5         0.0\n  a finding");
    }

    private static CellResult ok(Cell cell, Path dir, double throughput) {
        return new CellResult(cell, List.of(run(throughput, 100)), null, dir, dir.resolve("cells").resolve(cell.folder()));
    }

    /** Every cell of the default matrix, each with its own throughput so rows can be told apart. */
    private static MatrixRunner.Outcome everyCell(Path dir) {
        List<CellResult> results = new java.util.ArrayList<>();
        for (int i = 0; i < CELLS.size(); i++) {
            results.add(ok(CELLS.get(i), dir, 10 + i));
        }
        return new MatrixRunner.Outcome(results, 100, 90, 1);
    }

    @Test
    void summaryFilesCarryTheReferencesPublishedFiguresAndOnlyThose() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "references");
        new ReportWriter(dir, Map.of("profile", "default"), everyCell(dir), List.of(), true).write();

        List<String> csv = Files.readAllLines(dir.resolve("summary.csv"));
        assertThat(csv.get(0)).endsWith(",reference throughput [responses/s],reference rejected_pct [%],"
                + "reference mean_ms [ms],reference min_ms [ms],reference max_ms [ms]");
        assertThat(csv).anySatisfy(line -> assertThat(line).startsWith("stress/no-caching,").endsWith(",23.0,54.0,,,"));
        assertThat(csv).anySatisfy(line -> assertThat(line).startsWith("load/no-caching,")
                .endsWith(",1.4,0.0,6874.0,104.0,19069.0"));
        assertThat(csv).anySatisfy(line -> assertThat(line).startsWith("stress/library,").endsWith(",,,,,"));
        JsonNode cells = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("cells");
        assertThat(cells.get(0).get("reference").toString()).isEqualTo("{\"throughput\":23.0,\"rejected_pct\":54.0}");
        assertThat(cells.get(6).get("reference").toString()).isEqualTo(
                "{\"throughput\":1.4,\"rejected_pct\":0.0,\"mean_ms\":6874.0,\"min_ms\":104.0,\"max_ms\":19069.0}");
        assertThat(cells.get(5).has("reference")).isFalse();
    }

    @Test
    void everyCellHasARowInItsOwnPlansTableInEveryView() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "rows");
        MatrixRunner.Outcome outcome = everyCell(dir);
        new ReportWriter(dir, Map.of("profile", "default"), outcome, List.of(), true).write();

        String md = ReportText.md(dir);
        String stressPart = md.substring(md.indexOf("\n## stress\n"), md.indexOf("\n## load\n"));
        String loadPart = md.substring(md.indexOf("\n## load\n"), md.indexOf("\n## Charts"));
        String html = ReportText.html(dir);
        String htmlStress = html.substring(html.indexOf("<section class=\"plan\" id=\"plan-stress\">"),
                html.indexOf("<section class=\"plan\" id=\"plan-load\">"));
        String terminal = ReportWriter.terminal(dir, outcome, List.of(), true);
        for (Cell cell : CELLS) {
            String row = "| " + cell.name() + " | ";
            assertThat(cell.plan().name().equals("stress") ? stressPart : loadPart).as(cell.name()).contains(row);
            assertThat(cell.plan().name().equals("stress") ? loadPart : stressPart).as(cell.name()).doesNotContain(row);
            assertThat(html).containsOnlyOnce("<tr data-cell=\"" + cell.name() + "\">");
            assertThat(htmlStress.contains("<tr data-cell=\"" + cell.name() + "\">")).as(cell.name())
                    .isEqualTo(cell.plan().name().equals("stress"));
            assertThat(terminal).containsPattern("(?m)^  " + java.util.regex.Pattern.quote(cell.name()) + " +\\d");
        }
        // Every column of report.md, in one header line per plan; the caches' columns only where a cell
        // measured the caches (no stress cell did), the database's only where a cell reported it (none did).
        for (Column c : Column.ALL) {
            if (c.whenMeasured() || c.whenAny()) {
                assertThat(stressPart).doesNotContain(" " + c.label() + " |");
            } else {
                assertThat(stressPart).contains(" " + c.label() + " |");
            }
        }
        assertThat(md).contains("| stress/no-caching | 10.0 (23.0) | 10.0 (54.0) | 0.0 | 100 |")
                .contains("| load/no-caching | 16.0 (1.4) | 10.0 (0.0) | 0.0 | 100 (6874) | 1 (104) | 900 (19069) |");
    }

    private static CellMeasurement hotset(CellMeasurement.Caches caches) {
        JtlSummary jtl = new JtlSummary(200, 0, 0, 0, 180, 30, 1, 500, 20, 40, 60, 90, 1_100);
        return new CellMeasurement(jtl, 90.0, null, new CellMeasurement.Cpu(0.1, 0.1, 1.0, 5.0), 10, null, null, caches);
    }

    @Test
    void cachesCellsShowRedisDatabaseAndStaleReadsAndSayWhereTheAppCacheFailed() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "caches");
        List<Cell> cells = Matrix.caches();
        CellResult none = new CellResult(cells.get(0), List.of(hotset(new CellMeasurement.Caches(null, null, 200.0,
                null, null, null, new dev.ratecache.jtl.StaleReads(190, 0, 0, 0, 0)))), null, dir, dir);
        CellResult app = new CellResult(cells.get(2), List.of(hotset(new CellMeasurement.Caches(null, null, 150.0,
                12.0, "Redis is down", null, new dev.ratecache.jtl.StaleReads(190, 3, 100, 700, 788)))), null, dir, dir);
        MatrixRunner.Outcome outcome = new MatrixRunner.Outcome(List.of(none, app), 20, 18, 1);
        new ReportWriter(dir, Map.of(), outcome, List.of(), false).write();

        String md = ReportText.md(dir);
        assertThat(md).contains("| Redis hits / misses | database queries | cache errors | stale reads | stale share (%)"
                + " | oldest stale (ms) |")
                .contains("| n/a / n/a | 200 | n/a | 0 | 0.00 | 0 |")
                .contains("| n/a / n/a | 150 | 12 | 3 | 1.58 | 788 |")
                .contains("Read with care:")
                .contains("- **hotset/app-cache**: the app cache failed 12 times during the run (Redis down, stopped or"
                        + " hung): the origin answered those reads from the database; last error: Redis is down");
        assertThat(ReportText.html(dir)).contains("<th>CPU origin / Redis (%)</th>")
                .contains("<h3>Read with care</h3>");
        assertThat(ReportWriter.terminal(dir, outcome, List.of(), false))
                .contains("  warning hotset/app-cache: the app cache failed 12 times").contains("oldest stale (ms)");
    }

    @Test
    void aCellOnPostgresShowsItsCpuAndPoolAndCountsThe504sAnd502sItsOriginAnswered() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "database");
        JtlSummary jtl = new JtlSummary(1000, 0, 40, 0, 50, 20, 1, 900, 10, 30, 40, 99, 20_000);
        Map<String, List<Long>> series = new java.util.LinkedHashMap<>();
        series.put(Timeline.OFFERED, List.of(500L, 500L));
        Timeline timeline = new Timeline(1, series).with(Timeline.DB_ACTIVE, Map.of(1L, 2L, 2L, 2L))
                .with(Timeline.DB_PENDING, Map.of(2L, 7L));
        CellMeasurement.Breakdowns breakdowns = CellMeasurement.Breakdowns.of(null, timeline,
                new dev.ratecache.suite.matrix.DatabaseFigures(2, "500ms", 30, 10, "Connection refused", 12.5, 2L, 960, 3.0));
        CellResult pooled = new CellResult(NO_CACHING, List.of(new CellMeasurement(jtl, 1000.0, null,
                new CellMeasurement.Cpu(0.1, 0.1, 4.0, 5.0, 6.0), 20, null, null, null, CellMeasurement.WindowCpu.UNKNOWN,
                breakdowns)), null, dir, dir);
        CellResult plain = new CellResult(CELLS.get(1), List.of(run(20, 0)), null, dir, dir);
        MatrixRunner.Outcome outcome = new MatrixRunner.Outcome(List.of(pooled, plain), 40, 38, 1);
        new ReportWriter(dir, Map.of(), outcome, List.of(), false).write();

        String md = ReportText.md(dir);
        assertThat(md).contains("| 504s | 502s | pool wait (ms) | pool active peak |")
                .contains("| 30 | 10 | 12.5 | 2 |").contains("| CPU PostgreSQL (%) |").contains("| 30.0 |")
                .contains("| n/a | n/a | n/a | n/a |")
                .contains("- **stress/no-caching**: the origin answered 30 requests 504: no database connection freed up"
                        + " within 500ms (a pool of 2); and 10 requests 502: the database failed or could not be reached"
                        + " (last: Connection refused)");
        String html = ReportText.html(dir);
        assertThat(html).contains("<th>504s</th>").contains("<th>CPU PostgreSQL (%)</th>")
                .containsOnlyOnce("data-kind=\"pool\"");
        JsonNode drawn = pageData(html).get("timelines").get("cell-" + NO_CACHING.folder());
        assertThat(drawn.get("series").get("db_active").toString()).isEqualTo("[2,2]");
        assertThat(drawn.get("series").get("db_pending").toString()).isEqualTo("[null,7]");
        JsonNode metrics = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("cells").get(0)
                .get("metrics");
        assertThat(metrics.get("db_504s").get("median").asDouble()).isEqualTo(30);
        assertThat(metrics.get("db_502s").get("median").asDouble()).isEqualTo(10);
        assertThat(metrics.get("cpu_postgres_pct").get("median").asDouble()).isEqualTo(30);
        assertThat(ReportWriter.terminal(dir, outcome, List.of(), false))
                .contains("  warning stress/no-caching: the origin answered 30 requests 504");
    }

    @Test
    void aCellWhoseAnswersWereMostlyErrorsOtherThanRejectionsIsToBeReadWithCare() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "errors");
        JtlSummary jtl = new JtlSummary(200, 0, 200, 0, 50, 2, 0, 10, 1, 3, 4, 8, 4_000);
        CellResult broken = new CellResult(CELLS.get(1), List.of(new CellMeasurement(jtl, 0.0, 0.0,
                new CellMeasurement.Cpu(0.1, 0.1, 0.1, 1.0), 4)), null, dir, dir);
        new ReportWriter(dir, Map.of(), new MatrixRunner.Outcome(List.of(broken), 10, 8, 1), List.of(), false).write();

        assertThat(ReportText.md(dir)).contains("Read with care:").contains("- **"
                + CELLS.get(1).name() + "**: 100.0 % of the answers were errors other than rate-limit rejections: these"
                + " figures measure that failure; see the tiers' error logs (nginx/*/logs/error.log) and origin.log");
    }

    @Test
    void aCellWhoseSharedLimitMostlyFellBackSaysSoAndFillsItsFallbacksColumn() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "fallbacks");
        JtlSummary jtl = new JtlSummary(200, 0, 0, 0, 50, 2, 0, 10, 1, 3, 4, 8, 4_000);
        CellMeasurement.Breakdowns breakdowns = CellMeasurement.Breakdowns.of(null, null,
                new dev.ratecache.suite.matrix.FleetFallbacks("127.0.0.1:6390", 200, 200));
        CellResult fellBack = new CellResult(NO_CACHING, List.of(new CellMeasurement(jtl, 200.0, null,
                new CellMeasurement.Cpu(0.1, 0.1, 0.1, 1.0), 4, null, null, null, CellMeasurement.WindowCpu.UNKNOWN,
                breakdowns)), null, dir, dir);
        MatrixRunner.Outcome outcome = new MatrixRunner.Outcome(List.of(fellBack), 10, 8, 1);
        new ReportWriter(dir, Map.of(), outcome, List.of(), false).write();

        String said = "SHARED LIMIT NOT RUN: 200 of 200 requests (100 %) fell back to each edge's own split limit"
                + " because the fleet's Redis at 127.0.0.1:6390 was unreachable";
        assertThat(ReportText.md(dir)).contains("Read with care:")
                .contains("- **stress/no-caching**: " + said);
        assertThat(ReportWriter.terminal(dir, outcome, List.of(), false)).contains("  warning stress/no-caching: " + said);
        List<String> csv = Files.readAllLines(dir.resolve("summary.csv"));
        int column = List.of(csv.get(0).split(",")).indexOf("fleet_fallbacks [count]");
        assertThat(csv.get(1).split(",")[column]).isEqualTo("200.0");
    }

    @Test
    void terminalTableLinesUpItsColumns() {
        Path dir = TestDirs.fresh(getClass(), "terminal");
        String terminal = ReportWriter.terminal(dir, everyCell(dir), List.of(), false);

        List<String> stress = terminal.lines().dropWhile(l -> !l.equals("stress")).skip(1)
                .takeWhile(l -> !l.isBlank()).toList();
        assertThat(stress).hasSize(1 + 6);
        assertThat(stress.get(0)).startsWith("  cell").contains("throughput (resp/s)").contains("wall (s)");
        int end = stress.get(0).length();
        assertThat(stress).allSatisfy(line -> assertThat(line).hasSize(end));
        assertThat(terminal).doesNotContain("(23.0)").doesNotContain("|");
    }

    @Test
    void chartsArePerPlanAndNeverMixPlans() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "charts");
        new ReportWriter(dir, Map.of(), everyCell(dir), List.of(), true).write();

        for (String plan : List.of("stress", "load")) {
            for (Column c : Column.CHARTED) {
                Path png = dir.resolve("charts/" + plan + "-" + c.metric().id() + ".png");
                assertThat(png).isNotEmptyFile();
                assertThat(Files.readString(dir.resolve("report.md"))).contains("(charts/" + plan + "-" + c.metric().id() + ".png)");
            }
        }
        JsonNode data = pageData(Files.readString(dir.resolve("index.html")));
        assertThat(data.get("plans")).hasSize(2);
        for (JsonNode plan : data.get("plans")) {
            assertThat(plan.get("charts")).hasSize(Column.CHARTED.size());
            for (JsonNode chart : plan.get("charts")) {
                chart.get("labels").forEach(label -> assertThat(label.asText()).startsWith(plan.get("name").asText() + "/"));
            }
        }
        JsonNode stressThroughput = data.get("plans").get(0).get("charts").get(0);
        assertThat(stressThroughput.get("metric").asText()).isEqualTo("throughput");
        assertThat(stressThroughput.get("measured").toString()).isEqualTo("[10.0,11.0,12.0,13.0,14.0,15.0]");
        assertThat(stressThroughput.get("reference").toString()).isEqualTo("[23.0,99.3,99.5,193.0,39.0,null]");
    }

    @Test
    void indexHtmlEscapesTextOfCellsAndChecksAndItsChartDataCannotCloseItsScript() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "escaping");
        String evil = "<script>alert('x')</script> & \"quoted\" | piped";
        CellResult failed = new CellResult(NO_CACHING, List.of(), evil, dir.resolve("error.log"), dir);
        // No file name holds a slash, so the plan is made by hand: the page must hold whatever a name holds.
        Plan mine = new Plan("mine</script>", null, dir.resolve("mine.jmx"), Map.of(), 0, Map.of(),
                new Plan.Estimate(30, 30, 30, 30), Map.of(), false, List.of(), 0);
        Cell odd = Cell.of(mine, "both").serverCache().clientCache().build();
        CellResult oddPlan = ok(odd, dir, 5);
        Check check = Check.parse("stress/no-caching.throughput > 1", CELLS);
        Check.Outcome outcome = new Check.Outcome(check, false, "cell failed: " + evil);

        new ReportWriter(dir, Map.of("switches", "<b>bold</b>"), new MatrixRunner.Outcome(List.of(failed, oddPlan), 10, 5, 0),
                List.of(outcome), false).write();

        String html = Files.readString(dir.resolve("index.html"));
        assertThat(html).doesNotContain("<script>alert").doesNotContain("<b>bold</b>").doesNotContain("mine</script>")
                .contains("FAILED: &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot; | piped")
                .contains("&lt;b&gt;bold&lt;/b&gt;");
        // Exactly the page's own four scripts (Chart.js, charts.js, its data, report.js): no text opened or closed one.
        assertThat(html.split("<script", -1)).hasSize(5);
        assertThat(html.split("</script>", -1)).hasSize(5);
        assertThat(pageData(html).get("plans").get(1).get("name").asText()).isEqualTo("mine</script>");
        String md = Files.readString(dir.resolve("report.md"));
        assertThat(md).contains("FAILED: <script>alert('x')</script> & \"quoted\" \\| piped");
    }

    @Test
    void eachCellWithATimelineGetsItsOverTimeChartsAndTheRestSayWhyNot() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "timelines");
        List<CellResult> cells = new java.util.ArrayList<>(everyCell(dir).cells());
        Map<String, List<Long>> series = new java.util.LinkedHashMap<>();
        series.put(Timeline.OFFERED, List.of(3L, 4L));
        series.put(Timeline.ORIGIN, List.of(1L, 0L));
        series.put(Timeline.EDGE_HIT, List.of(2L, 4L));
        series.put(Timeline.EDGE_MISS, List.of(1L, 0L));
        series.put(Timeline.P95_MS, java.util.Arrays.asList(7L, null));
        Timeline timeline = new Timeline(1, series);
        // The page draws the timeline the measurement carries; the runner's file is only linked.
        CellResult withTimeline = new CellResult(cells.get(1).cell(), List.of(new CellMeasurement(
                new JtlSummary(1000, 100, 0, 0, 11, 100, 1, 900, 50, 80, 90, 99, 10_000), 400.0, null,
                new CellMeasurement.Cpu(0.1, 0.1, 1.0, 5.0), 12, null, null, null, CellMeasurement.WindowCpu.UNKNOWN,
                CellMeasurement.Breakdowns.of(null, timeline))), null, dir, cells.get(1).dir());
        cells.set(1, withTimeline);
        MatrixRunner.Outcome outcome = new MatrixRunner.Outcome(cells, 100, 90, 1);
        Files.createDirectories(withTimeline.dir());
        timeline.write(withTimeline.dir().resolve("timeline.json"));

        new ReportWriter(dir, Map.of(), outcome, List.of(), true).write();

        String html = Files.readString(dir.resolve("index.html"));
        String anchor = "cell-" + withTimeline.cell().folder();
        for (String kind : List.of("requests", "caches", "latency")) {
            assertThat(html).containsOnlyOnce("data-kind=\"" + kind + "\" data-cell=\"" + anchor + "\"");
        }
        assertThat(html).contains("<a href=\"cells/stress-server-cache/timeline.json\">timeline</a>");
        JsonNode drawn = pageData(html).get("timelines").get(anchor);
        assertThat(drawn.get("series").get("edge_hit").toString()).isEqualTo("[2,4]");
        assertThat(drawn.get("series").get("p95_ms").toString()).isEqualTo("[7,null]");
        assertThat(drawn.get("seconds").asInt()).isEqualTo(2);
        assertThat(html.split("data-kind=\"requests\"", -1)).hasSize(2);
        assertThat(html.split("class=\"missing\"", -1)).hasSize(CELLS.size());
    }

    @Test
    void chartJsIsCopiedBesideThePageWhichLoadsNothingFromOutsideTheRunFolder() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "assets");
        new ReportWriter(dir, Map.of(), everyCell(dir), List.of(), true).write();

        assertThat(Files.readString(dir.resolve("assets/chart.umd.js"))).startsWith("/*!\n * Chart.js v4.5.1");
        assertThat(dir.resolve("assets/report.js")).isNotEmptyFile();
        String html = Files.readString(dir.resolve("index.html"));
        // What the page loads (scripts, images, styles) must be in the run folder; what it links to may
        // be the docs in the checkout or a source's page, which a reader opens on purpose.
        java.util.regex.Matcher loads = java.util.regex.Pattern.compile("(?:src|<link[^>]*href)=\"([^\"]*)\"").matcher(html);
        int count = 0;
        while (loads.find()) {
            String ref = loads.group(1);
            count++;
            assertThat(ref).doesNotContain("//").doesNotStartWith("/").doesNotStartWith("..");
            assertThat(dir.resolve(ref)).as(ref).exists();
        }
        assertThat(count).isGreaterThanOrEqualTo(2);
        java.util.regex.Matcher links = java.util.regex.Pattern.compile("<a href=\"([^\"]*)\"").matcher(html);
        int linked = 0;
        while (links.find()) {
            String ref = links.group(1);
            linked++;
            if (ref.startsWith("http")) {
                assertThat(java.util.Arrays.stream(dev.ratecache.suite.matrix.Source.values())
                        .map(dev.ratecache.suite.matrix.Source::link)).as(ref).contains(ref);
            } else if (!ref.startsWith("#") && !ref.equals("checks.xml")) {
                assertThat(dir.resolve(ref.replaceFirst("#.*", ""))).as(ref).exists();
            }
        }
        assertThat(linked).isGreaterThan(10);
    }

    /** The JSON index.html draws from. */
    private static JsonNode pageData(String html) throws Exception {
        String start = "<script type=\"application/json\" id=\"data\">";
        int from = html.indexOf(start) + start.length();
        return new ObjectMapper().readTree(html.substring(from, html.indexOf("</script>", from)));
    }
}
