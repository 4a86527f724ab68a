package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The stack is built from the tiers, not the other way round: no class of this package names the
 * stack package, so the two can't form a cycle again. What the tiers need of the stack's ports is
 * {@link TierPorts}.
 */
class NginxImportsNoStackTest {
    private static final String STACK = "dev.ratecache.suite.stack";

    @Test
    void noClassOfThePackageNamesTheStack() throws IOException {
        Path sources = Repo.root().resolve("suite/src/main/java/dev/ratecache/suite/nginx");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(sources)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).contains(STACK)) {
                        found.add(f.getFileName() + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertThat(sources.resolve("NginxRenderer.java")).as("the package's sources").isRegularFile();
        assertThat(found).as("lines naming " + STACK).isEmpty();
    }
}
