package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What peak's runs are given and what it reads back from the edges' logs: no process runs. */
class PeakRunTest {
    @Test
    void theQuotasRowsKeepItsWindowAndModeWithAnNThatIsNeverSpent() {
        StackSwitches given = new StackSwitches().quota("1000/d", Quota.Window.FIXED);

        assertThat(PeakRun.withOpenQuota(given, given.quota().orElseThrow()).quota()).contains(
                new Quota(999_999_999, 86_400, Quota.Window.FIXED));
        // The other rows run without it: only the quota's rows count it.
        assertThat(PeakRun.open(given).quota()).isEmpty();
        assertThat(PeakRun.rejecting(given).quota()).isEmpty();
        assertThat(given.quota()).contains(new Quota(1000, 86_400, Quota.Window.FIXED));
    }

    @Test
    void eachRunsMissScriptAsksForUrlsOfItsOwn(@TempDir Path dir) throws IOException {
        // The same stack's cache holds round 1's URLs when round 2 runs: round 2 must not ask for them again.
        String first = Files.readString(PeakRun.missScript(dir.resolve("a.lua"), "/peak", "miss-1"));
        String second = Files.readString(PeakRun.missScript(dir.resolve("b.lua"), "/peak", "miss-2"));
        assertThat(first).contains("\"/peak?peak-miss=miss-1-\" .. id .. \"-\" .. n");
        assertThat(second).contains("\"/peak?peak-miss=miss-2-\" .. id .. \"-\" .. n");
    }

    @Test
    void theQuotasDecisionsAreCountedFromEveryEdgesLog(@TempDir Path dir) throws IOException {
        Path a = Files.writeString(dir.resolve("a.log"), """
                {"status":200,"limit_req":"PASSED","quota":"PASSED"}
                {"status":200,"limit_req":"PASSED","quota":"FALLBACK"}
                {"status":429,"limit_req":"PASSED","quota":"REJECTED"}
                """);
        Path b = Files.writeString(dir.resolve("b.log"), """
                {"status":200,"limit_req":"PASSED","quota":"PASSED"}
                {"status":429,"limit_req":"PASSED","quota":"FALLBACK_REJECTED"}
                {"status":200,"limit_req":"PASSED"}
                """);

        assertThat(PeakRun.quotaLog(List.of(a, b))).containsExactly(java.util.Map.entry("FALLBACK", 1L),
                java.util.Map.entry("FALLBACK_REJECTED", 1L), java.util.Map.entry("PASSED", 2L),
                java.util.Map.entry("REJECTED", 1L));
    }
}
