package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A snippet's folder says which tier includes it: snippets/front/, snippets/back/ or
 * snippets/balancer/ for one tier's own (the tier's id), snippets/shared/ for those more than one
 * tier includes. Read from the templates' include lines, whatever switches would render them.
 */
class SnippetTiersTest {
    private static final Pattern INCLUDE = Pattern.compile("^\\s*include\\s+(snippets/\\S+)\\s*;", Pattern.MULTILINE);

    @Test
    void everySnippetSitsInTheFolderOfTheTiersThatIncludeIt() throws IOException {
        Path nginx = Repo.nginxTemplates();
        Map<String, Set<String>> tiersOf = new TreeMap<>();
        for (Tier tier : Tier.values()) {
            for (String snippet : included(nginx, tier.template())) {
                tiersOf.computeIfAbsent(snippet, k -> new TreeSet<>()).add(tier.id());
            }
        }
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.walk(nginx.resolve("snippets"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".conf")).toList()) {
                String name = nginx.relativize(f).toString().replace('\\', '/');
                Set<String> tiers = tiersOf.getOrDefault(name, Set.of());
                String folder = name.split("/")[1];
                String expected = tiers.size() == 1 ? tiers.iterator().next() : "shared";
                if (tiers.isEmpty()) {
                    problems.add(name + " is included by no tier");
                } else if (!folder.equals(expected)) {
                    problems.add(name + " is included by " + tiers + ": it belongs in snippets/" + expected + "/");
                }
            }
        }
        assertThat(tiersOf).as("snippets found").containsKeys("snippets/front/cache.conf", "snippets/shared/basics.conf");
        assertThat(problems).isEmpty();
    }

    /** Every snippet {@code template} includes, directly or through another snippet. */
    private static Set<String> included(Path nginx, String template) throws IOException {
        Set<String> seen = new TreeSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of(template));
        while (!todo.isEmpty()) {
            Matcher m = INCLUDE.matcher(Files.readString(nginx.resolve(todo.pop()), StandardCharsets.UTF_8));
            while (m.find()) {
                if (seen.add(m.group(1))) {
                    todo.add(m.group(1));
                }
            }
        }
        return seen;
    }
}
