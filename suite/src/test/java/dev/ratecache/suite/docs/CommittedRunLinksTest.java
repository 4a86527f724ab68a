package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The committed runs' reports link to the docs of the checkout they sit in, wherever it is cloned: a
 * run written outside the checkout (--results) links to the checkout it ran from by a path that
 * climbs above it, which resolves on that machine alone, so a link may never climb above the root.
 */
class CommittedRunLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)|href=\"([^\"]+)\"|\"(\\.\\./[^\"]+)\"");

    @Test
    void everyLinkOfACommittedRunStaysInsideTheCheckout() throws IOException {
        Path root = Repo.root();
        List<String> outside = new ArrayList<>();
        int links = 0;
        try (Stream<Path> files = Files.walk(root.resolve("results"))) {
            for (Path page : files.filter(f -> f.getFileName().toString().matches("report\\.md|index\\.html|summary\\.json"))
                    .filter(f -> f.getParent().getFileName().toString().startsWith("example")
                            || f.getParent().getParent().getFileName().toString().equals("compare-rates")).toList()) {
                int depth = root.relativize(page.getParent()).getNameCount();
                Matcher m = LINK.matcher(Files.readString(page, StandardCharsets.UTF_8));
                while (m.find()) {
                    String target = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
                    if (target.matches("^[a-z]+:.*|^#.*")) {
                        continue;
                    }
                    links++;
                    if (climbsAbove(depth, target)) {
                        outside.add(root.relativize(page) + " -> " + target);
                    }
                }
            }
        }
        assertThat(links).isGreaterThan(100);
        assertThat(outside).as("links that leave the checkout").isEmpty();
    }

    /** Whether {@code link}, followed from a folder {@code depth} below the root, goes above the root on the way. */
    static boolean climbsAbove(int depth, String link) {
        for (String part : link.replaceFirst("#.*", "").split("/")) {
            depth += part.equals("..") ? -1 : part.isEmpty() || part.equals(".") ? 0 : 1;
            if (depth < 0) {
                return true;
            }
        }
        return false;
    }
}
