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
 * Each snippet's banner names, on a "Needs:" line, every zone, map or log format it uses that
 * another snippet defines, and nothing else: so the banners can't drift from the directives.
 * The check reads the directives themselves, not the comments (other than the Needs lines).
 */
class SnippetNeedsTest {
    // What a snippet defines: zone names, map, geo and set variables (with their $), log formats.
    private static final List<Pattern> DEFINES = List.of(
            Pattern.compile("^\\s*limit_(?:req|conn)_zone\\s.*?\\bzone=([\\w-]+):", Pattern.MULTILINE),
            Pattern.compile("^\\s*proxy_cache_path\\s.*?\\bkeys_zone=([\\w-]+):", Pattern.MULTILINE),
            Pattern.compile("^\\s*map\\s+(?:\"[^\"]*\"|\\S+)\\s+(\\$\\w+)", Pattern.MULTILINE),
            Pattern.compile("^\\s*set\\s+(\\$\\w+)", Pattern.MULTILINE),
            // geo's source address variable is optional: the defined one is the last before the brace.
            Pattern.compile("^\\s*geo\\s+(?:\\$\\w+\\s+)?(\\$\\w+)\\s*\\{", Pattern.MULTILINE),
            Pattern.compile("^\\s*log_format\\s+([\\w-]+)", Pattern.MULTILINE));
    // Where a snippet uses a zone or log format by name; variables are found wherever they appear.
    private static final List<Pattern> USES = List.of(
            Pattern.compile("^\\s*limit_req\\s.*?\\bzone=([\\w-]+)", Pattern.MULTILINE),
            Pattern.compile("^\\s*limit_conn\\s+([\\w-]+)\\s", Pattern.MULTILINE),
            Pattern.compile("^\\s*proxy_cache(?:_purge)?\\s+([\\w-]+)[\\s;]", Pattern.MULTILINE),
            Pattern.compile("^\\s*access_log\\s+\\S+\\s+([\\w-]+)", Pattern.MULTILINE),
            Pattern.compile("(\\$\\w+)"));
    private static final Pattern NEEDS_LINE = Pattern.compile("^#\\s*Needs:(.*)$", Pattern.MULTILINE);
    private static final Pattern NEEDS_ENTRY = Pattern.compile("snippets/([\\w./-]+\\.conf)\\s*\\(([^)]*)\\)");
    private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");

    @Test
    void everySnippetNamesWhatItNeedsFromAnotherAndNothingMore() throws IOException {
        Map<String, String> snippets = snippets();
        assertThat(snippets).as("snippets found").containsKeys("front/cache.conf", "shared/retry-after.conf");

        assertThat(problems(snippets)).isEmpty();
        // The check has something to check: these really do use another snippet's definitions.
        assertThat(needs(snippets.get("shared/client-limit.conf"))).containsKey("shared/client-limit-zone.conf");
        assertThat(needs(snippets.get("front/cache.conf")).get("front/cache-zone.conf"))
                .contains("edge", "$skip_edge_cache", "$edge_cache_key");
    }

    @Test
    void aMissingOrBogusNeedIsReported() {
        Map<String, String> snippets = new TreeMap<>(Map.of(
                "zone.conf", "# Defines a zone.\nlimit_req_zone $binary_remote_addr zone=z:1m rate=1r/s;\n",
                "map.conf", "# Defines a map.\nmap $uri $m {\n  default 1;\n}\n",
                "user.conf", "# Uses the zone; says nothing.\nlimit_req zone=z;\n",
                "liar.conf", "# Uses nothing.\n# Needs: snippets/map.conf (the map `$m`).\nreturn 204;\n",
                "late.conf", "# Uses the map.\nadd_header X $m;\n# Needs: snippets/map.conf (the map `$m`).\n"));

        assertThat(problems(snippets)).containsExactlyInAnyOrder(
                "user.conf uses z from zone.conf, but its banner has no Needs: entry for it",
                "liar.conf's banner needs $m from map.conf, but it uses no $m that map.conf defines",
                "late.conf uses $m from map.conf, but its banner has no Needs: entry for it",
                "late.conf has a Needs: line outside its banner (the comment block it opens with)");
    }

    @Test
    void thePurgeKeyIsTheCacheKey() throws IOException {
        Map<String, String> snippets = snippets();
        Map<String, String> all = new TreeMap<>();
        snippets.forEach((name, text) -> all.put("snippets/" + name, text));
        for (Tier tier : Tier.values()) {
            all.put(tier.template(), Files.readString(Repo.nginxTemplates().resolve(tier.template())));
        }
        List<String> keyed = all.entrySet().stream()
                .filter(e -> directives(e.getValue()).contains("proxy_cache_key")).map(Map.Entry::getKey).toList();
        assertThat(keyed).as("files that set proxy_cache_key").containsExactly("snippets/front/cache.conf");

        String cacheKey = argument("proxy_cache_key\\s+(\\S+);", snippets.get("front/cache.conf"));
        assertThat(argument("proxy_cache_purge\\s+edge\\s+(\\S+);", snippets.get("front/cache-purge.conf"))).isEqualTo(cacheKey);

        // The purges after a write build their key from the same definition, with the path and
        // query to purge (their arguments) in place of $request_uri, which in a subrequest is the write's.
        String keyMap = argument("map\\s+\\S+\\s+\\$edge_cache_key\\s*\\{\\s*default\\s+(\\S+);", snippets.get("front/cache-zone.conf"));
        assertThat(keyMap).contains("$request_uri");
        assertThat(argument("proxy_cache_purge\\s+edge\\s+(\\S+);", snippets.get("front/write-invalidation.conf")))
                .isEqualTo(keyMap.replace("$request_uri", "$args"));
    }

    /** The group of the first line of {@code snippet}'s directives that {@code directive} matches; fails when none does. */
    private static String argument(String directive, String snippet) {
        Matcher line = Pattern.compile("^\\s*" + directive, Pattern.MULTILINE).matcher(directives(snippet));
        assertThat(line.find()).as("a line matching %s", directive).isTrue();
        return line.group(1);
    }

    /** Every disagreement between the Needs lines and the directives, one line each. */
    static List<String> problems(Map<String, String> snippets) {
        Map<String, String> definedIn = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        snippets.forEach((name, text) -> {
            for (String defined : found(DEFINES, directives(text))) {
                String other = definedIn.putIfAbsent(defined, name);
                if (other != null && !other.equals(name)) {
                    problems.add(defined + " is defined in both " + other + " and " + name);
                }
            }
        });
        snippets.forEach((name, text) -> {
            Map<String, Set<String>> declared = needs(banner(text));
            Map<String, Set<String>> actual = new TreeMap<>();
            for (String used : found(USES, directives(text))) {
                String owner = definedIn.get(used);
                if (owner != null && !owner.equals(name)) {
                    actual.computeIfAbsent(owner, k -> new TreeSet<>()).add(used);
                }
            }
            actual.forEach((owner, names) -> names.stream()
                    .filter(used -> !declared.getOrDefault(owner, Set.of()).contains(used))
                    .forEach(used -> problems.add(name + " uses " + used + " from " + owner
                            + ", but its banner has no Needs: entry for it")));
            declared.forEach((owner, names) -> names.stream()
                    .filter(need -> !actual.getOrDefault(owner, Set.of()).contains(need))
                    .forEach(need -> problems.add(name + "'s banner needs " + need + " from " + owner
                            + ", but it uses no " + need + " that " + owner + " defines")));
            if (!needs(text).equals(declared)) {
                problems.add(name + " has a Needs: line outside its banner (the comment block it opens with)");
            }
        });
        return problems;
    }

    /** The Needs entries of {@code text}: snippet file name to the backticked names after it. */
    static Map<String, Set<String>> needs(String text) {
        Map<String, Set<String>> needs = new TreeMap<>();
        Matcher line = NEEDS_LINE.matcher(text);
        while (line.find()) {
            Matcher entry = NEEDS_ENTRY.matcher(line.group(1));
            while (entry.find()) {
                Set<String> names = needs.computeIfAbsent(entry.group(1), k -> new TreeSet<>());
                Matcher name = BACKTICKED.matcher(entry.group(2));
                while (name.find()) {
                    names.add(name.group(1));
                }
            }
            // Anything but entries, separators and a full stop is a Needs line this test can't read.
            assertThat(NEEDS_ENTRY.matcher(line.group(1)).replaceAll("")).as(line.group()).matches("[\\s;.]*");
        }
        return needs;
    }

    /** The comment block a file opens with. */
    private static String banner(String text) {
        StringBuilder banner = new StringBuilder();
        for (String line : text.split("\n")) {
            if (!line.startsWith("#")) {
                break;
            }
            banner.append(line).append('\n');
        }
        return banner.toString();
    }

    /** The text without its comment lines. */
    private static String directives(String text) {
        return text.lines().filter(l -> !l.strip().startsWith("#")).reduce("", (a, b) -> a + b + "\n");
    }

    private static Set<String> found(List<Pattern> patterns, String text) {
        Set<String> found = new TreeSet<>();
        for (Pattern p : patterns) {
            Matcher m = p.matcher(text);
            while (m.find()) {
                found.add(m.group(1));
            }
        }
        return found;
    }

    private static Map<String, String> snippets() throws IOException {
        Map<String, String> snippets = new TreeMap<>();
        Path root = Repo.nginxTemplates().resolve("snippets");
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".conf")).toList()) {
                snippets.put(root.relativize(f).toString().replace('\\', '/'), Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        return snippets;
    }
}
