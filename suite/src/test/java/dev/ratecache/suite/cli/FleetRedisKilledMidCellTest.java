package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.report.FleetPromise;
import dev.ratecache.suite.stack.FleetLog;
import dev.ratecache.testkit.StackTest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * fleet/shared with its Redis killed while the cell runs: the edges fall back to their split limit,
 * so the cell is measured to the end, the heavy key is still held near its limit (never the
 * per-edge leak), and the report counts the requests that fell back.
 */
@StackTest
class FleetRedisKilledMidCellTest {
    private static MatrixRun matrix;
    private static final AtomicLong KILLED = new AtomicLong(-1);

    @BeforeAll
    static void runTheSharedCellAndKillItsRedis() throws Exception {
        FleetLog.requireSharedLimit();
        Thread killer = new Thread(FleetRedisKilledMidCellTest::killRedisOnceTheCellRuns, "redis-killer");
        killer.setDaemon(true);
        killer.start();
        matrix = MatrixRun.of(FleetRedisKilledMidCellTest.class, "fleet", List.of("fleet/shared"));
        killer.join(Duration.ofSeconds(10).toMillis());
    }

    /**
     * Waits for the cell's redis-server and JMeter (children of this JVM, which the matrix started)
     * and for JMeter to be sending, then kills Redis by its PID.
     */
    private static void killRedisOnceTheCellRuns() {
        Awaitility.await("the cell's Redis and JMeter").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> child("redis-server").isPresent() && child("ApacheJMeter").isPresent());
        ProcessHandle redis = child("redis-server").orElseThrow();
        // JMeter's start and the plan's 1 s pause go by, then about half of the quick cell's 4 s with Redis.
        Awaitility.await().pollDelay(Duration.ofSeconds(4)).until(() -> true);
        KILLED.set(redis.pid());
        redis.destroyForcibly();
    }

    /** A child of this JVM whose command line names {@code what}: the processes the matrix started, none else. */
    private static Optional<ProcessHandle> child(String what) {
        return ProcessHandle.current().children()
                .filter(p -> p.info().commandLine().map(c -> c.contains(what)).orElse(false)).findFirst();
    }

    @Test
    void theCellIsMeasuredToTheEndWithItsFallbacksCounted() {
        assertThat(KILLED.get()).as("Redis was killed mid-cell").isPositive();
        JsonNode cell = matrix.cells.get("fleet/shared");
        assertThat(cell.get("status").asText()).as(matrix.output()).isEqualTo("ok");
        JsonNode fleet = cell.get("fleet");
        assertThat(fleet.get("fallbacks").asLong()).as(matrix.output()).isPositive();
        assertThat(matrix.output()).contains("Redis fallbacks " + fleet.get("fallbacks").asLong());
    }

    @Test
    void theHeavyKeyIsStillHeldByTheSplitLimit() {
        JsonNode fleet = matrix.cells.get("fleet/shared").get("fleet");
        // Split's rate/N and burst/N hold it; per-edge would have let it through up to three times over.
        assertThat(fleet.get("effective_limit").asDouble()).as(matrix.output()).isLessThan(1.3);
        assertThat(matrix.checks.get(FleetPromise.text("fleet/shared")).get("passed").asBoolean()).as(matrix.output())
                .isTrue();
    }
}
