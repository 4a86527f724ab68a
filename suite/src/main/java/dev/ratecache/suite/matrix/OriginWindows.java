package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.stats.BusiestWindow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When requests reached the origin, from the back end's access log: each line that names an
 * upstream status was passed on, at its end ({@code msec}) less the time the origin took
 * ({@code upstream_time}). The back limit's promise is about these arrivals: in no window of one
 * second may there be more than its rate plus its burst, however hard the edge is hit.
 *
 * @param arrivalsMs epoch milliseconds of each arrival, in order
 */
public record OriginWindows(List<Long> arrivalsMs) {
    public static final long WINDOW_MS = 1000;

    /** The window with the most arrivals: {@code count} of them from {@code startMs} to just before startMs + 1 s. */
    public record Peak(int count, long startMs) {}

    public static OriginWindows of(Path backLog) throws IOException {
        List<Long> arrivals = new ArrayList<>();
        if (backLog == null || !Files.isRegularFile(backLog)) {
            return new OriginWindows(arrivals);
        }
        for (JsonNode e : EdgeLog.entries(backLog)) {
            if (e.path("upstream_status").asText().isEmpty()) {
                continue;
            }
            double end = e.has("msec") ? e.path("msec").asDouble()
                    : OffsetDateTime.parse(e.path("time").asText()).toEpochSecond();
            arrivals.add(Math.round((end - upstreamSeconds(e.path("upstream_time").asText())) * 1000));
        }
        arrivals.sort(null);
        return new OriginWindows(arrivals);
    }

    /** nginx lists one time per attempt ("0.100, 0.200"); the first attempt started their sum before the end. */
    static double upstreamSeconds(String times) {
        double sum = 0;
        for (String t : times.split(",")) {
            String v = t.trim();
            if (v.matches("[0-9.]+")) {
                sum += Double.parseDouble(v);
            }
        }
        return sum;
    }

    /**
     * The busiest window [t, t + 1 s) over every t ({@link BusiestWindow}), so a burst split across
     * two clock seconds is still seen whole. Null when nothing reached the origin.
     */
    public Peak peak() {
        if (arrivalsMs.isEmpty()) {
            return null;
        }
        BusiestWindow busiest = BusiestWindow.in(arrivalsMs.stream().mapToLong(Long::longValue).toArray(), WINDOW_MS);
        return new Peak(busiest.count(), busiest.start());
    }

    /** Arrivals per clock second (epoch second to count), for the report. */
    public Map<Long, Integer> perSecond() {
        Map<Long, Integer> counts = new LinkedHashMap<>();
        arrivalsMs.forEach(ms -> counts.merge(Math.floorDiv(ms, 1000L), 1, Integer::sum));
        return counts;
    }
}
