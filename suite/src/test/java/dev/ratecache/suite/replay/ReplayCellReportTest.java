package dev.ratecache.suite.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Lateness;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.ReplayBreakdown;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.TierMembership;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A replay cell's breakdown: the file users read, and the schedule the report takes from the measurements. */
class ReplayCellReportTest {
    private static final Cell CELL = Cell.of(Plan.replay(Path.of("schedule.csv"), 2, 1, 10), Cell.NO_CACHING).build();

    @Test
    void replayJsonHoldsTheBreakdownsFieldsAndNothingElse() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "json");
        List<Sample> samples = List.of(
                new Sample(1_000, 5, "/a", "200", "OK", "t-1", true, 10, 1, "", "HIT", "", 990, "alice"),
                new Sample(1_100, 5, "/a", "429", "", "t-1", false, 10, 1, "", "", "1", 1_090, "bob"));

        ReplayBreakdown written = new ReplayCellReport(List.of(), 10, 50).write(CELL, dir, samples, null, null);

        List<String> fields = new ArrayList<>();
        new ObjectMapper().readTree(dir.resolve(ReplayCellReport.FILE).toFile()).fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("lateness", "maxLatenessMs", "behindSchedule", "paths", "clients",
                "clientsInAll", "clientsRejected");
        assertThat(ReplayCellReport.read(dir)).isEqualTo(written);
    }

    private static Sample keyed(long at, String code, String client, String key) {
        return new Sample(at, 5, "/api", code, "", "t-1", code.equals("200"), 10, 1, "", "", "", at - 1, client,
                Sample.NOT_STALE, key);
    }

    @Test
    void aKeyedReplayListsTheTopKeysAndTheRejectionsPerTierWithUnknownKeysAnonymous() throws Exception {
        TierMembership tiers = TierMembership.of(List.of(
                new LimitTier("free", 1, 1, LimitMode.NODELAY, List.of("f1", "f2")),
                new LimitTier("pro", 50, 100, LimitMode.NODELAY, List.of("p1"))));
        List<Sample> samples = new ArrayList<>();
        // One address, three keys and keyless requests: f1 floods its free tier, p1 and f2 stay inside theirs.
        for (int i = 0; i < 10; i++) {
            samples.add(keyed(1_000 + i, i < 2 ? "200" : "429", "10.0.0.1", "f1"));
        }
        for (int i = 0; i < 5; i++) {
            samples.add(keyed(2_000 + i, "200", "10.0.0.1", "p1"));
        }
        samples.add(keyed(3_000, "200", "10.0.0.1", "f2"));
        samples.add(keyed(3_001, "200", "10.0.0.2", "stranger"));
        samples.add(keyed(3_002, "503", "10.0.0.2", "stranger"));
        samples.add(keyed(3_003, "200", "10.0.0.2", ""));
        samples.add(keyed(3_004, "200", "10.0.0.2", ""));

        Path dir = TestDirs.fresh(getClass(), "keys");
        ReplayBreakdown b = new ReplayCellReport(List.of(), 2, 50, tiers).write(CELL, dir, samples, null, null);

        // The top two by requests, then every other key rejected (up to two more).
        assertThat(b.keys()).containsExactly(
                new ReplayBreakdown.KeyRow("f1", "free", 10, 8, 80.0),
                new ReplayBreakdown.KeyRow("p1", "pro", 5, 0, 0.0),
                new ReplayBreakdown.KeyRow("stranger", "anonymous", 2, 1, 50.0));
        assertThat(b.keysInAll()).isEqualTo(4);
        assertThat(b.keysRejected()).isEqualTo(2);
        assertThat(b.tiers()).containsExactly(
                new ReplayBreakdown.TierRow("free", 2, 1, 11, 8, 72.7),
                new ReplayBreakdown.TierRow("pro", 1, 0, 5, 0, 0.0),
                new ReplayBreakdown.TierRow("anonymous", 1, 1, 2, 1, 50.0),
                new ReplayBreakdown.TierRow(ReplayBreakdown.NO_KEY, 0, 0, 2, 0, 0.0));
        assertThat(ReplayCellReport.read(dir)).isEqualTo(b);
    }

    @Test
    void withoutATiersFileEveryKeyIsInTheAnonymousTier() {
        ReplayCellReport.Keys k = ReplayCellReport.keys(List.of(keyed(1, "200", "c", "a"), keyed(2, "429", "c", "b")),
                TierMembership.of(List.of()), 10);

        assertThat(k.tiers()).containsExactly(new ReplayBreakdown.TierRow("anonymous", 2, 1, 2, 1, 50.0));
    }

    private static CellMeasurement run(long lateP99Ms) {
        JtlSummary jtl = new JtlSummary(2, 0, 0, 0, 1, 5, 5, 5, 5, 5, 5, 5, 2_000);
        ReplayBreakdown b = new ReplayBreakdown(new Lateness(2, 1, lateP99Ms, lateP99Ms, 0), 50,
                lateP99Ms > 50, List.of(), List.of(), 2, 0);
        return new CellMeasurement(jtl, 2.0, null, new CellMeasurement.Cpu(null, null, null, 1.0), 2, null, null, null,
                CellMeasurement.WindowCpu.UNKNOWN, CellMeasurement.Breakdowns.of(null, null, b));
    }

    @Test
    void theScheduleIsTheWorstRunsFromTheMeasurementsAlone() {
        // No folder holds a replay.json: what the report says comes from the measurements.
        CellResult r = new CellResult(CELL, List.of(run(10), run(80), run(30)), null, Path.of("nowhere"),
                Path.of("nowhere"));

        assertThat(ReplayCellReport.schedule(r)).hasValueSatisfying(s -> {
            assertThat(s.behind()).isTrue();
            assertThat(s.describe()).isEqualTo("start lateness p99 80 ms in run 2 > 50 ms");
        });
    }

    @Test
    void aRunThatFailedAfterItsBreakdownStillHasItsSchedule() {
        CellResult failed = new CellResult(CELL, List.of(), "incomplete: the client recorded 1 samples of 2",
                Path.of("nowhere"), Path.of("nowhere"), run(120).breakdowns());

        assertThat(ReplayCellReport.schedule(failed)).hasValueSatisfying(s ->
                assertThat(s.describe()).isEqualTo("start lateness p99 120 ms > 50 ms"));
    }
}
