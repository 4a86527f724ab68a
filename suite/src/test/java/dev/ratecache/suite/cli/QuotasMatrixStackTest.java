package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EventFile;
import dev.ratecache.suite.kinds.quotas.QuotaPromise;
import dev.ratecache.suite.kinds.quotas.QuotaTraffic;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * --matrix quotas, its window compressed to 4 s, through three real edges, one Redis, the origin,
 * JMeter and the client library: the fixed window's keys plan (one key spends its quota early, one
 * spreads it) and the sliding window's library cell (a key paced to RateLimit). The quota holds
 * fleet-wide, the early key runs out and is admitted again after the reset, the spreading and the
 * paced keys are never refused, and the model's quota decides as the script did.
 */
@StackTest
@LongTest
class QuotasMatrixStackTest {
    private static final int QUOTA = 20;
    private static final int WINDOW_S = 4;
    /**
     * The keys plan's hold: past 1.5 windows, for JMeter on a busy machine starts seconds late and
     * sends its backlog at once, which at 1.5 windows' hold left every request in one window.
     */
    private static final int HOLD_S = 10;
    private static MatrixRun matrix;

    @BeforeAll
    static void runTwoQuotaCells() throws Exception {
        matrix = MatrixRun.of(QuotasMatrixStackTest.class, "quotas", List.of("quotas/fixed", "quotas/sliding.library"),
                "--quota", QUOTA + "/" + WINDOW_S + "s", "-J", "hold=" + HOLD_S);
    }

    private static JsonNode key(String cell, String key) {
        for (JsonNode k : matrix.cells.get(cell).path("quotas").path("keys")) {
            if (k.path("key").asText().equals(key)) {
                return k;
            }
        }
        throw new AssertionError("cell " + cell + " has no figures for key " + key + ":\n" + matrix.output());
    }

    @Test
    void theQuotaHoldsFleetWideInEachCell() {
        assertThat(matrix.exitCode).as(matrix.output()).isZero();
        for (String cell : List.of("quotas/fixed", "quotas/sliding.library")) {
            JsonNode check = matrix.checks.get(QuotaPromise.text(cell));
            assertThat(check).as(matrix.output()).isNotNull();
            assertThat(check.path("passed").asBoolean()).as(check.toString()).isTrue();
        }
    }

    @Test
    void theEarlyKeyRunsOutAndIsAdmittedAgainAfterTheReset() {
        JsonNode early = key("quotas/fixed", QuotaTraffic.EARLY);

        assertThat(early.path("first_exhausted_after_s").asDouble()).as(early.toString()).isBetween(0.0, (double) WINDOW_S);
        assertThat(early.path("quota_rejected").asLong()).isPositive();
        assertThat(early.path("fullest_window").asLong()).isEqualTo(QUOTA);
        // 2.5 windows: on schedule the run reaches a second window, where the count starts again. Beside two
        // busy loops JMeter started so late that it sent its whole backlog (154 requests) into the first
        // window: the model, deciding at the times JMeter really sent them, says how many a reset let in.
        long predicted = early.path("predicted_admitted").asLong();
        assertThat(early.path("admitted").asLong()).as(early.toString()).isBetween(predicted - 2, predicted + 2);
        if (predicted > QUOTA) {
            assertThat(early.path("admitted").asLong()).as(early.toString()).isGreaterThan(QUOTA);
        }
    }

    /**
     * The spreading key is refused only as far as the model says at the times JMeter really sent its
     * requests: on a busy machine JMeter starts late and sends the backlog at once, which can put more
     * than a window's worth of its schedule into one window.
     */
    @Test
    void theSpreadingAndThePacedKeysAreNeverRefused() {
        JsonNode spread = key("quotas/fixed", QuotaTraffic.SPREAD);
        JsonNode paced = key("quotas/sliding.library", QuotaTraffic.PACED);

        assertThat(spread.path("quota_rejected").asLong()).as(spread.toString())
                .isLessThanOrEqualTo(spread.path("predicted_quota_rejected").asLong() + 2);
        assertThat(paced.path("quota_rejected").asLong()).as(paced.toString()).isZero();
        // 1.5 windows' worth, every one admitted: paced over the windows, not spent and then waited out.
        assertThat(paced.path("admitted").asLong()).isEqualTo(QUOTA * 3 / 2);
        assertThat(paced.path("fullest_window").asLong()).isLessThanOrEqualTo(QUOTA);
    }

    @Test
    void theModelDecidesAsTheScriptDid() {
        for (String cell : List.of("quotas/fixed", "quotas/sliding.library")) {
            JsonNode q = matrix.cells.get(cell).path("quotas");
            // A request an edge decided alone, Redis answering late, may or may not have been counted there.
            assertThat(q.path("model_decisions").asLong() - q.path("model_agrees").asLong()).as(q.toString())
                    .isLessThanOrEqualTo(q.path("fallbacks").asLong());
            assertThat(q.path("model_decisions").asLong()).isPositive();
        }
        JsonNode early = key("quotas/fixed", QuotaTraffic.EARLY);
        long sent = early.path("sent").asLong();
        assertThat(Math.abs(early.path("quota_rejected").asLong() - early.path("predicted_quota_rejected").asLong()))
                .as(early.toString()).isLessThanOrEqualTo(Math.max(2, Math.round(0.02 * sent)));
    }

    @Test
    void everyEdgeLoggedWhatItsQuotaSaidOfEachRequest() throws Exception {
        List<EdgeEvent> front = EventFile.read(matrix.run.resolve("cells/quotas-fixed/events/front.jsonl"));
        List<String> fingerprints = List.of(EdgeEvent.QuotaMark.ofKey(QuotaTraffic.EARLY),
                EdgeEvent.QuotaMark.ofKey(QuotaTraffic.SPREAD));

        assertThat(front).isNotEmpty().allSatisfy(e -> {
            if (e.limit() == EdgeEvent.Limit.REJECTED) {
                // The burst limit comes first, and what it rejects costs no quota.
                assertThat(e.quota().decided()).isFalse();
                return;
            }
            assertThat(e.quota().status()).isIn("PASSED", "REJECTED", "FALLBACK", "FALLBACK_REJECTED");
            assertThat(e.quota().of()).isIn(fingerprints);
            assertThat(e.status()).isEqualTo(e.quota().admitted() ? 200 : 429);
        });
        assertThat(Files.readString(matrix.run.resolve("report.md"))).contains("Quotas: a quota per key across the edges",
                "early-1: admitted/429 r");
    }
}
