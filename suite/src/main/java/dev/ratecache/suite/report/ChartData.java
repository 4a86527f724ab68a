package dev.ratecache.suite.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Timeline;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures the charts draw, prepared once for both index.html (as JSON inside the page) and
 * the PNGs of report.md: per plan, one bar chart per charted column over that plan's cells (a
 * stress cell's throughput is never drawn beside a load cell's); per cell, its timeline.
 */
final class ChartData {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ChartData() {}

    /**
     * One bar chart: a column's figure for every cell of one plan.
     *
     * @param measured  the median per cell, null for a failed cell
     * @param reference the reference's figure per cell (null where it has none); null when no cell has one
     */
    record BarChart(String plan, String metric, String title, String unit, int decimals, String color,
            List<String> labels, List<Double> measured, List<Double> reference, String referenceLabel) {
        /** charts/PLAN-METRIC.png */
        String file() {
            return ReportModel.safe(plan) + "-" + metric + ".png";
        }

        /** The axis title, e.g. "throughput (resp/s)". */
        String axis() {
            return unit.isEmpty() ? title : title + " (" + unit + ")";
        }
    }

    /** Every plan's bar charts, plan by plan, in {@link Column#CHARTED} order. */
    static List<BarChart> bars(ReportModel model) {
        List<BarChart> charts = new ArrayList<>();
        for (ReportModel.PlanCells plan : model.plans()) {
            for (Column column : Column.CHARTED) {
                List<String> labels = new ArrayList<>();
                List<Double> measured = new ArrayList<>();
                List<Double> reference = new ArrayList<>();
                for (CellResult r : plan.cells()) {
                    labels.add(r.cell().name());
                    measured.add(r.failed() ? null : r.median(column.metric()));
                    reference.add(column.referenceOf(model.reference(r)));
                }
                boolean anyReference = reference.stream().anyMatch(v -> v != null);
                charts.add(new BarChart(plan.name(), column.metric().id(), column.heading(), column.unit(),
                        column.decimals(), colorOf(column.metric()), labels, measured, anyReference ? reference : null,
                        referenceLabel(plan)));
            }
        }
        return charts;
    }

    /** Whose the grey bars are: the experiment the plan's cells reproduce, or the reference experiment's. */
    private static String referenceLabel(ReportModel.PlanCells plan) {
        return plan.cells().stream().map(r -> r.cell().trait(Cell.Published.class)).filter(p -> p != null)
                .findFirst().map(p -> "published (" + p.source() + ")").orElse("reference (2014)");
    }

    /** The reference's bars, beside ours in every chart. */
    static final String REFERENCE_COLOR = "#a0aec0";

    /** Ours: rejections in a warm colour, the rest cool and apart from each other. */
    private static String colorOf(Metric metric) {
        return switch (metric) {
            case REJECTED_PCT -> "#dd6b20";
            case P95_MS -> "#805ad5";
            case ORIGIN_REQUESTS -> "#2c7a7b";
            default -> "#2b6cb0";
        };
    }

    /**
     * The timeline of the run the report shows (as the runner computed it: no file is read here), or
     * null when there is none (a run that failed before its end, or a library cell).
     */
    static Timeline timeline(CellResult r) {
        return r.firstBreakdowns().timeline();
    }

    /** Whether any cache answered in the timeline: otherwise its caches chart would be an empty frame. */
    static boolean anyCache(Timeline timeline) {
        for (String key : List.of(Timeline.EDGE_HIT, Timeline.EDGE_MISS, Timeline.EDGE_OTHER, Timeline.CLIENT_CACHE_HITS)) {
            List<Long> series = timeline.series(key);
            if (series != null && series.stream().anyMatch(v -> v != null && v > 0)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The JSON index.html draws from, safe inside a {@code <script>} element: every '<', '>' and '&'
     * is written as a \\u escape, which JSON allows in strings (the only place they can occur), so
     * no text of a cell can close the element.
     */
    static String pageJson(List<BarChart> bars, Map<String, ?> timelines) throws IOException {
        return pageJson(bars, timelines, Map.of());
    }

    /**
     * A keys cell's per-tier seconds as index.html draws them: {@code seconds} and, per tier, its
     * admitted and rejected requests in each second. From {@link dev.ratecache.suite.matrix.TierFigures}, which
     * the runner computed: no file is read here.
     */
    static Map<String, Object> tierTimeline(dev.ratecache.suite.matrix.TierFigures f) {
        Map<String, Object> tiers = new LinkedHashMap<>();
        int seconds = 0;
        for (var e : f.seconds().entrySet()) {
            tiers.put(e.getKey(), Map.of("admitted", e.getValue().admitted(), "rejected", e.getValue().rejected()));
            seconds = Math.max(seconds, e.getValue().admitted().size());
        }
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("seconds", seconds);
        t.put("tiers", tiers);
        return t;
    }

    static String pageJson(List<BarChart> bars, Map<String, ?> timelines, Map<String, Object> tierTimelines)
            throws IOException {
        Map<String, Object> data = new LinkedHashMap<>();
        Map<String, List<BarChart>> byPlan = new LinkedHashMap<>();
        for (BarChart b : bars) {
            byPlan.computeIfAbsent(b.plan(), p -> new ArrayList<>()).add(b);
        }
        List<Map<String, Object>> plans = new ArrayList<>();
        byPlan.forEach((plan, charts) -> {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("name", plan);
            p.put("anchor", "plan-" + ReportModel.safe(plan));
            p.put("charts", charts);
            plans.add(p);
        });
        data.put("plans", plans);
        data.put("referenceColor", REFERENCE_COLOR);
        data.put("timelines", timelines);
        data.put("tierTimelines", tierTimelines);
        return JSON.writeValueAsString(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    }
}
