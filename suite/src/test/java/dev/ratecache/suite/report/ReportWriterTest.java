package dev.ratecache.suite.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.TestDirs;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.MatrixRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's files, from results made up for the purpose. */
class ReportWriterTest {
    private static final Cell NO_CACHING = Matrix.reference(List.of(dev.ratecache.suite.matrix.Plan.STRESS)).get(0);

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
    }
}
