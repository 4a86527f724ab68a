package dev.ratecache.suite.edge;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A tier's access log of one JSON object per line, read into events by a product's own mapping.
 * A line the product wrote that is not an object (HAProxy's notices) is not a request; an object
 * that does not read is an error naming its line, never a request quietly dropped.
 */
final class JsonLog {
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    /** One line's object as an event; throws IllegalArgumentException on a field it cannot read. */
    @FunctionalInterface
    interface Mapping {
        EdgeEvent event(JsonNode line);
    }

    private JsonLog() {}

    static List<EdgeEvent> read(Path file, Mapping mapping) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IOException("no access log at " + file + ": the tier never ran, or its log was not saved", e);
        }
        List<EdgeEvent> events = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.startsWith("{")) {
                continue;
            }
            try {
                events.add(mapping.event(JSON.readTree(line)));
            } catch (JacksonException | IllegalArgumentException e) {
                throw new IOException(file + ", line " + (i + 1) + ": not a request as the suite logs it ("
                        + e.getMessage() + "): " + line, e);
            }
        }
        return events;
    }

    /** A field that must be there, as text. */
    static String text(JsonNode line, String field) {
        JsonNode n = line.get(field);
        if (n == null) {
            throw new IllegalArgumentException("no field " + field);
        }
        return n.isNull() ? "" : n.asText();
    }

    /** A field that must be a whole number. */
    static long number(JsonNode line, String field) {
        JsonNode n = line.get(field);
        if (n == null || !n.canConvertToLong()) {
            throw new IllegalArgumentException("field " + field + " is not a whole number: " + n);
        }
        return n.asLong();
    }
}
