package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A cell that cannot run is recorded as failed, with its reason and log, and the matrix goes on. */
@StackTest
class FailingCellTest {

    @Test
    void cellWhoseTiersCannotStartIsMarkedFailedAndTheNextCellStillRuns() throws Exception {
        StackPorts ports = StackPorts.free();
        Path dir = TestDirs.fresh(getClass(), "run");
        List<Cell> cells = Matrix.select(Matrix.reference(List.of(Plan.STRESS)), List.of("stress/no-caching", "stress/direct"));
        MatrixRunner.Options options = new MatrixRunner.Options(cells, Profile.QUICK, 1, new StackSwitches(), ports, 10,
                Map.of("users", "2", "loops", "2"), dir, List.of(), null, 0, false);
        StringWriter out = new StringWriter();

        MatrixRunner.Outcome outcome;
        // Something else holds the back end's port: the first cell's tiers cannot start.
        try (ServerSocket taken = new ServerSocket(ports.back(), 1, InetAddress.getByName(Ports.LOOPBACK))) {
            outcome = new MatrixRunner(options, new PrintWriter(out, true)).run();
        }

        assertThat(outcome.anyFailed()).isTrue();
        CellResult failed = outcome.cells().get(0);
        assertThat(failed.failed()).isTrue();
        assertThat(failed.failure()).contains(String.valueOf(ports.back()));
        CellResult direct = outcome.cells().get(1);
        assertThat(direct.failed()).as(direct.failure()).isFalse();
        assertThat(direct.median(Metric.SAMPLES)).isEqualTo(4.0);
        assertThat(out.toString()).contains("FAILED").contains("[2/2] stress/direct");
        assertThat(Ports.accepting(ports.origin())).as("origin stopped after the matrix").isFalse();
    }
}
