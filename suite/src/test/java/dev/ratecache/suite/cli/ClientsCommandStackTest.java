package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ./run-tests.sh clients, briefly (3 s a strategy), through the real origin and nginx tiers, ten
 * clients of the client library's driver sharing one key at three times their share: what must
 * hold of each strategy whatever the machine's speed, checked on the edge's limit and the origin's
 * own counter.
 */
@StackTest
@LongTest
class ClientsCommandStackTest {
    private static final int RATE = 20;
    private static final int BURST = 10;
    private static final int SECONDS = 3;
    private static final CommandRun RUN = new CommandRun();
    private static int exitCode;
    private static Path runDir;
    private static JsonNode report;
    private static Map<String, JsonNode> rows;

    @BeforeAll
    static void runTheComparison() throws Exception {
        Path results = TestDirs.fresh(ClientsCommandStackTest.class, "results");
        exitCode = RUN.run("clients", "--seconds", String.valueOf(SECONDS), "--rate", String.valueOf(RATE),
                "--burst", String.valueOf(BURST), "--results", results.toString());
        try (Stream<Path> runs = Files.list(results)) {
            runDir = runs.filter(p -> p.getFileName().toString().startsWith("clients-")).findFirst().orElse(null);
        }
        if (runDir != null && Files.isRegularFile(runDir.resolve("clients.json"))) {
            report = new ObjectMapper().readTree(runDir.resolve("clients.json").toFile());
            rows = ClientsCommand.rows(report);
        }
    }

    private static String output() {
        return RUN.out() + RUN.err();
    }

    @Test
    void everyStrategyRanAndItsTableWasWrittenAndPrinted() throws Exception {
        assertThat(exitCode).as(output()).isZero();
        assertThat(rows).as(output()).isNotNull();
        assertThat(rows.keySet()).containsExactlyElementsOf(ClientsCommand.STRATEGIES);
        assertThat(Files.readString(runDir.resolve("clients.md"))).contains(ClientsCommand.table(report));
        assertThat(RUN.out()).contains(ClientsCommand.table(report)).contains("goal (");
    }

    @Test
    void theCountsAddUpWithTheOriginsOwnCounter() {
        assertThat(rows).as(output()).isNotNull();
        for (JsonNode r : rows.values()) {
            String name = r.get("strategy").asText();
            assertThat(r.get("otherErrors").asLong()).as(name).isZero();
            // Every attempt on the wire was answered 200 or 429, and every 200 came from the origin (no cache).
            assertThat(r.get("attempts").asLong()).as(name)
                    .isEqualTo(r.get("successes").asLong() + r.get("rejected").asLong());
            assertThat(r.get("originRequests").asLong()).as(name).isEqualTo(r.get("successes").asLong());
            assertThat(r.get("successes").asLong()).as(name).isPositive();
        }
    }

    @Test
    void goodputCountsEverySuccessOfTheWindowsRequestsAndNoneIsCutShort() {
        assertThat(rows).as(output()).isNotNull();
        for (JsonNode r : rows.values()) {
            String name = r.get("strategy").asText();
            // Answered in the window or in the drain after it, alike for every strategy: what the origin counted.
            assertThat(r.get("goodputPerSec").asDouble() * SECONDS).as(name)
                    .isCloseTo(r.get("originRequests").asDouble(), within(1e-6));
            // The drain outlasts every strategy's retries: no request was given up for want of time.
            assertThat(r.get("cut").asLong()).as(name).isZero();
        }
    }

    @Test
    void theKeysLimitHoldsForEveryStrategy() {
        assertThat(rows).as(output()).isNotNull();
        for (JsonNode r : rows.values()) {
            // nginx admits the rate over the time the key sent, plus its burst and one: never more.
            double sentFor = r.get("elapsedMs").asDouble() / 1000;
            assertThat(r.get("successes").asDouble()).as(r.get("strategy").asText())
                    .isLessThanOrEqualTo(RATE * sentFor + BURST + 1);
        }
    }

    @Test
    void retryingAtOnceOrBackingOffMeetsFarMore429sThanPacing() {
        assertThat(rows).as(output()).isNotNull();
        long paced = rows.get("pace").get("rejected").asLong();
        // Measured here: about ten times as many; a busy machine slows the retrying clients, so twice.
        assertThat(rows.get("immediate").get("rejected").asLong()).isGreaterThan(2 * paced);
        assertThat(rows.get("backoff").get("rejected").asLong()).isGreaterThan(2 * paced);
    }

    @Test
    void jainsIndexIsAFairnessIndex() {
        assertThat(rows).as(output()).isNotNull();
        for (JsonNode r : rows.values()) {
            // 1/n (one client took everything) to 1 (all alike); ten clients that all got some are well above 0.1.
            assertThat(r.get("jain").asDouble()).as(r.get("strategy").asText()).isBetween(0.1, 1.0);
        }
    }

    @Test
    void badInputIsRefusedBeforeAnythingStarts() {
        CommandRun bad = new CommandRun();
        assertThat(bad.run("clients", "--clients", "1", "--strategy", "nagle")).isEqualTo(2);
        assertThat(bad.err()).contains("--clients").contains("--strategy must be one of " + String.join(", ", List.of(
                "immediate", "backoff", "retry-after", "pace")));
    }
}
