package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * reproduce fast-origin end to end, wrk shortened to 1 s: its cells are cells like any other in
 * summary.json, with wrk's figures and the published ones beside them, and its section sets the
 * published table beside ours.
 */
@StackTest
@LongTest
class ReproduceStackTest {
    private static final CommandRun CLI = new CommandRun();
    private static int exitCode;
    private static Path run;
    private static JsonNode summary;
    private static final Map<String, JsonNode> CELLS = new HashMap<>();

    @BeforeAll
    static void reproduce() throws Exception {
        Path results = TestDirs.fresh(ReproduceStackTest.class, "results");
        exitCode = CLI.run("reproduce", "fast-origin", "--duration", "1", "--no-dashboards", "--results",
                results.toString());
        run = results.resolve("latest").toRealPath();
        summary = new ObjectMapper().readTree(run.resolve("summary.json").toFile());
        summary.get("cells").forEach(c -> CELLS.put(c.get("name").asText(), c));
    }

    private static String output() {
        return CLI.out() + "\n" + CLI.err();
    }

    @Test
    void bothCellsCompleteWithWrksFigures() {
        assertThat(exitCode).as(output()).isZero();
        assertThat(CELLS).containsOnlyKeys("fast-origin/direct", "fast-origin/edge");
        CELLS.values().forEach(c -> {
            assertThat(c.get("status").asText()).as(c.toString()).isEqualTo("ok");
            assertThat(c.get("description").asText()).startsWith("wrk -t10 -c20 -d1s on /fast, ");
            assertThat(c.at("/metrics/samples/median").asDouble()).isPositive();
            assertThat(c.at("/metrics/throughput/median").asDouble()).isPositive();
            assertThat(c.at("/metrics/other_errors_pct/median").asDouble()).isZero();
        });
        assertThat(run.resolve("cells/fast-origin-edge/wrk/wrk.out")).content().contains("Requests/sec:");
    }

    /** wrk keeps no record per request: no second-by-second timeline, and index.html says why. */
    @Test
    void aWrkCellHasNoTimelineAndThePageSaysWhy() throws Exception {
        assertThat(run.resolve("cells/fast-origin-edge/timeline.json")).doesNotExist();
        assertThat(Files.readString(run.resolve("index.html")))
                .contains("No timeline: this cell's client left no per-request results.")
                .contains("<th>published row</th>");
    }

    @Test
    void theEdgeCellIsAnsweredByTheEdgeCacheAndTheDirectOneByTheOrigin() {
        JsonNode edge = CELLS.get("fast-origin/edge").get("metrics");
        JsonNode direct = CELLS.get("fast-origin/direct").get("metrics");

        assertThat(edge.at("/edge_hit_pct/median").asDouble()).isGreaterThan(99);
        assertThat(edge.at("/origin_requests/median").asDouble()).isEqualTo(1);
        // Every answer wrk counted, and those its 20 connections still waited for when it stopped.
        double answered = direct.at("/samples/median").asDouble();
        assertThat(direct.at("/origin_requests/median").asDouble()).isBetween(answered, answered + 20);
    }

    @Test
    void thePublishedFiguresStandBesideOursAndTheSharedCpuModelPredictsEachWrkCell() {
        assertThat(CELLS.get("fast-origin/edge").at("/reference/throughput").asDouble()).isEqualTo(124366.73);
        assertThat(CELLS.get("fast-origin/direct").at("/reference/throughput").asDouble()).isEqualTo(18838.56);
        for (String cell : List.of("fast-origin/edge", "fast-origin/direct")) {
            JsonNode prediction = CELLS.get(cell).get("prediction");
            assertThat(prediction.get("predicted").asBoolean()).as(cell).isTrue();
            // From the cell's own CPU per request: its throughput, positive and set beside the measured one.
            assertThat(prediction.at("/metrics/throughput/predicted").asDouble()).as(cell).isPositive();
            assertThat(prediction.at("/metrics/throughput/measured").asDouble()).as(cell)
                    .isEqualTo(CELLS.get(cell).at("/metrics/throughput/median").asDouble());
        }
        assertThat(summary.at("/run/shortened").asText()).startsWith("wrk ran 1 s in each wrk cell");
    }

    @Test
    void theSectionSetsThePublishedTableBesideOurs() throws Exception {
        JsonNode section = summary.at("/sections/0");

        assertThat(section.get("title").asText()).startsWith("Seed 003 reproduced (fast-origin)");
        assertThat(section.at("/tables/0/rows/0/values/0").asText()).isEqualTo("fast-origin/edge");
        assertThat(section.at("/tables/0/rows/0/values/1").asText()).matches("124366\\.73 / \\d+\\.\\d\\d");
        assertThat(section.at("/lines/1").asText()).startsWith("Here: The edge's HIT answered ");
        assertThat(Files.readString(run.resolve("report.md"))).contains("## Seed 003 reproduced (fast-origin)");
    }
}
