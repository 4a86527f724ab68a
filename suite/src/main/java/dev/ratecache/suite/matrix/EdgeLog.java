package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The front end's JSON access log (nginx/snippets/logging.conf), read for the edge hit ratio. */
public final class EdgeLog {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EdgeLog() {}

    /** Percentage of logged responses whose cache status was HIT; null for an empty log. */
    public static Double hitPct(Path accessLog) throws IOException {
        if (!Files.isRegularFile(accessLog)) {
            return null;
        }
        List<String> lines = Files.readAllLines(accessLog);
        long total = 0;
        long hits = 0;
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode entry = JSON.readTree(line);
            total++;
            if ("HIT".equals(entry.path("cache").asText())) {
                hits++;
            }
        }
        return total == 0 ? null : 100.0 * hits / total;
    }
}
