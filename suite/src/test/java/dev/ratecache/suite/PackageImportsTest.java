package dev.ratecache.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The suite's packages depend on each other one way only: a cycle makes two packages one in all
 * but name (neither can be read, tested or changed alone), and cycles came back twice (nginx and
 * stack, matrix and replay) before this test. A dependency is an import line or a name spelt out
 * in full in the code, read from every main source file of suite/.
 */
class PackageImportsTest {
    private static final Path SOURCES = Path.of("suite/src/main/java/dev/ratecache/suite");
    /** A suite class named in full, up to its class name: the group is its package below the suite's. */
    private static final Pattern NAMED = Pattern.compile("\\bdev\\.ratecache\\.suite((?:\\.[a-z_][a-z0-9_]*)*)\\.[A-Z]");
    private static final Pattern BLOCK_COMMENT = Pattern.compile("/\\*.*?\\*/", Pattern.DOTALL);
    /** A line comment; not the slashes of a URL in a string. */
    private static final Pattern LINE_COMMENT = Pattern.compile("(?<!:)//[^\\n]*");

    /** Where one package names another: the first file and line that does. */
    record Use(String from, String to, String where) {}

    @Test
    void noPackagesImportEachOtherInACycle() throws IOException {
        Map<String, Map<String, String>> graph = graph(uses());
        assertThat(graph).as("the suite's packages").containsKeys("matrix", "replay", "nginx", "switches", "spec", "stack", "cli");
        assertThat(cycles(graph)).as("packages that import each other in a cycle (break it: move the shared type "
                + "to the lower package, or invert it through an interface there)").isEmpty();
    }

    /**
     * The stack spec is the bottom of the suite: every product's tiers are rendered from it, so spec
     * names no other package of the suite (but the root's {@link Repo}, which names none).
     */
    @Test
    void theSpecPackageNamesNoOtherPackage() throws IOException {
        List<String> found = uses().stream().filter(u -> u.from().equals("spec") && !u.to().isEmpty())
                .map(Use::where).toList();
        assertThat(found).as("lines of spec/ naming another package of the suite").isEmpty();
    }

    /**
     * nginx's tiers come next: the stack, the matrix and the commands are built from them, so nginx
     * names no other package of the suite but the spec it renders (and the root's {@link Repo}).
     */
    @Test
    void theNginxPackageNamesOnlyTheSpec() throws IOException {
        List<String> found = uses().stream().filter(u -> u.from().equals("nginx") && !u.to().isEmpty()
                && !u.to().equals("spec")).map(Use::where).toList();
        assertThat(found).as("lines of nginx/ naming a package of the suite other than spec").isEmpty();
    }

    /**
     * The switches are the command line's words for the stack, the same for every edge product: they
     * fill the spec and name no product's package, so nginx's renderer never reads a flag and a flag
     * never needs nginx.
     */
    @Test
    void theSwitchesPackageNamesOnlyTheSpec() throws IOException {
        List<String> found = uses().stream().filter(u -> u.from().equals("switches") && !u.to().isEmpty()
                && !u.to().equals("spec")).map(Use::where).toList();
        assertThat(found).as("lines of switches/ naming a package of the suite other than spec").isEmpty();
    }

    /**
     * The test of the edge seam: a cell's way through the run, its collectors, the model, the
     * report and each kind of matrix meet the stack spec and an edge adapter, never nginx's own servers, renderer, adapter or
     * log reader, so that HAProxy's and Varnish's cells take the same way. The one exception is
     * CellEvents, which reads an nginx log where a run folder from before the events has no events.
     */
    @Test
    void theRunTheModelAndTheReportNeverNameNginxsTiers() throws IOException {
        Pattern nginxTiers = Pattern.compile("\\b(NginxServer|NginxRenderer\\.render|new NginxRenderer|NginxLog|NginxEdge"
                + "|frontEnd\\(\\)|backEnd\\(\\)|frontAccessLogs\\(\\)|accessLog\\(\\))\\b?");
        Path root = Repo.root().resolve(SOURCES);
        List<String> found = new ArrayList<>();
        for (String dir : List.of("matrix", "predict", "report", "replay", "kinds")) {
            try (Stream<Path> files = Files.walk(root.resolve(dir))) {
                for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    if (f.getFileName().toString().equals("CellEvents.java")) {
                        continue;
                    }
                    String[] lines = LINE_COMMENT.matcher(BLOCK_COMMENT.matcher(Files.readString(f, StandardCharsets.UTF_8))
                            .replaceAll("")).replaceAll("").split("\n");
                    for (String line : lines) {
                        if (nginxTiers.matcher(line).find()) {
                            found.add(root.relativize(f) + ": " + line.strip());
                        }
                    }
                }
            }
        }
        assertThat(found).as("lines of the run, the model and the report naming nginx's tiers").isEmpty();
    }

    /**
     * A simple class name names one class of the suite's main code: a reader who meets {@code Figure}
     * in a stack trace, a review or a search should not have to ask whose.
     */
    @Test
    void eachSimpleClassNameIsUsedOnce() throws IOException {
        Path root = Repo.root().resolve(SOURCES);
        Map<String, List<String>> byName = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> byName
                    .computeIfAbsent(f.getFileName().toString(), k -> new ArrayList<>()).add(root.relativize(f).toString()));
        }
        byName.values().removeIf(files -> files.size() == 1);
        assertThat(byName).as("class names used by more than one main source file of the suite").isEmpty();
    }

    /**
     * Each kind of matrix (kinds/: its cells, checks, sections, model) is a plug-in of the run: the
     * runner, the model and the report know none of them, so that a kind is added or changed in its
     * own package, and only the commands name one, in one place (cli's MatrixKind, which registers
     * them). A kind names no other kind: what two share belongs below them, in matrix/ or report/.
     */
    @Test
    void onlyTheCommandsNameAKindAndNoKindNamesAnother() throws IOException {
        List<String> found = uses().stream().filter(u -> u.to().startsWith("kinds.") && !u.from().equals("cli"))
                .map(Use::where).toList();
        assertThat(found).as("lines outside cli/ naming a kind's package (kinds/...)").isEmpty();
        assertThat(uses().stream().filter(u -> u.from().equals("cli") && u.to().startsWith("kinds."))
                .map(u -> u.where().substring(0, u.where().indexOf(':'))).distinct())
                .as("the files of cli/ that name a kind").containsExactly("cli/MatrixKind.java");
    }

    /** Every main source file's uses of another package of the suite ("" is the root package). */
    static List<Use> uses() throws IOException {
        Path root = Repo.root().resolve(SOURCES);
        List<Use> uses = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String from = packageOf(root.relativize(f.getParent()));
                String code = LINE_COMMENT.matcher(BLOCK_COMMENT.matcher(Files.readString(f, StandardCharsets.UTF_8))
                        .replaceAll(m -> "\n".repeat((int) m.group().chars().filter(c -> c == '\n').count())))
                        .replaceAll("");
                String[] lines = code.split("\n", -1);
                for (int i = 0; i < lines.length; i++) {
                    Matcher m = NAMED.matcher(lines[i]);
                    while (m.find()) {
                        String to = m.group(1).isEmpty() ? "" : m.group(1).substring(1);
                        if (!to.equals(from) && !lines[i].stripLeading().startsWith("package ")) {
                            uses.add(new Use(from, to, root.relativize(f) + ":" + (i + 1) + ": " + lines[i].strip()));
                        }
                    }
                }
            }
        }
        return uses;
    }

    private static String packageOf(Path relative) {
        return relative.toString().isEmpty() ? "" : relative.toString().replace('/', '.').replace('\\', '.');
    }

    /** Package to the packages it names, each with where it first does. */
    static Map<String, Map<String, String>> graph(List<Use> uses) {
        Map<String, Map<String, String>> graph = new TreeMap<>();
        for (Use u : uses) {
            graph.computeIfAbsent(u.from(), k -> new TreeMap<>()).putIfAbsent(u.to(), u.where());
            graph.computeIfAbsent(u.to(), k -> new TreeMap<>());
        }
        return graph;
    }

    /**
     * Each group of packages that reach one another (Tarjan's strongly connected components), said as
     * its packages and the lines that join them, e.g. "matrix <-> replay: matrix/X.java:4: import ...".
     */
    static List<String> cycles(Map<String, Map<String, String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<String> cycles = new ArrayList<>();
        for (String p : graph.keySet()) {
            if (!index.containsKey(p)) {
                connect(p, graph, index, low, stack, cycles);
            }
        }
        return cycles;
    }

    private static void connect(String p, Map<String, Map<String, String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, List<String> cycles) {
        index.put(p, index.size());
        low.put(p, index.get(p));
        stack.push(p);
        for (String q : graph.get(p).keySet()) {
            if (!index.containsKey(q)) {
                connect(q, graph, index, low, stack, cycles);
                low.put(p, Math.min(low.get(p), low.get(q)));
            } else if (stack.contains(q)) {
                low.put(p, Math.min(low.get(p), index.get(q)));
            }
        }
        if (low.get(p).equals(index.get(p))) {
            TreeSet<String> group = new TreeSet<>();
            String q;
            do {
                q = stack.pop();
                group.add(q);
            } while (!q.equals(p));
            if (group.size() > 1) {
                List<String> joins = new ArrayList<>();
                for (String a : group) {
                    graph.get(a).forEach((b, where) -> {
                        if (group.contains(b)) {
                            joins.add(a + " -> " + b + " (" + where + ")");
                        }
                    });
                }
                cycles.add(String.join(" <-> ", group.stream().map(g -> g.isEmpty() ? "(root)" : g).toList())
                        + ": " + String.join("; ", joins));
            }
        }
    }

    @Test
    void aCycleIsFoundAndNamed() {
        List<Use> uses = List.of(new Use("matrix", "replay", "matrix/A.java:3: import a"),
                new Use("replay", "matrix", "replay/B.java:5: import b"), new Use("cli", "matrix", "cli/C.java:1"));
        assertThat(cycles(graph(uses))).containsExactly("matrix <-> replay: matrix -> replay (matrix/A.java:3: "
                + "import a); replay -> matrix (replay/B.java:5: import b)");
    }
}
