package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.report.FleetPromise;
import dev.ratecache.suite.stack.FleetLog;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * --matrix fleet under the quick profile, through three real edges, the origin and JMeter: per-edge
 * lets the heavy key through well past its limit and fails the promise naming the second;
 * client-hash, split and shared hold it. The margins are wide: the machine is shared.
 */
@StackTest
class FleetMatrixStackTest {
    private static MatrixRun matrix;
    private static Map<String, JsonNode> CELLS;
    private static Map<String, JsonNode> CHECKS;

    @BeforeAll
    static void runTheFleetCells() throws Exception {
        FleetLog.requireSharedLimit();
        matrix = MatrixRun.of(FleetMatrixStackTest.class, "fleet",
                List.of("fleet/per-edge", "fleet/client-hash", "fleet/split", "fleet/shared"));
        CELLS = matrix.cells;
        CHECKS = matrix.checks;
    }

    private static JsonNode fleet(String cell) {
        assertThat(CELLS.get(cell).get("status").asText()).as(cell + "\n" + matrix.output()).isEqualTo("ok");
        JsonNode f = CELLS.get(cell).get("fleet");
        assertThat(f).as(cell + " has fleet figures\n" + matrix.output()).isNotNull();
        return f;
    }

    @Test
    void perEdgeLetsTheHeavyKeyThroughWellPastItsLimitAndFailsThePromise() {
        assertThat(fleet("fleet/per-edge").get("effective_limit").asDouble()).as(matrix.output()).isGreaterThan(1.3);
        JsonNode check = CHECKS.get(FleetPromise.text("fleet/per-edge"));
        assertThat(check.get("passed").asBoolean()).isFalse();
        assertThat(check.get("detail").asText()).startsWith("broken by key free-noisy").contains("UTC");
        // The broken promise is a failed check like any other: the run's exit code says so.
        assertThat(matrix.exitCode).isEqualTo(1);
        assertThat(matrix.cli.err()).contains(FleetPromise.text("fleet/per-edge"));
    }

    @Test
    void clientHashSplitAndSharedHoldThePromise() {
        for (String cell : List.of("fleet/client-hash", "fleet/split", "fleet/shared")) {
            assertThat(fleet(cell).get("effective_limit").asDouble()).as(cell + "\n" + matrix.output()).isBetween(0.5, 1.15);
            assertThat(CHECKS.get(FleetPromise.text(cell)).get("passed").asBoolean()).as(cell + "\n" + matrix.output()).isTrue();
        }
        assertThat(fleet("fleet/shared").get("fallbacks").asLong()).isZero();
    }

    @Test
    void eachCellHasThePredictionAndTheSentenceInTheReport() throws Exception {
        for (String cell : CELLS.keySet()) {
            assertThat(fleet(cell).get("predicted_effective_limit").isNumber()).as(cell).isTrue();
        }
        String md = Files.readString(matrix.run.resolve("report.md"));
        assertThat(md).contains("## Fleet: one per-client limit across the edges",
                "Behind 3 edges in round robin (per-edge), key free-noisy got");
        assertThat(Files.readString(matrix.run.resolve("checks.xml"))).contains(FleetPromise.text("fleet/per-edge"));
    }
}
