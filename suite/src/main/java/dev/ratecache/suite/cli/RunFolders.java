package dev.ratecache.suite.cli;

import dev.ratecache.suite.up.UpState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/** Where the commands write: one folder per run, named for the second it started, under --results. */
final class RunFolders {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunFolders() {}

    /** The results folder: {@code given} (--results) or results/ in the checkout. */
    static Path results(Path given) {
        return given != null ? given : UpState.defaultResults();
    }

    /**
     * One line when {@code dir} cannot be made a folder, because it or a folder above it is a file;
     * empty when it is a folder or can be made one. Checked before anything starts, since the
     * folder is made only once the run does.
     *
     * @param name what named the folder, for the line: "--results", or "DIR" for an argument
     */
    static Optional<String> notAFolder(Path dir, String name) {
        for (Path p = dir.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p)) {
                return Optional.empty();
            }
            if (Files.exists(p)) {
                return Optional.of(name + " " + dir + (p.equals(dir.toAbsolutePath().normalize()) ? "" : ": " + p)
                        + " is a file, not a folder: give a folder, or a path where one can be made");
            }
        }
        return Optional.empty();
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
