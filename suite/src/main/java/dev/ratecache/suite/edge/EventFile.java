package dev.ratecache.suite.edge;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A tier's events as a cell's folder keeps them ({@code events/front.jsonl}, {@code events/back.jsonl}):
 * one JSON object per line, the same for every edge product, so that the report reads a cell of
 * any edge alike, and a user can read it with jq.
 */
public final class EventFile {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EventFile() {}

    public static Path write(List<EdgeEvent> events, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (BufferedWriter w = Files.newBufferedWriter(file)) {
            for (EdgeEvent e : events) {
                w.write(JSON.writeValueAsString(e));
                w.newLine();
            }
        }
        return file;
    }

    /** The events written there; none when the file does not exist. */
    public static List<EdgeEvent> read(Path file) throws IOException {
        List<EdgeEvent> events = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return events;
        }
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                events.add(JSON.readValue(line, EdgeEvent.class));
            }
        }
        return events;
    }
}
