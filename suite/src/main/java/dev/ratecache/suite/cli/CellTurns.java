package dev.ratecache.suite.cli;

import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.suite.matrix.MatrixRunner;
import dev.ratecache.suite.terminal.Terminal;
import java.io.IOException;

/** How a matrix command's cells run when it is one of two runs that take turns (compare's two configs). */
interface CellTurns {
    /** Runs {@code options}' cells, each in its turn; what a {@link MatrixRunner} run of them all returns. */
    MatrixRunner.Outcome run(MatrixRunner.Options options, Terminal terminal, JMeter.Remote remote) throws IOException;
}
