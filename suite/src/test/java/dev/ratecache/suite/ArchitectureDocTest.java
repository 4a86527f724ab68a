package dev.ratecache.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.docs.Committed;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md draws the suite's package graph from the code, as PackageImportsTest reads
 * it: a package that starts or stops using another changes the drawing, and this test fails until
 * the page is written again.
 */
class ArchitectureDocTest {
    @Test
    void theArchitecturePageDrawsThePackageGraphTheCodeHas() throws Exception {
        Map<String, Set<String>> reduced = transitiveReduction(edges());
        StringBuilder mermaid = new StringBuilder("```mermaid\nflowchart TD\n");
        reduced.forEach((from, tos) -> tos.forEach(to -> mermaid.append("    ").append(node(from)).append(" --> ")
                .append(node(to)).append('\n')));
        mermaid.append("```\n");

        assertThat(reduced).containsKeys("cli", "matrix");
        Committed.block(Repo.root().resolve("docs/architecture.md"), "package-graph", mermaid.toString(),
                "./mvnw -B -q test -pl suite -am -Dtest=ArchitectureDocTest -Ddocs.write=true");
    }

    /**
     * A package as a node of the drawing: its name, or for a package within another (kinds.faults)
     * an id without the dot, which mermaid reads as syntax, labelled with the name.
     */
    private static String node(String pkg) {
        return pkg.contains(".") ? pkg.replace('.', '_') + "[" + pkg + "]" : pkg;
    }

    /** Who uses whom among the suite's packages (the root's Repo, which every package may use, left out). */
    private static Map<String, Set<String>> edges() throws Exception {
        Map<String, Set<String>> edges = new TreeMap<>();
        PackageImportsTest.graph(PackageImportsTest.uses()).forEach((from, tos) -> tos.keySet().stream()
                .filter(to -> !to.isEmpty() && !from.isEmpty() && !to.equals(from))
                .forEach(to -> edges.computeIfAbsent(from, k -> new TreeSet<>()).add(to)));
        return edges;
    }

    /** Only the uses no longer path implies: the drawing stays readable, and every dependency is still a path. */
    private static Map<String, Set<String>> transitiveReduction(Map<String, Set<String>> edges) {
        Map<String, Set<String>> reduced = new TreeMap<>();
        edges.forEach((from, tos) -> {
            for (String to : tos) {
                boolean implied = tos.stream().anyMatch(via -> !via.equals(to) && reaches(edges, via, to, new HashSet<>()));
                if (!implied) {
                    reduced.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
                }
            }
        });
        return reduced;
    }

    private static boolean reaches(Map<String, Set<String>> edges, String from, String to, Set<String> seen) {
        if (!seen.add(from)) {
            return false;
        }
        for (String next : edges.getOrDefault(from, Set.of())) {
            if (next.equals(to) || reaches(edges, next, to, seen)) {
                return true;
            }
        }
        return false;
    }
}
