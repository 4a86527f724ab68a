package dev.ratecache.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A fresh folder per test class under target/, kept after the run so its logs can be read. */
public final class TestDirs {
    private TestDirs() {}

    /** The running test's own folder: its class's, named for its method. */
    public static Path fresh(org.junit.jupiter.api.TestInfo test) {
        return fresh(test.getTestClass().orElseThrow(), test.getTestMethod().orElseThrow().getName());
    }

    /** The folder {@link #fresh(Class, String)} makes, as it is now: for a thread that watches a running test's files. */
    public static Path of(Class<?> owner, String name) {
        return Path.of("target", "stacks", owner.getSimpleName(), name).toAbsolutePath();
    }

    public static Path fresh(Class<?> owner, String name) {
        Path dir = of(owner, name);
        try {
            if (Files.exists(dir)) {
                try (Stream<Path> all = Files.walk(dir)) {
                    all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
