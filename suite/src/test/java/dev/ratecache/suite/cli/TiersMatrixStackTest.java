package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * --matrix tiers under the quick profile, through real tiers, the origin and JMeter: its two noisy
 * cells, by address and by API key, and the two that count only edge-cache misses (--limit-scope
 * misses), with and without the noisy key. The margins are wide: the machine is shared, and what is asserted
 * is the shape (who loses), not a rate to the request.
 */
@StackTest
@LongTest
class TiersMatrixStackTest {
    private static final List<String> CELL_NAMES = List.of("keys/addr.noisy", "keys/api-key.noisy", "keys/api-key.misses",
            "keys/api-key.misses.noisy");
    private static MatrixRun matrix;
    private static Map<String, JsonNode> CELLS;
    private static int exitCode;

    @BeforeAll
    static void runTheNoisyAndTheMissesCells() throws Exception {
        matrix = MatrixRun.of(TiersMatrixStackTest.class, "tiers", CELL_NAMES);
        CELLS = matrix.cells;
        exitCode = matrix.exitCode;
    }

    private static JsonNode tiers(String cell) {
        JsonNode t = CELLS.get(cell).get("tiers");
        assertThat(t).as(cell + " has tier figures\n" + matrix.output()).isNotNull();
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
    void everyCellRunsAndEveryTierHasItsFigures() {
        assertThat(exitCode).as(matrix.output()).isZero();
        assertThat(CELLS.keySet()).containsExactlyInAnyOrderElementsOf(CELL_NAMES);
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
        assertThat(t.get("noisy_rejected_pct").asDouble()).as(matrix.output()).isGreaterThan(60);
        assertThat(t.get("well_behaved_rejected_pct").asDouble()).as(matrix.output()).isLessThan(10);
        assertThat(tier("keys/api-key.noisy", "pro").get("rejected_pct").asDouble()).isLessThan(10);
        // The model keys by key too: it puts the rejections in the free tier (the noisy key's) and none in pro.
        assertThat(tier("keys/api-key.noisy", "free").get("predicted_rejected_pct").asDouble()).isGreaterThan(50);
        assertThat(tier("keys/api-key.noisy", "pro").get("predicted_rejected_pct").asDouble()).isLessThan(5);
    }

    @Test
    void everyCellHasAPredictionWithinTwentyPercentOrAStatedReason() {
        for (String cell : CELL_NAMES) {
            JsonNode p = CELLS.get(cell).get("prediction");
            assertThat(p).as(cell + " has a prediction").isNotNull();
            assertThat(p.get("predicted").asBoolean()).as(cell + ": " + p).isTrue();
            for (String name : List.of("free", "pro")) {
                assertThat(tier(cell, name).get("predicted_rejected_pct").isNumber()).as(cell + " " + name).isTrue();
            }
            if (p.get("flagged").asBoolean()) {
                // "no known cause" is no reason: a figure off by more than 20 % must have one the run shows.
                assertThat(p.get("explained").asBoolean()).as(cell + ": " + p.get("reasons")).isTrue();
                assertThat(p.get("reasons")).as(cell).isNotEmpty();
            }
        }
    }

    @Test
    void countingOnlyMissesTheNoisyKeysEdgeHitsCostItNoQuota() {
        // The noisy key floods /hare, which the edge cache answers: behind the cache its per-key limit sees a
        // handful of misses. Counting every request, the same flood is mostly rejected.
        JsonNode misses = tiers("keys/api-key.misses.noisy");
        double noisyBehindTheCache = misses.get("noisy_rejected_pct").asDouble();
        assertThat(misses.get("noisy_key").asText()).isEqualTo("free-noisy");
        assertThat(noisyBehindTheCache).as(matrix.output()).isLessThan(10);
        assertThat(tiers("keys/api-key.noisy").get("noisy_rejected_pct").asDouble()).isGreaterThan(noisyBehindTheCache + 40);
        // Nor does any well-behaved key lose, with the noisy one or without.
        for (String cell : List.of("keys/api-key.misses", "keys/api-key.misses.noisy")) {
            assertThat(tiers(cell).get("well_behaved_rejected_pct").asDouble()).as(cell + "\n" + matrix.output()).isLessThan(10);
        }
    }

    @Test
    void byAddressTheNoisyKeyTakesTheWellBehavedKeysQuotaWithIt() {
        // Every key from one address: one bucket of 100 r/s for 280 r/s offered, so the well-behaved
        // keys lose with the noisy one (queued first, then rejected once the burst of 200 is full).
        JsonNode byAddress = tiers("keys/addr.noisy");
        JsonNode byKey = tiers("keys/api-key.noisy");
        assertThat(byAddress.get("well_behaved_rejected_pct").asDouble()).as(matrix.output())
                .isGreaterThan(byKey.get("well_behaved_rejected_pct").asDouble() + 10);
    }

    @Test
    void theReportShowsATierSectionWithTheNoisyNeighbourFigure() throws Exception {
        String md = Files.readString(matrix.run.resolve("report.md"));
        assertThat(md).contains("## Tiers: keys/api-key.noisy", "## Tiers: keys/api-key.misses.noisy",
                "Noisy neighbour: while key free-noisy flooded",
                "| tier | keys | admitted/s | rejected % | rejected % (model) | p95 admitted (ms) | Jain's index |");
    }
}
