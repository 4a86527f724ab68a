package dev.ratecache.suite.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Some cells of a matrix under the quick profile, run in-process through the command line on free
 * ports and without dashboards, with the run's summary.json read back: its cells and checks by name.
 */
final class MatrixRun {
    final CommandRun cli = new CommandRun();
    final int exitCode;
    final Path run;
    final Map<String, JsonNode> cells = new HashMap<>();
    final Map<String, JsonNode> checks = new HashMap<>();

    private MatrixRun(Class<?> owner, String matrix, List<String> only, List<String> extra) throws IOException {
        Path dir = TestDirs.fresh(owner, "results");
        List<String> args = new ArrayList<>(List.of("--matrix", matrix, "--profile", "quick",
                "--only", String.join(",", only), "--no-dashboards", "--results", dir.toString()));
        args.addAll(extra);
        args.addAll(StackPorts.free().flags());
        exitCode = cli.run(args.toArray(String[]::new));
        run = dir.resolve("latest").toRealPath();
        JsonNode summary = new ObjectMapper().readTree(run.resolve("summary.json").toFile());
        summary.get("cells").forEach(c -> cells.put(c.get("name").asText(), c));
        summary.path("checks").forEach(c -> checks.put(c.get("check").asText(), c));
    }

    /** Runs {@code only} of {@code matrix}, with {@code extra} flags, in {@code owner}'s test folder. */
    static MatrixRun of(Class<?> owner, String matrix, List<String> only, String... extra) throws IOException {
        return new MatrixRun(owner, matrix, only, List.of(extra));
    }

    /** What the run printed, for a failing assertion's message. */
    String output() {
        return cli.out() + "\n" + cli.err();
    }
}
