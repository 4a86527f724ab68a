package dev.ratecache.suite.matrix;

import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EventFile;
import dev.ratecache.suite.stack.Stack;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A cell's tiers' logs once complete: the products buffer them, and only stopping the tiers writes
 * out the rest. What the collectors read are the events, the same for every edge product; they are
 * also kept in the cell's folder ({@link CellEvents}), where the report reads them again.
 *
 * @param front every request the front tier answered (every edge's), in the order they ended
 * @param back  every request the back tier answered
 */
record TierLogs(List<EdgeEvent> front, List<EdgeEvent> back) {
    /** A cell straight to the origin has no tiers, so no logs. */
    static final TierLogs NONE = new TierLogs(null, null);

    /** Stops the tiers (null: there are none) and gives their logs, kept in {@code dir}/events as well. */
    static TierLogs completed(Stack stack, Path dir) throws IOException {
        if (stack == null) {
            return NONE;
        }
        stack.close();
        List<EdgeEvent> front = stack.frontEvents();
        List<EdgeEvent> back = stack.backEvents();
        EventFile.write(front, CellEvents.frontFile(dir));
        EventFile.write(back, CellEvents.backFile(dir));
        return new TierLogs(front, back);
    }
}
