package dev.ratecache.suite.edge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * nginx's tiers' JSON access log (nginx/snippets/shared/logging.conf) read into events: the only
 * place that knows its field names. {@code msec} is when nginx logged the line, the end of the
 * request; its arrival is that less {@code request_time}.
 */
public final class NginxLog {
    private static final ObjectMapper JSON = new ObjectMapper();

    private NginxLog() {}

    /** Every logged request, in the order logged; none when the log does not exist (a tier never started). */
    public static List<EdgeEvent> events(Path accessLog) throws IOException {
        List<EdgeEvent> events = new ArrayList<>();
        if (accessLog == null || !Files.isRegularFile(accessLog)) {
            return events;
        }
        for (String line : Files.readAllLines(accessLog)) {
            if (!line.isBlank()) {
                events.add(event(JSON.readTree(line)));
            }
        }
        return events;
    }

    /** Several tiers' logs (a fleet's edges) as one list, in the order the requests ended. */
    public static List<EdgeEvent> events(List<Path> accessLogs) throws IOException {
        List<EdgeEvent> events = new ArrayList<>();
        for (Path log : accessLogs) {
            events.addAll(events(log));
        }
        events.sort(java.util.Comparator.comparingLong(EdgeEvent::endMs));
        return events;
    }

    static EdgeEvent event(JsonNode e) {
        long end = e.has("msec") ? Math.round(e.path("msec").asDouble() * 1000)
                : OffsetDateTime.parse(e.path("time").asText()).toEpochSecond() * 1000;
        long arrival = end - Math.round(e.path("request_time").asDouble() * 1000);
        String upstream = e.path("upstream_status").asText("");
        return new EdgeEvent(arrival, end, e.path("client").asText(""), e.path("method").asText(""),
                e.path("uri").asText(""), e.path("status").asInt(), e.path("bytes").asLong(),
                limit(e.path("limit_req").asText("")), cache(e.path("cache").asText("")),
                upstream.equals("-") ? "" : upstream, Math.round(upstreamSeconds(e.path("upstream_time").asText("")) * 1000),
                e.path("fleet").asText(""), quota(e));
    }

    /** The quota's fields (snippets/shared/logging.conf); none in a line of a tier without --quota. */
    private static EdgeEvent.QuotaMark quota(JsonNode e) {
        String at = e.path("quota_at").asText("");
        if (!e.has("quota") || at.isEmpty()) {
            return e.has("quota") ? new EdgeEvent.QuotaMark(e.path("quota").asText(""), 0, -1, "")
                    : EdgeEvent.QuotaMark.NONE;
        }
        String r = e.path("quota_r").asText("");
        return new EdgeEvent.QuotaMark(e.path("quota").asText(""), Long.parseLong(at),
                r.isEmpty() ? -1 : Long.parseLong(r), e.path("quota_of").asText(""));
    }

    private static EdgeEvent.Limit limit(String status) {
        return switch (status) {
            case "PASSED" -> EdgeEvent.Limit.PASSED;
            case "DELAYED" -> EdgeEvent.Limit.DELAYED;
            case "REJECTED" -> EdgeEvent.Limit.REJECTED;
            case "DELAYED_DRY_RUN", "REJECTED_DRY_RUN" -> EdgeEvent.Limit.DRY_RUN;
            default -> EdgeEvent.Limit.NONE;
        };
    }

    private static EdgeEvent.Cache cache(String status) {
        return switch (status) {
            case "HIT", "MISS", "EXPIRED", "STALE", "UPDATING", "REVALIDATED", "BYPASS" -> EdgeEvent.Cache.valueOf(status);
            default -> EdgeEvent.Cache.NONE;
        };
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

    /** Every logged request, in order, as its JSON fields: for tests that read a field the events leave out. */
    public static List<JsonNode> entries(Path accessLog) throws IOException {
        List<JsonNode> entries = new ArrayList<>();
        for (String line : Files.readAllLines(accessLog)) {
            if (!line.isBlank()) {
                entries.add(JSON.readTree(line));
            }
        }
        return entries;
    }

    /**
     * Several edges' logs as one, in the order the requests ended (their msec), written to
     * {@code target}: a fleet's front tier to read as one log.
     */
    public static Path merged(List<Path> accessLogs, Path target) throws IOException {
        List<String[]> lines = new ArrayList<>();
        for (Path log : accessLogs) {
            if (!Files.isRegularFile(log)) {
                continue;
            }
            for (String line : Files.readAllLines(log)) {
                if (!line.isBlank()) {
                    lines.add(new String[] {String.valueOf(JSON.readTree(line).path("msec").asDouble()), line});
                }
            }
        }
        lines.sort(java.util.Comparator.comparingDouble(l -> Double.parseDouble(l[0])));
        Files.createDirectories(target.toAbsolutePath().getParent());
        Files.write(target, lines.stream().map(l -> l[1]).toList());
        return target;
    }
}
