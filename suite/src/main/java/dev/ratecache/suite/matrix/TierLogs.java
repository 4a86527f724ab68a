package dev.ratecache.suite.matrix;

import dev.ratecache.suite.stack.Stack;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A cell's nginx access logs once complete: the tiers buffer them (nginx/snippets/shared/logging.conf),
 * and only stopping the tiers writes out the rest.
 *
 * @param fronts every edge's own log
 * @param front  the front end as a whole: the one edge's log, or with several their logs merged in time order
 * @param back   the back end's log
 */
record TierLogs(List<Path> fronts, Path front, Path back) {
    /** A cell straight to the origin has no tiers, so no logs. */
    static final TierLogs NONE = new TierLogs(List.of(), null, null);

    /** Stops the tiers (null: there are none) and gives their logs; a merged front log goes into {@code dir}. */
    static TierLogs completed(Stack stack, Path dir) throws IOException {
        if (stack == null) {
            return NONE;
        }
        stack.close();
        Path front = stack.fronts().size() == 1 ? stack.frontEnd().accessLog()
                : EdgeLog.merged(stack.frontAccessLogs(), dir.resolve("nginx/edges-access.log"));
        return new TierLogs(stack.frontAccessLogs(), front, stack.backEnd().accessLog());
    }
}
