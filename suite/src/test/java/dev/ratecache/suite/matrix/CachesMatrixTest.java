package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.proc.Ports;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The caches matrix on real processes: nginx tiers, the origin on H2, the suite's redis-server and
 * JMeter's hotset plan. What a reader of the report relies on: Redis takes reads off the database,
 * nothing is stale without caches, and a Redis that dies mid-cell costs speed, not answers.
 */
@StackTest
@LongTest
class CachesMatrixTest {

    private static List<ProcessHandle> liveRedisChildren() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("redis-server")).orElse(false)).toList();
    }

    private static MatrixRunner.Options options(List<String> cells, Map<String, String> properties, Path dir,
            StackPorts ports) {
        return new MatrixRunner.Options(Matrix.select(Matrix.caches(), cells), Profile.QUICK, 1, new StackSwitches(),
                ports, 10, properties, dir, List.of(), null, 0, false);
    }

    @Test
    void theAppCacheAnswersReadsFromRedisAndNoCacheMeansNoStaleRead() throws Exception {
        StackPorts ports = StackPorts.free();
        StringWriter out = new StringWriter();
        MatrixRunner.Outcome outcome = new MatrixRunner(options(List.of("hotset/no-cache", "hotset/app-cache"),
                Map.of(), TestDirs.fresh(getClass(), "quick"), ports), new PrintWriter(out, true)).run();

        assertThat(outcome.anyFailed()).as(out.toString()).isFalse();
        CellResult none = outcome.cells().get(0);
        CellResult app = outcome.cells().get(1);

        // Without caches every request is one statement, and a read can't be older than a write.
        assertThat(none.median(Metric.DATABASE_QUERIES)).isEqualTo(none.median(Metric.SAMPLES));
        assertThat(none.median(Metric.STALE_READS)).isZero();
        assertThat(none.median(Metric.REDIS_HITS)).as("no Redis with the app cache off").isNull();
        assertThat(none.median(Metric.CACHE_ERRORS)).isNull();

        assertThat(app.median(Metric.REDIS_HITS)).isPositive();
        assertThat(app.median(Metric.REDIS_MISSES)).isPositive();
        assertThat(app.median(Metric.DATABASE_QUERIES)).isLessThan(app.median(Metric.SAMPLES));
        // The origin gives Redis 200 ms (application.yml) and then answers from the database: on a
        // machine busy with two other test JVMs, 4 of 200 lookups once waited longer. Such fallbacks
        // are the app cache working, and the answers stay whole (no other errors, below); a broken
        // cache fails every lookup.
        assertThat(app.median(Metric.CACHE_ERRORS)).isLessThanOrEqualTo(0.05 * app.median(Metric.SAMPLES));
        assertThat(app.median(Metric.CPU_REDIS_S)).isNotNull();
        assertThat(app.median(Metric.OTHER_ERRORS_PCT)).isZero();
        assertThat(out.toString()).contains("restarting the origin with its app cache on").contains("Redis hits ");

        assertThat(liveRedisChildren()).as("Redis stopped with the matrix").isEmpty();
        assertThat(Ports.accepting(ports.origin())).isFalse();
    }

    @Test
    void redisKilledMidCellTheOriginKeepsAnsweringAndTheCellSaysSo() throws Exception {
        StringWriter out = new StringWriter();
        // Long enough (10 users x 300 reads and writes, 10 ms apart) to kill Redis while JMeter runs.
        MatrixRunner runner = new MatrixRunner(options(List.of("hotset/app-cache"),
                Map.of("loops", "300", "think_time", "10"), TestDirs.fresh(getClass(), "killed"), StackPorts.free()),
                new PrintWriter(out, true));
        CompletableFuture<MatrixRunner.Outcome> running = InBackground.run(runner);

        // Traffic is flowing through the cache: Redis has answered lookups of this cell.
        RedisServer redis = await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
                .until(runner::redis, r -> r != null && r.isRunning() && hits(r) > 20);
        ProcessHandle.of(redis.pid()).orElseThrow().destroyForcibly();

        MatrixRunner.Outcome outcome = running.get(180, java.util.concurrent.TimeUnit.SECONDS);
        CellResult cell = outcome.cells().get(0);
        assertThat(cell.failed()).as(out.toString()).isFalse();
        assertThat(cell.median(Metric.SAMPLES)).isEqualTo(3000.0);
        assertThat(cell.median(Metric.OTHER_ERRORS_PCT)).as("every request answered").isZero();
        assertThat(cell.median(Metric.CACHE_ERRORS)).isPositive();
        assertThat(cell.median(Metric.REDIS_HITS)).as("Redis's counters went with it").isNull();
        assertThat(out.toString()).contains("APP CACHE FAILED: the app cache failed")
                .contains("the origin answered those reads from the database");
        assertThat(liveRedisChildren()).isEmpty();
    }

    private static long hits(RedisServer redis) {
        try {
            return redis.stats().keyspaceHits();
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
