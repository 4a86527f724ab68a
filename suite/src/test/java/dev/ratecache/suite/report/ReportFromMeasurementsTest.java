package dev.ratecache.suite.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Lateness;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.ReplayBreakdown;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The report formats what the measurements carry: each test's run folder is empty, as if the cells'
 * own files (load-hosts.json, replay.json) had never been written.
 */
class ReportFromMeasurementsTest {
    private static final Cell STRESS = Matrix.reference(List.of(Plan.STRESS)).get(0);
    private static final Cell REPLAY = Cell.of(Plan.replay(Path.of("schedule.csv"), 100, 10, 10), Cell.NO_CACHING).build();
    private static final JtlSummary JTL = new JtlSummary(100, 10, 0, 0, 10, 50, 1, 300, 40, 80, 90, 250, 10_000);

    private static CellMeasurement measured(Double machineCpuPct, CellMeasurement.Breakdowns breakdowns) {
        return new CellMeasurement(JTL, 50.0, null, new CellMeasurement.Cpu(0.1, 0.1, 1.0, 2.0), 10, null, null, null,
                new CellMeasurement.WindowCpu(machineCpuPct, 40.0), breakdowns);
    }

    private static CellMeasurement.Breakdowns replayed(Map<String, Long> perHost) {
        ReplayBreakdown b = new ReplayBreakdown(new Lateness(100, 3, 400, 900, 0), 50, true,
                List.of(new ReplayBreakdown.PathRow("/search", 60, 6, 10.0, 0.0, 54L)),
                List.of(new ReplayBreakdown.ClientRow("alice", "127.16.0.1", 40, 6, 2)), 7, 1);
        return CellMeasurement.Breakdowns.of(perHost, null, b);
    }

    private static Map<String, Long> twoHosts() {
        Map<String, Long> perHost = new LinkedHashMap<>();
        perHost.put("10.0.0.2", 50L);
        perHost.put("10.0.0.3", 50L);
        return perHost;
    }

    private static String reportMd(Path dir, MatrixRunner.Outcome outcome) throws Exception {
        new ReportWriter(dir, Map.of(), outcome, List.of(), false).write();
        return ReportText.md(dir);
    }

    @Test
    void loadHostsAndAReplaysBreakdownComeFromTheMeasurement() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "carried");
        CellResult r = new CellResult(REPLAY, List.of(measured(50.0, replayed(twoHosts()))), null, dir,
                dir.resolve("cells").resolve(REPLAY.folder()));

        String md = reportMd(dir, new MatrixRunner.Outcome(List.of(r), 20, 10, 1));

        assertThat(md).contains("| " + REPLAY.name() + " | 10.0.0.2 50, 10.0.0.3 50 | 100 |")
                .contains("## Replay: " + REPLAY.name())
                .contains("| /search | 60 | 10.0 | 0.0 | 54 |")
                .contains("| alice | 127.16.0.1 | 40 | 6 | 2 |")
                .contains("Clients: 1 of 7 had requests rejected.")
                .contains("| " + REPLAY.name() + " (DISTORTED) |")
                .contains("DISTORTED: the generator fell behind the log's schedule (start lateness p99 400 ms > 50 ms)");
    }

    @Test
    void aLoggedPathOrClientIsShownWithWhatIsNotPrintableEscaped() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "escaped");
        ReplayBreakdown b = new ReplayBreakdown(new Lateness(100, 3, 4, 9, 0), 50, false,
                List.of(new ReplayBreakdown.PathRow("/clear\u001b[2J|\nnext", 60, 6, 10.0, 0.0, 54L)),
                List.of(new ReplayBreakdown.ClientRow("\u001b]0;title\u0007", "127.16.0.1", 40, 6, 2)), 7, 1);
        CellResult r = new CellResult(REPLAY, List.of(measured(50.0, CellMeasurement.Breakdowns.of(Map.of(), null, b))), null,
                dir, dir.resolve("cells").resolve(REPLAY.folder()));

        String md = reportMd(dir, new MatrixRunner.Outcome(List.of(r), 20, 10, 1));

        assertThat(md).contains("| /clear\\x1b[2J\\|\\x0anext | 60 |", "| \\x1b]0;title\\x07 | 127.16.0.1 | 40 |")
                .doesNotContainPattern("[\\p{Cntrl}&&[^\\n]]");
        assertThat(dir.resolve("index.html")).content().contains("\\x1b]0;title\\x07")
                .doesNotContainPattern("[\\p{Cntrl}&&[^\\n]]");
    }

    @Test
    void aRunThatFailedAfterBreakingItsSamplesDownStillShowsThem() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "failed");
        CellResult failed = new CellResult(REPLAY, List.of(), "incomplete: the client recorded 90 samples of 100",
                dir.resolve("jmeter.log"), dir.resolve("cells").resolve(REPLAY.folder()), replayed(twoHosts()));

        String md = reportMd(dir, new MatrixRunner.Outcome(List.of(failed), 20, 10, 1));

        assertThat(md).contains("| " + REPLAY.name() + " | 10.0.0.2 50, 10.0.0.3 50 | 100 |")
                .contains("## Replay: " + REPLAY.name());
    }

    @Test
    void aCellOnASaturatedMachineIsToBeReadWithCareAndItsFigureIsInTheSummary() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "saturated");
        CellResult r = new CellResult(STRESS, List.of(measured(97.0, CellMeasurement.Breakdowns.NONE)), null, dir, dir);

        String md = reportMd(dir, new MatrixRunner.Outcome(List.of(r), 20, 10, 1));

        assertThat(md).contains("Read with care:").contains("- **stress/no-caching**: SATURATED: the machine was"
                + " saturated (97 % of all cores busy), so these figures measure the generator and the machine, not the tiers");
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertThat(summary.get("metrics")).anySatisfy(m -> {
            assertThat(m.get("id").asText()).isEqualTo("machine_cpu_pct");
            assertThat(m.get("unit").asText()).isEqualTo("%");
        });
        assertThat(summary.get("cells").get(0).get("metrics").get("machine_cpu_pct").get("median").asDouble())
                .isEqualTo(97.0);
        assertThat(summary.get("cells").get(0).get("saturated").asBoolean()).isTrue();
        assertThat(summary.get("cells").get(0).get("saturation").asText())
                .isEqualTo("the machine was saturated (97 % of all cores busy)");
    }

    @Test
    void aCellWithCoresToSpareIsNotToBeReadWithCare() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "idle");
        CellResult r = new CellResult(STRESS, List.of(measured(40.0, CellMeasurement.Breakdowns.NONE)), null, dir, dir);

        assertThat(reportMd(dir, new MatrixRunner.Outcome(List.of(r), 20, 10, 1))).doesNotContain("Read with care:");
        JsonNode cell = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("cells").get(0);
        assertThat(cell.get("saturated").isBoolean()).isTrue();
        assertThat(cell.get("saturated").asBoolean()).isFalse();
        assertThat(cell.has("saturation")).isFalse();
    }

    @Test
    void withoutDashboardsTheReportLinksNoneAndSaysTheyWereSkipped() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "no-dashboards");
        Path cellDir = dir.resolve("cells").resolve(STRESS.folder());
        Files.createDirectories(cellDir.resolve("jmeter"));
        Files.writeString(cellDir.resolve("jmeter/results.jtl"), "");
        CellResult r = new CellResult(STRESS, List.of(measured(40.0, CellMeasurement.Breakdowns.NONE)), null, cellDir,
                cellDir);

        String md = reportMd(dir, new MatrixRunner.Outcome(List.of(r), 20, 10, 1, false));

        String html = Files.readString(dir.resolve("index.html"));
        assertThat(md).contains("- **dashboards**: JMeter's dashboards and graphs were not drawn (--no-dashboards)");
        assertThat(html).contains("<dt>dashboards</dt><dd>JMeter&#39;s dashboards and graphs were not drawn (--no-dashboards)")
                .contains(">JTL</a>").doesNotContain(">dashboard</a>").doesNotContain("graphs/");
    }

    @Test
    void drawnDashboardsGoUnmentioned() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "dashboards");
        CellResult r = new CellResult(STRESS, List.of(measured(40.0, CellMeasurement.Breakdowns.NONE)), null, dir, dir);

        assertThat(reportMd(dir, new MatrixRunner.Outcome(List.of(r), 20, 10, 1))).doesNotContain("--no-dashboards");
    }
}
