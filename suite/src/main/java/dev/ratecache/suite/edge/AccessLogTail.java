package dev.ratecache.suite.edge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Reads what a tier's JSON access log (nginx/snippets/shared/logging.conf, or HAProxy's
 * haproxy/snippets/shared/logging.cfg) gained since the last call and counts it. nginx writes the
 * log in 64 KB buffers at least once a second, so a read may end in the middle of a line: that
 * part is kept for the next call, never counted twice or half.
 */
public final class AccessLogTail {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** nginx's log: its status and cache fields. */
    public static final Function<JsonNode, Entry> NGINX = line ->
            new Entry(line.path("status").asInt(), "HIT".equals(line.path("cache").asText()));
    /** HAProxy's log, read as the suite reads its events. */
    public static final Function<JsonNode, Entry> HAPROXY = line -> {
        EdgeEvent event = HaproxyLog.event(line);
        return new Entry(event.status(), event.cache() == EdgeEvent.Cache.HIT);
    };

    private final Path log;
    private final int rejectStatus;
    private final Function<JsonNode, Entry> format;
    private long offset;
    /** The bytes after the last complete line: the start of a line nginx has not finished writing. */
    private byte[] partial = new byte[0];

    /**
     * What the new lines held.
     *
     * @param responses lines (requests answered) read
     * @param rejected  of those, answered with the rate limits' rejection status
     * @param hits      of those, answered from the edge cache (cache HIT)
     */
    public record Counts(long responses, long rejected, long hits) {
        public static final Counts NONE = new Counts(0, 0, 0);

        /** These and {@code other}'s together: the edges of a fleet read as one tier. */
        public Counts plus(Counts other) {
            return new Counts(responses + other.responses, rejected + other.rejected, hits + other.hits);
        }
    }

    /** What one line says: the status the tier answered, and whether its cache did (a HIT). */
    public record Entry(int status, boolean hit) {}

    /** An nginx log's tail, from its current end: only requests from now on count. */
    public AccessLogTail(Path log, int rejectStatus) {
        this(log, rejectStatus, NGINX);
    }

    /** The tail of a log whose lines {@code format} reads (throwing IllegalArgumentException on one it cannot). */
    public AccessLogTail(Path log, int rejectStatus, Function<JsonNode, Entry> format) {
        this.log = log;
        this.rejectStatus = rejectStatus;
        this.format = format;
        this.offset = size(log);
    }

    /** The complete lines written since the last call, counted. */
    public Counts read() throws IOException {
        long size = size(log);
        if (size < offset) {
            // Truncated or replaced (log rotation): start over from its beginning.
            offset = 0;
            partial = new byte[0];
        }
        if (size == offset) {
            return Counts.NONE;
        }
        byte[] bytes;
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            file.seek(offset);
            bytes = new byte[partial.length + (int) Math.min(size - offset, 64L << 20)];
            System.arraycopy(partial, 0, bytes, 0, partial.length);
            file.readFully(bytes, partial.length, bytes.length - partial.length);
        }
        offset += bytes.length - partial.length;
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        // Only whole lines are decoded, so a read that ends inside a line (or a character) loses nothing.
        partial = java.util.Arrays.copyOfRange(bytes, end, bytes.length);
        return count(new String(bytes, 0, end, StandardCharsets.UTF_8));
    }

    /** Counts the entries of {@code lines}, whole lines of the log. */
    Counts count(String lines) {
        long responses = 0;
        long rejected = 0;
        long hits = 0;
        for (String raw : lines.split("\n")) {
            String line = raw.trim();
            if (line.isEmpty()) {
                continue;
            }
            Entry entry;
            try {
                entry = format.apply(JSON.readTree(line));
            } catch (IOException | IllegalArgumentException notOurs) {
                // A line in another format (a hand-edited config, HAProxy's own notices): not ours to count.
                continue;
            }
            responses++;
            if (entry.status() == rejectStatus) {
                rejected++;
            }
            if (entry.hit()) {
                hits++;
            }
        }
        return new Counts(responses, rejected, hits);
    }

    private static long size(Path log) {
        try {
            return Files.isRegularFile(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
