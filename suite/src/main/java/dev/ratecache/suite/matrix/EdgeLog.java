package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A tier's JSON access log (nginx/snippets/shared/logging.conf): its entries, and the edge hit ratio
 * read from the front end's.
 */
public final class EdgeLog {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EdgeLog() {}

    /** Every logged request, in order, as its JSON fields. */
    public static List<JsonNode> entries(Path accessLog) throws IOException {
        List<JsonNode> entries = new ArrayList<>();
        for (String line : Files.readAllLines(accessLog)) {
            if (!line.isBlank()) {
                entries.add(JSON.readTree(line));
            }
        }
        return entries;
    }

    /** Lines of these logs whose {@code field} is {@code value} (a log that does not exist has none). */
    public static long count(List<Path> accessLogs, String field, String value) throws IOException {
        long n = 0;
        for (Path log : accessLogs) {
            if (Files.isRegularFile(log)) {
                n += entries(log).stream().filter(e -> value.equals(e.path(field).asText())).count();
            }
        }
        return n;
    }

    /** Percentage of logged responses whose cache status was HIT; null for an empty log. */
    public static Double hitPct(Path accessLog) throws IOException {
        return hitPct(List.of(accessLog));
    }

    /** The same over several edges' logs together: HITs of all edges over responses of all edges. */
    public static Double hitPct(List<Path> accessLogs) throws IOException {
        return EdgeHitShare.hitPct(dev.ratecache.suite.edge.NginxLog.events(accessLogs));
    }

    /**
     * Several edges' logs as one, in the order the requests ended (their msec), written to
     * {@code target}: what the timeline and a cell's report read as "the front end's log".
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
