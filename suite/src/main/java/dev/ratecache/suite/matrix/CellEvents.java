package dev.ratecache.suite.matrix;

import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EventFile;
import dev.ratecache.suite.edge.NginxLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A cell's tiers' events as its run folder keeps them ({@code events/front.jsonl},
 * {@code events/back.jsonl}), the same for every edge product: what the report's checks read
 * after the run. A run from before the suite kept them has only nginx's logs, which are read instead.
 */
public final class CellEvents {
    private CellEvents() {}

    static Path frontFile(Path runDir) {
        return runDir.resolve("events/front.jsonl");
    }

    static Path backFile(Path runDir) {
        return runDir.resolve("events/back.jsonl");
    }

    /** Every request the cell's front tier answered (every edge's), in the order they ended. */
    public static List<EdgeEvent> front(Path runDir) throws IOException {
        Path file = frontFile(runDir);
        return Files.isRegularFile(file) ? EventFile.read(file) : NginxLog.events(runDir.resolve("nginx/front/logs/access.log"));
    }

    /** Every request the cell's back tier answered. */
    public static List<EdgeEvent> back(Path runDir) throws IOException {
        Path file = backFile(runDir);
        return Files.isRegularFile(file) ? EventFile.read(file) : NginxLog.events(runDir.resolve("nginx/back/logs/access.log"));
    }
}
