package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.edge.NginxLog;
import dev.ratecache.suite.kinds.fleet.FleetPromise;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Saturation;
import dev.ratecache.suite.stack.FleetLog;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * --matrix fleet under the quick profile, through three real edges, the origin and JMeter: per-edge
 * lets the heavy key through well past its limit and fails the promise naming the second;
 * client-hash, split and shared hold it, shared even with its Redis killed partway through the cell
 * (its edges fall back to the split limit, and the report counts the requests that did), but for
 * the second Redis dies in, when the split buckets take over full. The margins are wide: the
 * machine is shared.
 */
@StackTest
@LongTest
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
     * Kills the shared cell's Redis while the cell runs: once that Redis (a child of this JVM, its
     * PID and port read from the log the cell keeps of it, the only Redis a fleet cell starts) has
     * run {@link #SCRIPTS_BEFORE_THE_KILL} bucket scripts, that is once the edges are asking it for
     * the cell's traffic, whenever a loaded machine lets JMeter start.
     */
    private static void killRedisOnceTheSharedCellRuns() {
        Path results = TestDirs.of(FleetMatrixStackTest.class, "results");
        Awaitility.await("the shared cell's Redis, answering the edges").atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(() -> redisOf(results).filter(r -> r.scripts() >= SCRIPTS_BEFORE_THE_KILL).isPresent());
        ProcessHandle redis;
        try {
            redis = redisOf(results).orElseThrow().process();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        KILLED.set(redis.pid());
        redis.destroyForcibly();
    }

    /**
     * About a tenth of the cell's requests (some 480 in the quick profile's 4 s, each one script
     * call): the cell is measured with Redis first, then without it. Not a half: when a loaded
     * machine makes JMeter late, it sends the whole schedule in a second's clump.
     */
    private static final long SCRIPTS_BEFORE_THE_KILL = 50;

    /** The shared cell's running Redis, and how to ask it how many bucket scripts it has run. */
    private record CellRedis(ProcessHandle process, int port) {
        long scripts() {
            // "cmdstat_evalsha:calls=N,usec=...,rejected_calls=0,failed_calls=0": the first calls= is the one.
            try (Jedis jedis = new Jedis("127.0.0.1", port, 500)) {
                return jedis.info("commandstats").lines()
                        .filter(l -> l.startsWith("cmdstat_evalsha:") || l.startsWith("cmdstat_eval:"))
                        .mapToLong(l -> Long.parseLong(l.replaceAll("^[^:]+:calls=(\\d+),.*", "$1"))).sum();
            }
        }
    }

    /**
     * The running Redis the shared cell's nginx/fleet-redis/redis.log names: "PID:C ... port=N." when it starts, then
     * "Ready to accept connections".
     */
    private static Optional<CellRedis> redisOf(Path results) throws java.io.IOException {
        if (!Files.isDirectory(results)) {
            return Optional.empty();
        }
        try (var logs = Files.find(results, 6, (p, a) -> p.endsWith("fleet-shared/nginx/fleet-redis/redis.log"))) {
            for (Path log : logs.toList()) {
                String text = Files.readString(log);
                Matcher port = Pattern.compile("port=(\\d+)").matcher(text);
                if (!text.contains("Ready to accept connections") || !port.find()) {
                    continue;
                }
                long pid = Long.parseLong(text.substring(0, text.indexOf(':')));
                int p = Integer.parseInt(port.group(1));
                return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                        .filter(h -> h.parent().map(ProcessHandle.current()::equals).orElse(false))
                        .map(h -> new CellRedis(h, p));
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
        // The model says 1.67 (three buckets, each at 1/3 of the key's arrivals); the balancer's turn
        // jitters the split, and on a saturated machine (helpers' builds beside it) it measured 1.29.
        // Any figure clearly above 1 is the broken promise this shows; the check below is its verdict.
        assertThat(fleet("fleet/per-edge").get("effective_limit").asDouble()).as(matrix.output()).isGreaterThan(1.15);
        JsonNode check = CHECKS.get(FleetPromise.text("fleet/per-edge"));
        assertThat(check.get("passed").asBoolean()).isFalse();
        assertThat(check.get("detail").asText()).startsWith("broken by key free-noisy").contains("UTC");
        // The broken promise is a failed check like any other: the run's exit code says so.
        assertThat(matrix.exitCode).isEqualTo(1);
        assertThat(matrix.cli.err()).contains(FleetPromise.text("fleet/per-edge"));
    }

    @Test
    void clientHashSplitAndSharedHoldThePromise() throws Exception {
        for (String cell : List.of("fleet/client-hash", "fleet/split", "fleet/shared")) {
            double effective = fleet(cell).get("effective_limit").asDouble();
            JsonNode check = CHECKS.get(FleetPromise.text(cell));
            if (cell.equals("fleet/shared") && !check.get("passed").asBoolean()) {
                assertThatTheOnlyBreakIsTheSecondRedisDied(check.get("detail").asText());
            } else {
                assertThat(check.get("passed").asBoolean()).as(cell + "\n" + matrix.output()).isTrue();
            }
            // The promise above, with its derived tolerance, holds always. The effective limit counts
            // by when the client started each request, so it also holds near rate + burst, and is not
            // far under it, unless the cell was saturated: then JMeter, late, sends the schedule in
            // clumps, and the busiest second holds a burst (shared at 0.29, all 451 requests in 0.9 s)
            // or requests that started in it and were admitted in the next (client-hash at 1.25, 20
            // wholly inside it and 10 more ending after it, beside two busy loops). The report flags
            // such a cell.
            if (saturated(cell)) {
                assertThat(fleet(cell).get("admitted").asLong()).as(cell + "\n" + matrix.output()).isPositive();
            } else {
                assertThat(effective).as(cell + "\n" + matrix.output()).isBetween(0.5, 1.15);
            }
        }
    }

    /**
     * The second Redis dies in, the edges' split buckets take over full, having counted nothing while
     * Redis answered: each may admit its burst/N on top of what Redis admitted earlier in that second
     * (README, "The fallback"). So a break of the shared cell's promise must be a second that holds
     * fallen-back requests, and within rate + burst + N x floor(burst/N) of the noisy key's tier
     * (free: 20 + 4 + 3 x 1).
     */
    private static void assertThatTheOnlyBreakIsTheSecondRedisDied(String detail) throws Exception {
        Matcher m = Pattern.compile("(\\d+) admitted in the second from (\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{3}) UTC")
                .matcher(detail);
        assertThat(m.find()).as(detail).isTrue();
        LimitTier free = KeyedTraffic.fleetTiers().stream().filter(t -> t.keys().contains(KeyedTraffic.NOISY))
                .findFirst().orElseThrow();
        int edges = Matrix.FLEET_EDGES;
        assertThat(Integer.parseInt(m.group(1))).as(detail)
                .isLessThanOrEqualTo(free.rate() + free.burst() + edges * (free.burst() / edges));
        long fromMsOfDay = ((Long.parseLong(m.group(2)) * 60 + Long.parseLong(m.group(3))) * 60
                + Long.parseLong(m.group(4))) * 1000 + Long.parseLong(m.group(5));
        Path log = matrix.run.resolve("cells/fleet-shared/nginx/edges-access.log");
        long fellBackInIt = NginxLog.entries(log).stream().filter(e -> e.path("fleet").asText().equals("FALLBACK")).filter(e -> {
            long startMs = Math.round((e.path("msec").asDouble() - e.path("request_time").asDouble()) * 1000) % 86_400_000L;
            return startMs >= fromMsOfDay && startMs < fromMsOfDay + 1000;
        }).count();
        assertThat(fellBackInIt).as("requests that fell back in the broken second: " + detail).isPositive();
    }

    private static boolean saturated(String cell) {
        JsonNode metrics = CELLS.get(cell).get("metrics");
        return Saturation.of(median(metrics, "generator_cpu_pct"), median(metrics, "machine_cpu_pct")).isPresent();
    }

    private static Double median(JsonNode metrics, String metric) {
        JsonNode m = metrics.path(metric).path("median");
        return m.isNumber() ? m.asDouble() : null;
    }

    @Test
    void sharedSurvivesItsRedisKilledMidCellWithTheFallbacksCounted() throws Exception {
        assertThat(KILLED.get()).as("Redis was killed mid-cell").isPositive();
        // Measured to the end, held by the edges' split limits (above), and the fallbacks counted.
        long fallbacks = fleet("fleet/shared").get("fallbacks").asLong();
        assertThat(fallbacks).as(matrix.output()).isPositive();
        assertThat(matrix.output()).contains("Redis fallbacks " + fallbacks);
        // Whether most requests fell back depends on when Redis died; the report says the shared limit
        // did not run exactly when they did.
        long asked = NginxLog.entries(matrix.run.resolve("cells/fleet-shared/nginx/edges-access.log")).stream()
                .filter(e -> List.of("PASSED", "DELAYED", "REJECTED", "FALLBACK").contains(e.path("fleet").asText()))
                .count();
        String md = Files.readString(matrix.run.resolve("report.md"));
        assertThat(md.contains("- **fleet/shared**: SHARED LIMIT NOT RUN: " + fallbacks + " of " + asked + " requests"))
                .as(fallbacks + " of " + asked + " fell back; " + md).isEqualTo(fallbacks * 2 > asked);
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
