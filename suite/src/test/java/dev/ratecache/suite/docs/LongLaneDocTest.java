package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the test command leaves out is written down: every class with a test tagged
 * {@code @LongTest} is in docs/testing.md's table of what only the long lane checks, and nothing
 * tagged long lacks the stack tag that keeps it out of the unit lane.
 */
class LongLaneDocTest {
    private static final Pattern LONG = Pattern.compile("@(dev\\.ratecache\\.testkit\\.)?LongTest\\b");
    private static final Pattern STACK = Pattern.compile("@(dev\\.ratecache\\.testkit\\.)?StackTest\\b");

    @Test
    void everyClassWithALongTestIsInTestingsTableAndIsAStackClass() throws IOException {
        String testing = Files.readString(Repo.root().resolve("docs/testing.md"), StandardCharsets.UTF_8);
        TreeSet<String> undocumented = new TreeSet<>();
        TreeSet<String> notStack = new TreeSet<>();
        List<Path> sources = testSources();
        int longClasses = 0;
        for (Path source : sources) {
            String text = Files.readString(source, StandardCharsets.UTF_8);
            if (!LONG.matcher(text).find()) {
                continue;
            }
            longClasses++;
            String name = source.getFileName().toString().replace(".java", "");
            if (!testing.contains("`" + name + "`")) {
                undocumented.add(name);
            }
            if (!STACK.matcher(text).find()) {
                notStack.add(name);
            }
        }
        assertThat(longClasses).as("classes with a @LongTest").isGreaterThan(5);
        assertThat(undocumented).as("classes in the long lane that docs/testing.md does not name").isEmpty();
        assertThat(notStack).as("classes in the long lane without @StackTest (the unit lane would run them)").isEmpty();
    }

    /** Every module's test sources: the folders beside the parent pom that have src/test/java. */
    private static List<Path> testSources() throws IOException {
        List<Path> sources = new java.util.ArrayList<>();
        try (Stream<Path> modules = Files.list(Repo.root())) {
            for (Path tests : modules.map(m -> m.resolve("src/test/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(tests)) {
                    files.filter(p -> p.toString().endsWith(".java"))
                            .filter(p -> !p.getFileName().toString().equals("LongLaneDocTest.java"))
                            .forEach(sources::add);
                }
            }
        }
        return sources;
    }
}
