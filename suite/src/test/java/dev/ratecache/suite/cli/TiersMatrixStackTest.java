package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * --matrix tiers under the quick profile, through real tiers, the origin and JMeter: its two noisy
 * cells, by address and by API key. The margins are wide: the machine is shared, and what is asserted
 * is the shape (who loses), not a rate to the request.
 */
@StackTest
class TiersMatrixStackTest {
    private static final CommandRun CLI = new CommandRun();
    private static int exitCode;
    private static Path run;
    private static final Map<String, JsonNode> CELLS = new HashMap<>();

    @BeforeAll
    static void runTheNoisyCells() throws Exception {
        Path dir = dev.ratecache.testkit.TestDirs.fresh(TiersMatrixStackTest.class, "results");
        List<String> args = new ArrayList<>(List.of("--matrix", "tiers", "--profile", "quick",
                "--only", "keys/addr.noisy,keys/api-key.noisy", "--no-dashboards", "--results", dir.toString()));
        args.addAll(StackPorts.free().flags());
        exitCode = CLI.run(args.toArray(String[]::new));
        run = dir.resolve("latest").toRealPath();
        new ObjectMapper().readTree(run.resolve("summary.json").toFile()).get("cells")
                .forEach(c -> CELLS.put(c.get("name").asText(), c));
    }

    private static JsonNode tiers(String cell) {
        JsonNode t = CELLS.get(cell).get("tiers");
        assertThat(t).as(cell + " has tier figures\n" + CLI.out()).isNotNull();
        return t;
    }

    private static JsonNode tier(String cell, String name) {
        for (JsonNode t : tiers(cell).get("tiers")) {
            if (t.get("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError(cell + " has no tier " + name);
    }

    @Test
    void bothCellsRunAndEveryTierHasItsFigures() {
        assertThat(exitCode).as(CLI.out() + "\n" + CLI.err()).isZero();
        assertThat(CELLS.keySet()).containsExactlyInAnyOrder("keys/addr.noisy", "keys/api-key.noisy");
        for (String cell : CELLS.keySet()) {
            assertThat(CELLS.get(cell).get("status").asText()).isEqualTo("ok");
            for (String name : List.of("free", "pro")) {
                JsonNode t = tier(cell, name);
                assertThat(t.get("admitted_per_s").asDouble()).as(cell + " " + name).isPositive();
                assertThat(t.get("p95_admitted_ms").isNumber()).as(cell + " " + name).isTrue();
                assertThat(t.get("jain").asDouble()).as(cell + " " + name).isBetween(0.2, 1.0);
            }
        }
    }

    @Test
    void byKeyTheNoisyKeyIsRejectedFarMoreThanTheWellBehavedKeys() {
        JsonNode t = tiers("keys/api-key.noisy");
        assertThat(t.get("noisy_key").asText()).isEqualTo("free-noisy");
        // 200 r/s against its tier's 20 r/s, nodelay: about 90 % rejected; the others ask for half their tier.
        assertThat(t.get("noisy_rejected_pct").asDouble()).as(CLI.out()).isGreaterThan(60);
        assertThat(t.get("well_behaved_rejected_pct").asDouble()).as(CLI.out()).isLessThan(10);
        assertThat(tier("keys/api-key.noisy", "pro").get("rejected_pct").asDouble()).isLessThan(10);
        // The model keys by key too: it puts the rejections in the free tier (the noisy key's) and none in pro.
        assertThat(tier("keys/api-key.noisy", "free").get("predicted_rejected_pct").asDouble()).isGreaterThan(50);
        assertThat(tier("keys/api-key.noisy", "pro").get("predicted_rejected_pct").asDouble()).isLessThan(5);
    }

    @Test
    void byAddressTheNoisyKeyTakesTheWellBehavedKeysQuotaWithIt() {
        // Every key from one address: one bucket of 100 r/s for 280 r/s offered, so the well-behaved
        // keys lose with the noisy one (queued first, then rejected once the burst of 200 is full).
        JsonNode byAddress = tiers("keys/addr.noisy");
        JsonNode byKey = tiers("keys/api-key.noisy");
        assertThat(byAddress.get("well_behaved_rejected_pct").asDouble()).as(CLI.out())
                .isGreaterThan(byKey.get("well_behaved_rejected_pct").asDouble() + 10);
    }

    @Test
    void theReportShowsATierSectionWithTheNoisyNeighbourFigure() throws Exception {
        String md = Files.readString(run.resolve("report.md"));
        assertThat(md).contains("## Tiers: keys/api-key.noisy", "Noisy neighbour: while key free-noisy flooded",
                "| tier | keys | admitted/s | rejected % | rejected % (model) | p95 admitted (ms) | Jain's index |");
    }
}
