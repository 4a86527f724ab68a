package dev.ratecache.suite.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.report.ReportSection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An experiment's section: its published table beside our cells, why they differ, then and here. */
class ReproductionSectionTest {
    private static final Experiment FAST = Reproductions.named("fast-origin");
    private static final Experiment REDIS = Reproductions.named("redis-vs-nginx");

    private static List<String> row(ReportSection s, int i) {
        return s.tables().get(0).rows().get(i).cells();
    }

    @Test
    void eachPublishedRowStandsBesideItsCellWithBothFiguresAndTheRatio() {
        ReportSection s = ReproductionSection.of(FAST, List.of(
                Results.measured(Results.cell(FAST, "fast-origin/direct"), 5000, 4),
                Results.measured(Results.cell(FAST, "fast-origin/edge"), 48000, 0.4)));

        assertThat(s.title()).isEqualTo("Seed 003 reproduced (fast-origin): a fast origin, straight and behind the edge");
        assertThat(s.tables().get(0).headings()).containsExactly("published row", "here", "req/s: published / here",
                "mean ms: published / here", "max ms: published / here", "requests: published / here",
                "here / published req/s", "why ours differs");
        assertThat(row(s, 0)).startsWith(FAST.published().get(0).row(), "fast-origin/edge", "124366.73 / 48000.00",
                "354.85us / 0.40", "47.24ms / 4.0", "1256199 / 480000", "0.39");
        assertThat(row(s, 1)).contains("about 70K/sec / 48000.00", "n/a / 0.40", "0.69");
        assertThat(row(s, 2)).contains("fast-origin/direct", "18838.56 / 5000.00", "0.27");
    }

    @Test
    void aRowMoreThanAQuarterOffSaysWhyAndOneWithinSaysThereIsNothingToExplain() {
        ReportSection s = ReproductionSection.of(FAST, List.of(
                Results.measured(Results.cell(FAST, "fast-origin/direct"), 20000, 1),
                Results.measured(Results.cell(FAST, "fast-origin/edge"), 48000, 0.4)));

        assertThat(row(s, 0).get(7)).isEqualTo(FAST.published().get(0).whyOursDiffers()).contains("M1 Max");
        assertThat(row(s, 2).get(7)).isEqualTo("within a quarter of theirs: nothing to explain");
        assertThat(row(s, 3).get(7)).isEqualTo(FAST.published().get(3).whyOursDiffers());
    }

    @Test
    void aCellThatFailedHasNoFiguresAndSaysWhy() {
        ReportSection s = ReproductionSection.of(FAST, List.of(
                Results.measured(Results.cell(FAST, "fast-origin/direct"), 5000, 4),
                Results.failed(Results.cell(FAST, "fast-origin/edge"), "wrk exited with code 1")));

        assertThat(row(s, 0)).contains("124366.73 / n/a", "n/a",
                "not measured: fast-origin/edge failed: wrk exited with code 1");
        assertThat(s.lines().get(1)).isEqualTo("Here: Not measured: fast-origin/edge failed: wrk exited with code 1.");
    }

    @Test
    void thenAndHereSayTheGainAndWhatEachAnswerCostWhereItWasMade() {
        CellResult app = Results.measured(Results.cell(REDIS, "redis-vs-nginx/app-redis"), 500, 20, 5000,
                new CellMeasurement.Cpu(null, null, 2.0, 1.0), 0.5);
        CellResult edge = Results.measured(Results.cell(REDIS, "redis-vs-nginx/nginx-cache"), 5000, 2, 50000,
                new CellMeasurement.Cpu(1.0, 0.0, 0.0, 3.0), null);

        List<String> lines = ReproductionSection.of(REDIS, List.of(app, edge)).lines();

        assertThat(lines.get(0)).isEqualTo("Then: " + REDIS.foundThen()).contains("428.75 against 169.76");
        assertThat(lines.get(1)).isEqualTo("Here: nginx's cache answered 10.0 times what the app did from Redis"
                + " (5000.00 against 500.00 requests/s; mean latency 2.00 against 20.00 ms).");
        assertThat(lines.get(2)).startsWith("Each answer cost 500 µs of CPU in the app and Redis, against 20 µs in the edge");
    }

    /** On shared cores the edge gains at most the quotient of the two servers' CPU per answer. */
    @Test
    void aFastOriginsGainIsBoundByTheQuotientOfEachServersCpuPerAnswer() {
        CellResult direct = Results.measured(Results.cell(FAST, "fast-origin/direct"), 5000, 4, 50_000,
                new CellMeasurement.Cpu(null, null, 12.5, 8.0), null);
        CellResult edge = Results.measured(Results.cell(FAST, "fast-origin/edge"), 50000, 0.4, 500_000,
                new CellMeasurement.Cpu(9.0, 0.0, 0.0, 8.0), null);

        List<String> lines = ReproductionSection.of(FAST, List.of(direct, edge)).lines();

        assertThat(lines.get(1)).isEqualTo("Here: The edge's HIT answered 50000.00 requests/s against the origin's"
                + " 5000.00 straight from memory: 10.00 times (mean latency 0.40 against 4.00 ms).");
        assertThat(lines.get(2)).startsWith("On cores they share, each server answers at most as fast as its CPU per"
                + " answer allows: 250 µs in the origin, 18 µs in the front nginx, so the edge can gain at most 13.9"
                + " times here (10.00 measured, wrk using 80 % of a core beside them).");
    }

    @Test
    void theReferencesFindingIsServerSideCachingsGainInEachPlan() {
        Experiment reference = Reproductions.named("reference");
        CellMeasurement.Cpu cpu = new CellMeasurement.Cpu(0.1, 0.1, 1.0, 2.0);
        List<CellResult> cells = List.of(
                Results.measured(Results.cell(reference, "stress/no-caching"), 29, 1400, 1000, 650, cpu, null),
                Results.measured(Results.cell(reference, "stress/server-cache"), 99, 500, 1000, 0, cpu, null),
                Results.measured(Results.cell(reference, "load/no-caching"), 4, 2400, 300, 0, cpu, null),
                Results.measured(Results.cell(reference, "load/server-cache"), 37, 250, 300, 0, cpu, null));

        ReportSection s = ReproductionSection.of(reference, cells);

        assertThat(s.lines().get(1)).isEqualTo("Here: Server-side caching took the stress plan from 29.0 to 99.0"
                + " responses/s (3.4 times) and its rejections from 65.0 % to 0.0 %, and the load plan from 4.0 to 37.0"
                + " responses/s (9.3 times). Each row's difference from the published one, and why, is under the plans'"
                + " tables.");
        assertThat(row(s, 0)).contains("stress/no-caching", "23 / 29.00", "54 / 65.0", "1.26");
        assertThat(row(s, 1).get(8)).isEqualTo("within a quarter of theirs: nothing to explain");
        // A row whose cell did not run says so rather than guessing.
        assertThat(row(s, 2).get(8)).isEqualTo("not measured: stress/client-cache did not run");
    }

    /** 20 connections at 48,000 requests/s wait 0.42 ms on average at most: wrk's 11 ms is its correction's. */
    @Test
    void aWrkMeanLatencyPastWhatItsConnectionsAllowIsToBeReadWithCare() {
        List<String> lines = ReproductionSection.of(FAST, List.of(
                Results.measured(Results.cell(FAST, "fast-origin/direct"), 5000, 4),
                Results.measured(Results.cell(FAST, "fast-origin/edge"), 48000, 11))).lines();

        assertThat(lines).filteredOn(l -> l.startsWith("Read ")).singleElement().asString()
                .startsWith("Read fast-origin/edge's latency with care: wrk's mean, 11.00 ms, is more than its 20"
                        + " connections allow at 48000.00 requests/s (0.42 ms,")
                .contains("correction for coordinated omission");
    }
}
