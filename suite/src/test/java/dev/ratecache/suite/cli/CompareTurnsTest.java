package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.terminal.Terminal;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * The turns compare's two configs take, with a stand-in for each cell's run: A's cell, B's, A's
 * next..., and no report until every cell of both has run, A's report first.
 */
class CompareTurnsTest {
    private final List<String> happened = Collections.synchronizedList(new ArrayList<>());
    private final PrintWriter out = new PrintWriter(new StringWriter(), true);
    private final TwoConfigs.Baton baton = new TwoConfigs.Baton(out, (options, terminal, remote) -> {
        String side = Thread.currentThread().getName().substring("compare-".length());
        happened.add(side + " " + options.cells().get(0).name());
        return new MatrixRunner.Outcome(List.of(), 1, 1, 0, false);
    });

    private static MatrixRunner.Options cells(int count) {
        List<Cell> cells = Matrix.reference(Plan.REFERENCE).subList(0, count);
        return new MatrixRunner.Options(cells, Profile.QUICK, 1, new StackSwitches(), new StackPorts(), 10, Map.of(),
                Path.of("run"));
    }

    /** A side's run: its cells in their turns, then its report. */
    private IntSupplier side(int side, int cells) {
        String label = side == 0 ? "A" : "B";
        return () -> {
            try {
                baton.turnsOf(side, new TwoConfigs.Side(label, label, List.of())).run(cells(cells), Terminal.plain(out), null);
            } catch (Exception e) {
                happened.add(label + " stopped: " + e.getMessage());
                return 1;
            }
            happened.add(label + " report");
            return 0;
        };
    }

    private static String name(int i) {
        return Matrix.reference(Plan.REFERENCE).get(i).name();
    }

    @Test
    void theSidesTakeTurnsCellByCellAndReportOnlyOnceBothHaveRunAllTheirs() throws Exception {
        int[] exits = TwoConfigs.inTurn(baton, List.of(side(0, 2), side(1, 2)));

        assertThat(exits).containsExactly(0, 0);
        assertThat(happened).containsExactly("A " + name(0), "B " + name(0), "A " + name(1), "B " + name(1),
                "A report", "B report");
    }

    @Test
    void aSideWithMoreCellsRunsTheRestWithoutWaiting() throws Exception {
        TwoConfigs.inTurn(baton, List.of(side(0, 3), side(1, 1)));

        assertThat(happened).containsExactly("A " + name(0), "B " + name(0), "A " + name(1), "A " + name(2),
                "A report", "B report");
    }

    @Test
    void aSideThatStopsBeforeItsFirstCellStopsTheOtherBeforeAnyCellRuns() throws Exception {
        int[] exits = TwoConfigs.inTurn(baton, List.of(side(0, 2), () -> 2));

        assertThat(exits).containsExactly(1, 2);
        assertThat(happened).singleElement().asString().startsWith("A stopped: the other side's run stopped before its"
                + " first cell");
    }
}
