package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.kinds.attacks.AttackCells;
import dev.ratecache.suite.kinds.attacks.AttackPromise;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * --matrix attacks on nginx under the quick profile, with --client-timeout 2 so that the edge's
 * timeouts fire within a short cell: 500 slow clients from their own address beside the stress plan.
 */
@dev.ratecache.testkit.StackTest
@dev.ratecache.testkit.LongTest
class AttacksMatrixStackTest {
    private static final int TIMEOUT_S = 2;
    private static MatrixRun matrix;

    @BeforeAll
    static void runTheAttackCells() throws Exception {
        matrix = MatrixRun.of(AttacksMatrixStackTest.class, "attacks", List.of("attacks/nginx.baseline",
                "attacks/nginx.slow-headers", "attacks/nginx.slow-body", "attacks/nginx.slow-read"),
                "--client-timeout", String.valueOf(TIMEOUT_S));
    }

    private static JsonNode attack(String cell) {
        JsonNode c = matrix.cells.get(cell);
        assertThat(c.get("status").asText()).as(cell + "\n" + matrix.output()).isEqualTo("ok");
        assertThat(c.get("attack")).as(cell + " has attack figures\n" + matrix.output()).isNotNull();
        return c.get("attack");
    }

    private static List<JsonNode> endings(JsonNode attack) {
        List<JsonNode> out = new ArrayList<>();
        attack.get("endings").forEach(out::add);
        return out;
    }

    private static JsonNode ending(JsonNode attack, String how) {
        return endings(attack).stream().filter(e -> e.get("how").asText().equals(how)).findFirst().orElseThrow();
    }

    @Test
    void slowHeadersAreResetUnansweredAtClientHeaderTimeoutAndComeBack() {
        JsonNode a = attack("attacks/nginx.slow-headers");
        // Each slot opened again after each close: more connections than slots over the attack.
        assertThat(a.get("opened").asInt()).as(matrix.output()).isGreaterThan(AttackCells.ATTACK_CONNECTIONS);
        // The normal clients met an edge under attack (most slots hold a connection at any moment).
        assertThat(a.get("held_at_traffic").asInt()).as(matrix.output()).isGreaterThan(AttackCells.ATTACK_CONNECTIONS / 2);
        // Never answered: reset by the edge (reset_timedout_connection), or open when the attack stopped.
        assertThat(endings(a)).as(matrix.output()).extracting(e -> e.get("how").asText() + " " + e.get("status").asInt())
                .containsExactlyInAnyOrder("reset 0", "held 0");
        // Timed from the first header byte, however often more came: at the timeout, late only by a busy machine.
        assertThat(ending(a, "reset").get("median_s").asDouble()).isBetween(TIMEOUT_S - 0.1, TIMEOUT_S + 3.0);
        // The edge's own count: the slow clients were reading a header there.
        assertThat(a.get("edge_peak_reading").asInt()).isGreaterThan(AttackCells.ATTACK_CONNECTIONS / 2);
        assertThat(a.get("bound").asText()).isEqualTo("client_header_timeout " + TIMEOUT_S + "s, for the whole header from its first byte");
    }

    @Test
    void slowBodiesOverThePerClientLimitAreRefusedAndTheRestOutliveClientBodyTimeout() {
        JsonNode a = attack("attacks/nginx.slow-body");
        // A byte a second resets client_body_timeout: what the limit admitted is still held at the attack's end,
        // well past the 2 s timeout; the rest were refused at once by limit_req, from the attacker's own address.
        assertThat(endings(a)).as(matrix.output()).extracting(e -> e.get("how").asText() + " " + e.get("status").asInt())
                .containsExactlyInAnyOrder("held 0", "answered 429");
        assertThat(ending(a, "answered").get("median_s").asDouble()).isLessThan(TIMEOUT_S);
        assertThat(a.get("held_at_end").asLong()).isPositive();
        assertThat(a.get("attack_s").asDouble()).isGreaterThanOrEqualTo(2.0 * TIMEOUT_S + 2 - 0.5);
    }

    @Test
    void slowReadersOfSmallAnswersAreIdleAtTheEdgeWhichClosesThemWhileTheyStillRead() throws Exception {
        JsonNode a = attack("attacks/nginx.slow-read");
        // Their answers sat in the kernel's buffers: the attacker never saw an end, while nginx counted them idle.
        assertThat(endings(a)).extracting(e -> e.get("how").asText()).containsExactly("held");
        assertThat(a.get("edge_peak_waiting").asInt()).as(matrix.output()).isGreaterThan(AttackCells.ATTACK_CONNECTIONS / 2);
    }

    @Test
    void theAttackersRequestsAreCountedAgainstItsOwnAddressAtTheFront() throws Exception {
        attack("attacks/nginx.slow-read");
        String log = Files.readString(matrix.run.resolve("cells/attacks-nginx.slow-read/nginx/front/logs/access.log"));
        assertThat(log).contains("\"client\":\"127.0.0.66\"", "/hare?attack=slow-read");
    }

    @Test
    void eachAttackIsCheckedAgainstItsBaselineAndTheOriginAgainstTheBackLimit() throws Exception {
        for (String cell : List.of("attacks/nginx.slow-headers", "attacks/nginx.slow-body", "attacks/nginx.slow-read")) {
            JsonNode check = matrix.checks.get(AttackPromise.text(cell));
            assertThat(check).as(cell + "\n" + matrix.output()).isNotNull();
            // The verdict is the figures' (a busy machine moves throughput both ways): 90 % of the baseline's.
            double with = matrix.cells.get(cell).path("metrics").path("throughput").path("median").asDouble();
            double without = matrix.cells.get("attacks/nginx.baseline").path("metrics").path("throughput")
                    .path("median").asDouble();
            assertThat(check.get("passed").asBoolean()).as(check.toString()).isEqualTo(with >= 0.9 * without);
            JsonNode origin = matrix.checks.get(cell + ".origin_peak_1s <= 60");
            assertThat(origin).as(matrix.checks.keySet().toString()).isNotNull();
            assertThat(origin.get("passed").asBoolean()).as(origin.toString()).isTrue();
        }
        assertThat(Files.readString(matrix.run.resolve("report.md"))).contains("## Attacks: slow clients at the edge",
                "| attacks/nginx.slow-headers |");
    }
}
