package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A tier's JSON access log (nginx/snippets/logging.conf): its entries, and the edge hit ratio
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

    /** Percentage of logged responses whose cache status was HIT; null for an empty log. */
    public static Double hitPct(Path accessLog) throws IOException {
        if (!Files.isRegularFile(accessLog)) {
            return null;
        }
        List<JsonNode> entries = entries(accessLog);
        long hits = entries.stream().filter(e -> "HIT".equals(e.path("cache").asText())).count();
        return entries.isEmpty() ? null : 100.0 * hits / entries.size();
    }
}
