package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * --matrix db under the quick profile on the suite's PostgreSQL, narrowed to the query straight to
 * the origin, behind the edge cache, and the pool sweep's smallest pool at a rate this shared machine
 * sends in a test (-Jrate=200, a 2 s drain): what the report's database section stands on.
 */
@StackTest
@LongTest
class DbMatrixStackTest {
    private static final List<String> CELL_NAMES = List.of("db/direct", "db/edge", "db/pool-2");
    private static MatrixRun matrix;

    @BeforeAll
    static void runThreeCells() throws Exception {
        matrix = MatrixRun.of(DbMatrixStackTest.class, "db", CELL_NAMES, "-Jrate=200", "-Jdrain=2");
    }

    private static double metric(String cell, String name) {
        return matrix.cells.get(cell).get("metrics").get(name).get("median").asDouble();
    }

    @Test
    void everyCellRunsOnPostgresAndTheEdgeTakesTheQueriesOffTheOrigin() {
        assertThat(matrix.exitCode).as(matrix.output()).isZero();
        assertThat(matrix.cells.keySet()).containsExactlyInAnyOrderElementsOf(CELL_NAMES);
        matrix.cells.values().forEach(c -> assertThat(c.get("status").asText()).as(matrix.output()).isEqualTo("ok"));
        assertThat(metric("db/direct", "origin_requests")).isEqualTo(metric("db/direct", "samples"));
        // PostgreSQL is a component of its own in every cell; its CPU is read in 10 ms ticks, which the quick
        // profile's 200 small queries may not fill (0.0 measured beside two busy loops), the sweep's 800 do.
        assertThat(matrix.cells.get("db/direct").get("metrics").has("cpu_postgres_s")).isTrue();
        assertThat(metric("db/pool-2", "cpu_postgres_s")).isPositive();
        // One miss per edge worker at most, then s-maxage (a day) answers the rest.
        assertThat(metric("db/edge", "origin_requests")).isLessThan(0.1 * metric("db/edge", "samples"));
    }

    @Test
    void thePoolCellRestartsTheOriginWithItsPoolAndIsPredicted() {
        assertThat(matrix.output()).contains("restarting the origin with a pool of 2");
        assertThat(metric("db/pool-2", "pool_active_peak")).isBetween(1.0, 2.0);
        JsonNode prediction = matrix.cells.get("db/pool-2").get("prediction");
        assertThat(prediction.get("predicted").asBoolean()).as(prediction.toString()).isTrue();
        assertThat(prediction.at("/metrics/throughput/predicted").asDouble()).isPositive();
        assertThat(matrix.cells.get("db/direct").at("/prediction/predicted").asBoolean()).isFalse();
    }

    @Test
    void theReportHasTheDatabaseSectionWithARowPerCell() throws Exception {
        JsonNode summary = new ObjectMapper().readTree(matrix.run.resolve("summary.json").toFile());
        JsonNode section = summary.get("sections").get(0);
        assertThat(section.get("title").asText()).startsWith("Database:");
        List<String> rows = new ArrayList<>();
        section.at("/tables/0/rows").forEach(r -> rows.add(r.get("name").asText()));
        assertThat(rows).containsExactlyElementsOf(CELL_NAMES);
        assertThat(java.nio.file.Files.readString(matrix.run.resolve("report.md")))
                .contains("## Database: caches in front of PostgreSQL, and the pool")
                .as("the largest pool's connections each need a request thread").contains("50 request threads");
    }
}
