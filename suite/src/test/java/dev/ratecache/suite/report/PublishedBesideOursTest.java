package dev.ratecache.suite.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Reference;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A cell beside another experiment's published row shows that row's figures where a reference
 * cell shows the reference's, and an experiment's section sets its table beside ours in every view.
 */
class PublishedBesideOursTest {
    private static final Cell EDGE = Cell.of(Plan.ofPath("fast-origin", "/fast", 14), "edge").frontLimit(false)
            .backLimit(false).serverCache().generator(Generator.WRK).property("threads", "10")
            .property("connections", "20").property("duration", "10")
            .published(new Cell.Published("seed 003", "omni_httpd", new Reference(124366.73, 0, 0.35485, null, 47.24,
                    "Both are C servers that answer from memory.")))
            .build();
    private static final ReportSection SECTION = new ReportSection("Seed 003 reproduced (fast-origin): a fast origin",
            "Published: omni_httpd.", List.of(new ReportSection.Table(List.of("published row", "req/s: published / here"),
                    List.of(ReportSection.Row.of(List.of("omni_httpd | H2O", "124366.73 / 48000.00"))))),
            List.of("Then: 6.6 times."), Map.of());

    private static Path written() throws Exception {
        Path dir = TestDirs.fresh(PublishedBesideOursTest.class, "run");
        JtlSummary jtl = new JtlSummary(480_000, 0, 0, 0, 48_000, 0.4, 0, 47, 0, 1, 1, 2, 10_000);
        CellMeasurement m = new CellMeasurement(jtl, 1.0, 100.0, new CellMeasurement.Cpu(5.0, 0.0, 0.0, 8.0), 10);
        CellResult r = new CellResult(EDGE, List.of(m), null, dir, dir.resolve("cells").resolve(EDGE.folder()));
        new ReportWriter(dir, Map.of(), new MatrixRunner.Outcome(List.of(r), 20, 10, 1), List.of(), true, Map.of(),
                List.of(SECTION)).write();
        return dir;
    }

    @Test
    void thePublishedRowsFiguresStandInBracketsAndInSummaryJsonWithWhyOursDiffers() throws Exception {
        Path dir = written();

        assertThat(Files.readString(dir.resolve("report.md")))
                .contains("Figures in brackets are the published ones of the experiment each cell reproduces")
                .contains("| fast-origin/edge | 48000.0 (124366.7) |")
                .contains("- **fast-origin/edge**: Both are C servers that answer from memory.");
        JsonNode cell = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("cells").get(0);
        assertThat(cell.at("/reference/throughput").asDouble()).isEqualTo(124366.73);
        assertThat(cell.at("/reference/mean_ms").asDouble()).isEqualTo(0.35485);
        assertThat(cell.get("why_ours_differs").asText()).isEqualTo("Both are C servers that answer from memory.");
        assertThat(cell.get("description").asText()).startsWith("wrk -t10 -c20 -d10s on /fast, ")
                .endsWith("beside seed 003's published row \"omni_httpd\"");
    }

    /** The grey bars are the seed's, not the reference experiment's of 2014. */
    @Test
    void theChartsNameWhoseFiguresTheGreyBarsAre() throws Exception {
        assertThat(Files.readString(written().resolve("index.html"))).contains("\"referenceLabel\":\"published (seed 003)\"")
                .doesNotContain("reference (2014)");
    }
}
