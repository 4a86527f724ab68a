package dev.ratecache.suite.cli;

import dev.ratecache.suite.up.UpState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Where the commands write: one folder per run, named for the second it started, under --results. */
final class RunFolders {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunFolders() {}

    /** The results folder: {@code given} (--results) or results/ in the checkout. */
    static Path results(Path given) {
        return given != null ? given : UpState.defaultResults();
    }

    /**
     * A run folder that does not exist yet under {@code results}: {@code prefix} and the time, with
     * -2, -3, ... appended when a run of the same second has it already.
     */
    static Path next(Path results, String prefix) {
        String name = prefix + LocalDateTime.now().format(STAMP);
        Path dir = results.resolve(name);
        for (int n = 2; Files.exists(dir); n++) {
            dir = results.resolve(name + "-" + n);
        }
        return dir;
    }
}
