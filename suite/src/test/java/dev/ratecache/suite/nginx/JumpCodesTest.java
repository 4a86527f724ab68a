package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * The status codes the tiers use as jumps to a named location are named once, in the "Jump codes"
 * comment of front-end.conf or back-end.conf, and used as it says: each returned somewhere and caught
 * by exactly one error_page, into the location listed beside it. nginx has no constants, so this
 * holds the numbers together.
 */
class JumpCodesTest {
    /** A line of the comment: "#   418  PURGE  -> @purge  snippets/...". */
    private static final Pattern DOCUMENTED = Pattern.compile("^\\s*#\\s+(\\d{3})\\s+.*?->\\s+(@\\w+)", Pattern.MULTILINE);
    private static final Pattern CAUGHT = Pattern.compile("^\\s*error_page\\s+(\\d{3})\\s*=\\s*(@\\w+)\\s*;", Pattern.MULTILINE);
    private static final Pattern RETURNED = Pattern.compile("\\breturn\\s+(\\d{3})\\s*;");

    @Test
    void everyJumpCodeIsReturnedAndCaughtOnceAsItsTierSays() throws IOException {
        Map<String, String> files = templates();
        Map<Integer, String> documented = new TreeMap<>();
        for (Tier tier : List.of(Tier.FRONT, Tier.BACK)) {
            Matcher doc = DOCUMENTED.matcher(files.get(tier.template()));
            while (doc.find()) {
                documented.put(Integer.parseInt(doc.group(1)), doc.group(2));
            }
        }
        assertThat(documented).as("jump codes named in front-end.conf and back-end.conf").containsKeys(418, 419, 420);

        Map<Integer, List<String>> caught = new TreeMap<>();
        Set<Integer> returned = new TreeSet<>();
        StringBuilder directives = new StringBuilder();
        files.forEach((name, text) -> {
            String code = directives(text);
            directives.append(code);
            Matcher c = CAUGHT.matcher(code);
            while (c.find()) {
                caught.computeIfAbsent(Integer.parseInt(c.group(1)), k -> new ArrayList<>()).add(c.group(2));
            }
            Matcher r = RETURNED.matcher(code);
            while (r.find()) {
                returned.add(Integer.parseInt(r.group(1)));
            }
        });

        // Every error_page that jumps on one code is a documented jump, and each jump is caught once.
        assertThat(caught.keySet()).as("codes an error_page turns into a named location").isEqualTo(documented.keySet());
        documented.forEach((code, location) -> {
            assertThat(caught.get(code)).as("error_page lines for " + code).containsExactly(location);
            assertThat(returned).as("codes some snippet returns").contains(code);
            assertThat(directives.toString()).as("the named location " + location).contains("location " + location + " {");
        });
    }

    /** The top-level templates and every snippet, by path under nginx/. */
    private static Map<String, String> templates() throws IOException {
        Path root = Repo.nginxTemplates();
        Map<String, String> files = new TreeMap<>();
        for (Tier tier : Tier.values()) {
            files.put(tier.template(), Files.readString(root.resolve(tier.template()), StandardCharsets.UTF_8));
        }
        try (Stream<Path> snippets = Files.walk(root.resolve("snippets"))) {
            for (Path f : snippets.filter(f -> f.toString().endsWith(".conf")).toList()) {
                files.put(root.relativize(f).toString(), Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        return files;
    }

    /** The text without its comment lines. */
    private static String directives(String text) {
        return text.lines().filter(l -> !l.strip().startsWith("#")).reduce("", (a, b) -> a + b + "\n");
    }
}
