package dev.ratecache.suite.report;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.TierFigures;
import dev.ratecache.suite.matrix.Timeline;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * index.html: per plan its table, its bar charts and each cell over time, drawn by Chart.js. The
 * page, Chart.js (copied from its webjar into assets/) and the chart data (inside the page, since
 * a browser will not fetch() a file:// URL) are all in the run folder: it opens with no network.
 */
public final class HtmlPage {
    /**
     * Chart.js, as pinned in pom.xml (chartjs.version): a report test fails when the two differ.
     * Public for compare's page, which draws with the same copy.
     */
    public static final String CHART_JS = "META-INF/resources/webjars/chart.js/4.5.1/dist/chart.umd.js";

    private final Path dir;
    private final ReportModel model;

    HtmlPage(Path dir, ReportModel model) {
        this.dir = dir;
        this.model = model;
    }

    /** One plan's part of index.html: its table, its bar charts, and its cells over time. */
    public record Section(ReportModel.Table table, List<Bar> bars, List<CellView> cells) {}

    /** A bar chart's canvas; report.js finds its data by plan and metric. */
    public record Bar(String plan, String metric, String title) {}

    /**
     * A cell's over-time charts.
     *
     * @param caches whether any cache answered (else its caches chart is left out)
     * @param tiers  whether it is a keys cell with figures per tier (its per-tier chart is drawn)
     * @param pool   whether its timeline has the origin's database pool, read once a second (its pool chart is drawn)
     */
    public record CellView(String name, String anchor, String description, boolean failed, String failure,
            boolean hasTimeline, boolean caches, List<ReportModel.Link> links, boolean tiers, boolean pool) {}

    /** Writes index.html and its assets. */
    void write(List<ChartData.BarChart> bars) throws IOException {
        copyAssets();
        Files.writeString(dir.resolve("index.html"), html(bars), StandardCharsets.UTF_8);
    }

    private String html(List<ChartData.BarChart> bars) throws IOException {
        Map<String, Object> context = model.context(Column.HTML);
        Map<String, Object> timelines = new LinkedHashMap<>();
        Map<String, Object> tierTimelines = new LinkedHashMap<>();
        List<Section> sections = new ArrayList<>();
        for (ReportModel.PlanCells plan : model.plans()) {
            List<Bar> canvases = bars.stream().filter(b -> b.plan().equals(plan.name()))
                    .map(b -> new Bar(b.plan(), b.metric(), b.axis())).toList();
            List<CellView> cells = new ArrayList<>();
            for (CellResult r : plan.cells()) {
                Timeline timeline = ChartData.timeline(r);
                String anchor = ReportModel.anchor(r);
                if (timeline != null) {
                    timelines.put(anchor, timeline.json());
                }
                var tiers = r.runs().isEmpty() ? null : r.firstBreakdowns().figure(TierFigures.class);
                if (tiers != null) {
                    tierTimelines.put(anchor, ChartData.tierTimeline(tiers));
                }
                cells.add(new CellView(r.cell().name(), anchor, r.cell().describe(), r.failed(),
                        r.failed() ? r.failure() : "", timeline != null, timeline != null && ChartData.anyCache(timeline),
                        model.links(r), tiers != null, timeline != null && timeline.series(Timeline.DB_ACTIVE) != null));
            }
            sections.add(new Section(model.table(plan, Column.HTML), canvases, cells));
        }
        context.put("sections", sections);
        context.put("data", ChartData.pageJson(bars, timelines, tierTimelines));
        return ReportTemplates.html("index.html").execute(context);
    }

    /** Chart.js and the page's script, next to index.html: the page must open from file:// with no network. */
    private void copyAssets() throws IOException {
        Path assets = chartAssets(dir);
        copyResource("report/report.js", assets.resolve("report.js"));
    }

    /**
     * Chart.js and what every page of charts shares (charts.js: the defaults, the error kept on the
     * page, the plugin by which each canvas says what it drew), in
     * {@code dir}/assets, which it creates: what every page with charts loads before its own script.
     */
    public static Path chartAssets(Path dir) throws IOException {
        Path assets = Files.createDirectories(dir.resolve("assets"));
        copyResource(CHART_JS, assets.resolve("chart.umd.js"));
        copyResource("report/charts.js", assets.resolve("charts.js"));
        return assets;
    }

    /** A resource of the suite's class path copied to {@code to}. */
    public static void copyResource(String resource, Path to) throws IOException {
        try (InputStream in = HtmlPage.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is not on the class path (is the chart.js webjar's version the one in pom.xml?)");
            }
            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
