package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.edge.EdgeEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** What a kind of run adds to each cell's folder beside the usual figures, e.g. a replay's per-client table. */
public interface CellReport {
    /**
     * Called once a cell's run is over and its tiers are stopped (their logs complete).
     *
     * @param samples every request the run's client recorded
     * @param front   every request the front tier logged, whichever edge product; null for a cell straight to the origin
     * @param back    every request the back tier logged; null likewise
     * @return what it wrote, for the measurement to carry to the report
     */
    ReplayBreakdown write(Cell cell, Path cellDir, List<Sample> samples, List<EdgeEvent> front, List<EdgeEvent> back)
            throws IOException;
}
