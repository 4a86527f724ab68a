package dev.ratecache.appserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.test.context.DynamicPropertyRegistry;

/** A paths file written for a test's origin, as the suite writes one from an access log. */
final class ReplayPathsFiles {
    private ReplayPathsFiles() {}

    /** Writes {@code content} to a temporary file and points origin.replay.paths-file at it. */
    static void register(DynamicPropertyRegistry registry, String content) {
        try {
            Path file = Files.createTempFile("replay-paths", ".csv");
            file.toFile().deleteOnExit();
            Files.writeString(file, content);
            registry.add("origin.replay.paths-file", file::toString);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
