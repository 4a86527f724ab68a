package dev.ratecache.suite;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.edge.NginxLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * A tier's JSON access log, read the way a test may rely on it. nginx writes a request's line
 * only after the response has left (the log phase), so a client can hold the whole response
 * before its line is on disk: a test waits for the lines it expects rather than reading once.
 * The tiers also buffer their logs for up to {@link #FLUSH} (nginx/snippets/shared/logging.conf).
 */
public final class AccessLog {
    /** The tiers' access-log flush interval (logging.conf's {@code flush=}). */
    public static final Duration FLUSH = Duration.ofSeconds(1);

    private AccessLog() {}

    /**
     * The lines for {@code uri} once the tier has written out everything it logged before now: for
     * asserting that a tier logged nothing, which no poll can see. Sends {@code sentinel}, a request
     * the tier logs (through the front end to reach the back end's log), and waits for its line: a
     * worker writes its buffer in order, so every line logged before the sentinel's is on disk once
     * the sentinel's is. Each worker buffers its own lines, so the tier must run one worker.
     */
    public static List<JsonNode> linesBeforeSentinel(Path log, String uri, URI front) {
        String sentinel = "/hare?sentinel=" + UUID.randomUUID();
        Http.get(front, sentinel);
        linesFor(log, sentinel, 1, FLUSH.plusSeconds(5));
        return read(log, uri);
    }

    /**
     * The lines for {@code uri}, in order, once there are at least {@code atLeast} of them;
     * fails if they do not appear within 5 s. Lines that arrive later are not waited for, so the
     * caller asserts on exactly what had been logged by then.
     */
    public static List<JsonNode> linesFor(Path log, String uri, int atLeast) {
        return linesFor(log, uri, atLeast, Duration.ofSeconds(5));
    }

    /** As {@link #linesFor(Path, String, int)}, for lines that may take up to {@code within} to come. */
    public static List<JsonNode> linesFor(Path log, String uri, int atLeast, Duration within) {
        return await().atMost(within).pollInterval(Duration.ofMillis(20))
                .until(() -> read(log, uri), lines -> lines.size() >= atLeast);
    }

    private static List<JsonNode> read(Path log, String uri) {
        try {
            return NginxLog.entries(log).stream().filter(n -> uri.equals(n.path("uri").asText())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
