package dev.ratecache.suite.kinds.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.TierFigures;
import dev.ratecache.suite.report.ReportWriter;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A keys cell's tier section in report.md, summary.json and index.html, from what its measurement
 * carries: the run folder is empty, as if no cell file had been written.
 */
class TierReportTest {
    private static final Cell NOISY = TierCells.of(KeyedTraffic.defaultTiers(), null, "X-Api-Key").get(3);
    private static final JtlSummary JTL = new JtlSummary(100, 10, 0, 0, 10, 50, 1, 300, 40, 80, 90, 250, 10_000);

    private static Sample sample(long at, String label, String code) {
        boolean ok = code.equals("200");
        return new Sample(1_700_000_000_000L + at, 10, label, code, "", "t", ok, 10, 1, "", "HIT", "");
    }

    private static CellResult noisyCell(Path dir) {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            samples.add(sample(i * 100L, "free/free-noisy", i < 2 ? "200" : "429"));
            samples.add(sample(i * 100L, "free/free-1", "200"));
            samples.add(sample(i * 100L, "pro/pro-1", "200"));
        }
        TierFigures tiers = TierFigures.of(samples, "free-noisy");
        CellMeasurement m = new CellMeasurement(JTL, 50.0, 90.0, new CellMeasurement.Cpu(0.1, 0.1, 1.0, 2.0), 10, null,
                null, null, CellMeasurement.WindowCpu.UNKNOWN, CellMeasurement.Breakdowns.of(null, null, tiers));
        return new CellResult(NOISY, List.of(m), null, dir, dir.resolve("cells").resolve(NOISY.folder()));
    }

    @Test
    void theTierTableAndTheNoisyNeighbourFigureComeFromTheMeasurement() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "tiers");
        List<CellResult> cells = List.of(noisyCell(dir));
        // --matrix tiers brings its section: the tables and each cell's figures in summary.json.
        new ReportWriter(dir, Map.of(), new MatrixRunner.Outcome(cells, 20, 10, 1), List.of(), false, Map.of(),
                TiersSection.of(cells, Map.of())).write();

        String md = Files.readString(dir.resolve("report.md"));
        assertThat(md).contains("## Tiers: keys/api-key.noisy")
                .contains("Noisy neighbour: while key free-noisy flooded (90.0 % of its requests rejected), the"
                        + " well-behaved keys had 0.0 % of theirs rejected.")
                .contains("| free | 2 |")
                .contains("| pro | 1 |");
        JsonNode tiers = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("cells").get(0).get("tiers");
        assertThat(tiers.get("noisy_rejected_pct").asDouble()).isEqualTo(90.0);
        assertThat(tiers.get("tiers").get(0).get("per_key")).hasSize(2);
        String html = Files.readString(dir.resolve("index.html"));
        assertThat(html).contains("data-kind=\"tiers\"").contains("\"tierTimelines\"");
    }
}
