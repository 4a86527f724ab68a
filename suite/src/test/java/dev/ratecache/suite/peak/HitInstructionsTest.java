package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.peak.HitBreakdown.Feature;
import dev.ratecache.suite.peak.HitBreakdown.Step;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How peak --instructions reads callgrind's counts and what it makes of them. */
class HitInstructionsTest {

    @Test
    void totalsAreReadFromCallgrindsOutputFile() throws Exception {
        Path out = TestDirs.fresh(HitInstructionsTest.class, "totals").resolve("callgrind.out");
        Files.writeString(out, "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: Ir\n"
                + "summary: 126531\n\nfn=(1) main\n0 12\n\ntotals: 126531\n");

        assertThat(HitInstructions.totals(out)).isEqualTo(126_531L);
    }

    @Test
    void aRunThatWroteNoTotalsIsAnError() throws Exception {
        Path out = TestDirs.fresh(HitInstructionsTest.class, "no-totals").resolve("callgrind.out");
        Files.writeString(out, "events: Ir\n");

        assertThatThrownBy(() -> HitInstructions.totals(out, Duration.ofMillis(300))).isInstanceOf(IOException.class)
                .hasMessageContaining("callgrind wrote no totals to " + out);
    }

    @Test
    void perHitIsTheLongRunsExtraInstructionsOverItsExtraHits() {
        HitInstructions.Row row = new HitInstructions.Row(step(false), 1_000_000, 1_000_000
                + 40_000L * (HitInstructions.MANY - HitInstructions.FEW));

        assertThat(row.perHit()).isEqualTo(40_000.0);
    }

    @Test
    void boundIsTheNativeAgesUnlessTheProductionFrontUsesNjs() {
        HitInstructions.Row bare = new HitInstructions.Row(step(false), 0, 500L * 30_000);
        HitInstructions.Outcome nativeAge = new HitInstructions.Outcome(List.of(bare,
                new HitInstructions.Row(step(false), 0, 500L * 51_000)), List.of());
        HitInstructions.Outcome njsAge = new HitInstructions.Outcome(List.of(bare,
                new HitInstructions.Row(step(true), 0, 500L * 51_000)), List.of());

        assertThat(nativeAge.ratio()).isEqualTo(1.7);
        assertThat(nativeAge.withinBound()).isFalse();
        assertThat(njsAge.withinBound()).isTrue();
        assertThat(HitInstructions.table(nativeAge)).contains("1.70, PAST the bound of 1.65");
    }

    @Test
    void oneProcessTurnsTheMasterOffSoCallgrindCountsTheWorkersWork() {
        assertThat(HitInstructions.oneProcess("worker_processes 1;\n")).startsWith("master_process off;\n")
                .endsWith("worker_processes 1;\n");
    }

    private static Step step(boolean njsAge) {
        return new Step(njsAge ? "njs" : "native", EnumSet.of(Feature.LOG), njsAge);
    }
}
