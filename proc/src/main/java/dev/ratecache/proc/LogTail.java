package dev.ratecache.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The end of a log file, quoted in error messages so a failure explains itself. */
public final class LogTail {
    private LogTail() {}

    public static String of(Path log, int lines) {
        if (log == null || !Files.isRegularFile(log)) {
            return "(no log)";
        }
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }
}
