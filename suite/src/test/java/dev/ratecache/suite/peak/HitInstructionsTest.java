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
    void nginxsBoundIsTheNativeAgesUnlessTheProductionFrontUsesNjs() {
        assertThat(HitInstructions.nginxBound(step(false))).isEqualTo(HitInstructions.NGINX_BOUND);
        assertThat(HitInstructions.nginxBound(step(true))).isEqualTo(HitInstructions.NGINX_NJS_AGE_BOUND);
    }

    @Test
    void aFrontPastItsBoundIsSaidPastAndOneWithinItWithin() {
        HitInstructions.Row bare = new HitInstructions.Row(step(false), 0, 500L * 30_000);
        HitInstructions.Row front = new HitInstructions.Row(step(false), 0, 500L * 51_000);
        HitInstructions.Outcome nginx = new HitInstructions.Outcome("nginx", List.of(bare, front), 1.65, List.of());
        HitInstructions.Outcome haproxy = new HitInstructions.Outcome("HAProxy", List.of(bare, front), 1.8, List.of());

        assertThat(nginx.ratio()).isEqualTo(1.7);
        assertThat(nginx.withinBound()).isFalse();
        assertThat(HitInstructions.table(nginx)).contains("production front over the bare cache: 1.70, PAST the bound of 1.65");
        assertThat(haproxy.withinBound()).isTrue();
        assertThat(HitInstructions.table(haproxy)).contains("HAProxy's full front over its bare form: 1.70, within the bound of 1.80");
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
