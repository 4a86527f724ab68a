package dev.ratecache.suite.matrix;

import java.io.IOException;
import java.nio.file.Path;

/** What a kind of run adds to each cell's folder beside the usual figures, e.g. a replay's per-client table. */
public interface CellReport {
    /**
     * Called once a cell's run is over and its tiers are stopped (their logs complete).
     *
     * @param frontLog the front end's access log; null for a cell straight to the origin
     * @param backLog  the back end's access log; null likewise
     * @return one line for the terminal under the cell's figures, or null
     */
    String write(Cell cell, Path cellDir, Path jtl, Path frontLog, Path backLog) throws IOException;
}
