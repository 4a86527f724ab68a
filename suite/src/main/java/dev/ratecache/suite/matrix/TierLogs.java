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
 * @param frontLog nginx's front end as a whole: the one edge's log, or with several their logs merged in time
 *                 order; null for another product's tiers (and for a cell without tiers)
 * @param backLog  nginx's back end log; null likewise
 * @param front    every request the front tier answered (every edge's), in the order they ended
 * @param back     every request the back tier answered
 */
record TierLogs(Path frontLog, Path backLog, List<EdgeEvent> front, List<EdgeEvent> back) {
    /** A cell straight to the origin has no tiers, so no logs. */
    static final TierLogs NONE = new TierLogs(null, null, null, null);

    /** Stops the tiers (null: there are none) and gives their logs; a merged front log goes into {@code dir}. */
    static TierLogs completed(Stack stack, Path dir) throws IOException {
        if (stack == null) {
            return NONE;
        }
        stack.close();
        List<EdgeEvent> front = stack.frontEvents();
        List<EdgeEvent> back = stack.backEvents();
        EventFile.write(front, CellEvents.frontFile(dir));
        EventFile.write(back, CellEvents.backFile(dir));
        if (!stack.product().equals("nginx")) {
            return new TierLogs(null, null, front, back);
        }
        Path frontLog = stack.fronts().size() == 1 ? stack.frontEnd().accessLog()
                : EdgeLog.merged(stack.frontAccessLogs(), dir.resolve("nginx/edges-access.log"));
        return new TierLogs(frontLog, stack.backEnd().accessLog(), front, back);
    }
}
