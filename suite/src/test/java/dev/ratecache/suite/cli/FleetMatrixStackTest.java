package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.report.FleetPromise;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * --matrix fleet under the quick profile, through three real edges, the origin and JMeter: per-edge
 * lets the heavy key through well past its limit and fails the promise naming the second;
 * client-hash, split and shared hold it. The margins are wide: the machine is shared.
 */
@StackTest
class FleetMatrixStackTest {
    private static final StringWriter OUT = new StringWriter();
    private static final StringWriter ERR = new StringWriter();
    private static int exitCode;
    private static Path run;
    private static final Map<String, JsonNode> CELLS = new HashMap<>();
    private static final Map<String, JsonNode> CHECKS = new HashMap<>();

    @BeforeAll
    static void runTheFleetCells() throws Exception {
        Required.that(RedisServer.notInstalled().isEmpty(), RedisServer.notInstalled().orElse(""));
        Required.that(Files.isRegularFile(NginxRenderer.LUA_MODULE),
                "nginx's Lua module is missing: apt-get install libnginx-mod-http-lua");
        Path dir = dev.ratecache.testkit.TestDirs.fresh(FleetMatrixStackTest.class, "results");
        List<String> args = new ArrayList<>(List.of("--matrix", "fleet", "--profile", "quick",
                "--only", "fleet/per-edge,fleet/client-hash,fleet/split,fleet/shared", "--no-dashboards",
                "--results", dir.toString()));
        args.addAll(StackPorts.free().flags());
        CommandLine cli = RunTestsCommand.commandLine();
        cli.setOut(new PrintWriter(OUT, true));
        cli.setErr(new PrintWriter(ERR, true));
        exitCode = cli.execute(args.toArray(String[]::new));
        run = dir.resolve("latest").toRealPath();
        JsonNode summary = new ObjectMapper().readTree(run.resolve("summary.json").toFile());
        summary.get("cells").forEach(c -> CELLS.put(c.get("name").asText(), c));
        summary.get("checks").forEach(c -> CHECKS.put(c.get("check").asText(), c));
    }

    private static JsonNode fleet(String cell) {
        assertThat(CELLS.get(cell).get("status").asText()).as(cell + "\n" + OUT + ERR).isEqualTo("ok");
        JsonNode f = CELLS.get(cell).get("fleet");
        assertThat(f).as(cell + " has fleet figures\n" + OUT).isNotNull();
        return f;
    }

    @Test
    void perEdgeLetsTheHeavyKeyThroughWellPastItsLimitAndFailsThePromise() {
        assertThat(fleet("fleet/per-edge").get("effective_limit").asDouble()).as(OUT.toString()).isGreaterThan(1.3);
        JsonNode check = CHECKS.get(FleetPromise.text("fleet/per-edge"));
        assertThat(check.get("passed").asBoolean()).isFalse();
        assertThat(check.get("detail").asText()).startsWith("broken by key free-noisy").contains("UTC");
        // The broken promise is a failed check like any other: the run's exit code says so.
        assertThat(exitCode).isEqualTo(1);
        assertThat(ERR.toString()).contains(FleetPromise.text("fleet/per-edge"));
    }

    @Test
    void clientHashSplitAndSharedHoldThePromise() {
        for (String cell : List.of("fleet/client-hash", "fleet/split", "fleet/shared")) {
            assertThat(fleet(cell).get("effective_limit").asDouble()).as(cell + "\n" + OUT).isBetween(0.5, 1.15);
            assertThat(CHECKS.get(FleetPromise.text(cell)).get("passed").asBoolean()).as(cell + "\n" + OUT).isTrue();
        }
        assertThat(fleet("fleet/shared").get("fallbacks").asLong()).isZero();
    }

    @Test
    void eachCellHasThePredictionAndTheSentenceInTheReport() throws Exception {
        for (String cell : CELLS.keySet()) {
            assertThat(fleet(cell).get("predicted_effective_limit").isNumber()).as(cell).isTrue();
        }
        String md = Files.readString(run.resolve("report.md"));
        assertThat(md).contains("## Fleet: one per-client limit across the edges",
                "Behind 3 edges in round robin (per-edge), key free-noisy got");
        assertThat(Files.readString(run.resolve("checks.xml"))).contains(FleetPromise.text("fleet/per-edge"));
    }
}
