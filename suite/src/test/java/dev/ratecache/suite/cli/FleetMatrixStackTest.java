package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.Waits;
import dev.ratecache.suite.report.FleetPromise;
import dev.ratecache.suite.stack.FleetLog;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * --matrix fleet under the quick profile, through three real edges, the origin and JMeter: per-edge
 * lets the heavy key through well past its limit and fails the promise naming the second;
 * client-hash, split and shared hold it, shared even with its Redis killed halfway through the cell
 * (its edges fall back to the split limit, and the report counts the requests that did). The
 * margins are wide: the machine is shared.
 */
@StackTest
class FleetMatrixStackTest {
    private static MatrixRun matrix;
    private static Map<String, JsonNode> CELLS;
    private static Map<String, JsonNode> CHECKS;

    private static final AtomicLong KILLED = new AtomicLong(-1);

    @BeforeAll
    static void runTheFleetCells() throws Exception {
        FleetLog.requireSharedLimit();
        Thread killer = new Thread(FleetMatrixStackTest::killRedisOnceTheSharedCellRuns, "redis-killer");
        killer.setDaemon(true);
        killer.start();
        matrix = MatrixRun.of(FleetMatrixStackTest.class, "fleet",
                List.of("fleet/per-edge", "fleet/client-hash", "fleet/split", "fleet/shared"));
        killer.join(Duration.ofSeconds(10).toMillis());
        CELLS = matrix.cells;
        CHECKS = matrix.checks;
    }

    /**
     * Kills the shared cell's Redis while the cell runs: once its JMeter (a child of this JVM, which
     * the matrix started) is sending, reads the Redis's PID from the log the cell keeps of it (the
     * only Redis a fleet cell starts) and kills that process, a child of this JVM too.
     */
    private static void killRedisOnceTheSharedCellRuns() {
        Path results = TestDirs.of(FleetMatrixStackTest.class, "results");
        Awaitility.await("the shared cell's JMeter and Redis").atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> jmeterOf("fleet-shared") && redisOf(results).isPresent());
        ProcessHandle redis;
        try {
            redis = redisOf(results).orElseThrow();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        // JMeter's start and the plan's 1 s pause go by, then about half of the quick cell's 4 s with Redis.
        // A deliberate wait: the buffered edge logs cannot show that Redis has answered yet.
        Waits.past(Duration.ofSeconds(4));
        KILLED.set(redis.pid());
        redis.destroyForcibly();
    }

    private static boolean jmeterOf(String cellFolder) {
        return ProcessHandle.current().children().anyMatch(p -> p.info().commandLine()
                .map(c -> c.contains("ApacheJMeter") && c.contains("/cells/" + cellFolder + "/")).orElse(false));
    }

    /** The running Redis whose PID the shared cell's redis.log names ("PID:M ... Ready to accept connections"). */
    private static Optional<ProcessHandle> redisOf(Path results) throws java.io.IOException {
        if (!Files.isDirectory(results)) {
            return Optional.empty();
        }
        try (var logs = Files.find(results, 5, (p, a) -> p.endsWith("fleet-shared/fleet-redis/redis.log"))) {
            for (Path log : logs.toList()) {
                for (String line : Files.readAllLines(log)) {
                    if (line.contains("Ready to accept connections")) {
                        long pid = Long.parseLong(line.substring(0, line.indexOf(':')));
                        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                                .filter(p -> p.parent().map(ProcessHandle.current()::equals).orElse(false));
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static JsonNode fleet(String cell) {
        assertThat(CELLS.get(cell).get("status").asText()).as(cell + "\n" + matrix.output()).isEqualTo("ok");
        JsonNode f = CELLS.get(cell).get("fleet");
        assertThat(f).as(cell + " has fleet figures\n" + matrix.output()).isNotNull();
        return f;
    }

    @Test
    void perEdgeLetsTheHeavyKeyThroughWellPastItsLimitAndFailsThePromise() {
        assertThat(fleet("fleet/per-edge").get("effective_limit").asDouble()).as(matrix.output()).isGreaterThan(1.3);
        JsonNode check = CHECKS.get(FleetPromise.text("fleet/per-edge"));
        assertThat(check.get("passed").asBoolean()).isFalse();
        assertThat(check.get("detail").asText()).startsWith("broken by key free-noisy").contains("UTC");
        // The broken promise is a failed check like any other: the run's exit code says so.
        assertThat(matrix.exitCode).isEqualTo(1);
        assertThat(matrix.cli.err()).contains(FleetPromise.text("fleet/per-edge"));
    }

    @Test
    void clientHashSplitAndSharedHoldThePromise() {
        for (String cell : List.of("fleet/client-hash", "fleet/split", "fleet/shared")) {
            assertThat(fleet(cell).get("effective_limit").asDouble()).as(cell + "\n" + matrix.output()).isBetween(0.5, 1.15);
            assertThat(CHECKS.get(FleetPromise.text(cell)).get("passed").asBoolean()).as(cell + "\n" + matrix.output()).isTrue();
        }
    }

    @Test
    void sharedSurvivesItsRedisKilledMidCellWithTheFallbacksCounted() {
        assertThat(KILLED.get()).as("Redis was killed mid-cell").isPositive();
        // Measured to the end, held by the edges' split limits (above), and the fallbacks counted.
        long fallbacks = fleet("fleet/shared").get("fallbacks").asLong();
        assertThat(fallbacks).as(matrix.output()).isPositive();
        assertThat(matrix.output()).contains("Redis fallbacks " + fallbacks);
    }

    @Test
    void eachCellHasThePredictionAndTheSentenceInTheReport() throws Exception {
        for (String cell : CELLS.keySet()) {
            assertThat(fleet(cell).get("predicted_effective_limit").isNumber()).as(cell).isTrue();
        }
        String md = Files.readString(matrix.run.resolve("report.md"));
        assertThat(md).contains("## Fleet: one per-client limit across the edges",
                "Behind 3 edges in round robin (per-edge), key free-noisy got");
        assertThat(Files.readString(matrix.run.resolve("checks.xml"))).contains(FleetPromise.text("fleet/per-edge"));
    }
}
