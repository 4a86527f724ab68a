package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --no-dashboards: the cells are measured as ever, and no JVM draws their dashboard or graphs. */
@StackTest
@LongTest
class NoDashboardsTest {

    @Test
    void aRunWithoutDashboardsLeavesTheJtlAndDrawsNothing() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "run");
        List<Cell> cells = Matrix.select(Matrix.reference(List.of(Plan.STRESS)), List.of("stress/direct"));
        MatrixRunner.Options options = new MatrixRunner.Options(cells, Profile.QUICK, 1, new StackSwitches(),
                StackPorts.free(), 10, Map.of("users", "2", "loops", "2"), dir, List.of(), null, 0, false);

        MatrixRunner.Outcome outcome = new MatrixRunner(options, new PrintWriter(new StringWriter(), true)).run();

        CellResult direct = outcome.cells().get(0);
        assertThat(direct.failed()).as(direct.failure()).isFalse();
        assertThat(outcome.dashboards()).isFalse();
        Path client = direct.firstRunDir().resolve("jmeter");
        assertThat(client.resolve("results.jtl")).isNotEmptyFile();
        assertThat(client.resolve("dashboard")).doesNotExist();
        assertThat(client.resolve("graphs")).doesNotExist();
        assertThat(direct.median(Metric.MACHINE_CPU_PCT)).isBetween(0.0, 100.0);
    }
}
