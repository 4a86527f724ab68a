package dev.ratecache.suite.matrix;

import dev.ratecache.stats.BusiestWindow;
import dev.ratecache.suite.edge.EdgeEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When requests reached the origin, from the back tier's events: each one that went upstream was
 * passed on at its end less the time the origin took ({@link EdgeEvent#upstreamArrivalMs()}). The back limit's promise is about these arrivals: in no window of one
 * second may there be more than its rate plus its burst, however hard the edge is hit.
 *
 * @param arrivalsMs epoch milliseconds of each arrival, in order
 */
public record OriginWindows(List<Long> arrivalsMs) {
    public static final long WINDOW_MS = 1000;

    /**
     * How well an arrival is known: to the millisecond either way, as the difference of two figures
     * each rounded to one (the back tier's log time, less the origin's time).
     */
    public static final long RESOLUTION_MS = 1;

    /** The window with the most arrivals: {@code count} of them from {@code startMs} to just before startMs + 1 s. */
    public record Peak(int count, long startMs) {}

    /**
     * The arrivals at the origin in a cell's run folder: from its back tier's events, or in a run
     * from before the suite kept them, from nginx's back end log.
     */
    public static OriginWindows ofCell(Path runDir) throws IOException {
        return of(CellEvents.back(runDir));
    }

    /** The arrivals at the origin of a back tier's events (none: nothing reached it). */
    public static OriginWindows of(List<EdgeEvent> back) {
        List<Long> arrivals = new ArrayList<>();
        for (EdgeEvent e : back) {
            if (e.wentUpstream()) {
                arrivals.add(e.upstreamArrivalMs());
            }
        }
        arrivals.sort(null);
        return new OriginWindows(arrivals);
    }

    /**
     * The busiest window [t, t + 1 s) over every t ({@link BusiestWindow}), so a burst split across
     * two clock seconds is still seen whole. Null when nothing reached the origin.
     */
    public Peak peak() {
        return peak(WINDOW_MS);
    }

    /** The busiest window [t, t + {@code windowMs}); null when nothing reached the origin. */
    public Peak peak(long windowMs) {
        if (arrivalsMs.isEmpty()) {
            return null;
        }
        BusiestWindow busiest = BusiestWindow.in(arrivalsMs.stream().mapToLong(Long::longValue).toArray(), windowMs);
        return new Peak(busiest.count(), busiest.start());
    }

    /** Arrivals per clock second (epoch second to count), for the report. */
    public Map<Long, Integer> perSecond() {
        Map<Long, Integer> counts = new LinkedHashMap<>();
        arrivalsMs.forEach(ms -> counts.merge(Math.floorDiv(ms, 1000L), 1, Integer::sum));
        return counts;
    }
}
