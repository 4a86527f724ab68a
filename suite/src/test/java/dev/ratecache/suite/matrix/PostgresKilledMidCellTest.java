package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Sample;
import dev.ratecache.proc.PostgresServer;
import dev.ratecache.suite.origin.OriginDatabase;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.Descendants;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL killed while a cell runs, on real processes: nginx's tiers with the edge cache, the
 * origin on the suite's PostgreSQL, JMeter's hotset plan. The cell completes, the origin's 502s
 * are counted, the edge keeps answering the reads it holds (stale, as the items' stale-if-error
 * allows), and the database's CPU until its end is in the cell.
 */
@StackTest
@LongTest
class PostgresKilledMidCellTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    static void postgresIsInstalled() {
        Required.that(PostgresServer.notInstalled().isEmpty(), PostgresServer.notInstalled().orElse(""));
    }


    @Test
    void theCellCompletesCountsTheOriginsErrorsAndTheEdgeServesWhatItHolds() throws Exception {
        StackPorts ports = StackPorts.free();
        StringWriter out = new StringWriter();
        // 10 users x 80 reads (90 % of them of 20 hot items) and writes (2 %), 10 ms apart: long enough
        // to kill PostgreSQL early, and to see the hot items expire (max-age 1 s) after it. Once it is
        // dead, an expired item is served stale only after the origin failed, a 250 ms wait each.
        MatrixRunner runner = new MatrixRunner(new MatrixRunner.Options(
                Matrix.select(Matrix.caches(), List.of("hotset/edge")), Profile.QUICK, 1, new StackSwitches(), ports,
                10, Map.of("loops", "80", "hot_share", "90", "write_share", "2", "think_time", "10"),
                TestDirs.fresh(getClass(), "killed"), List.of("--origin.items.max-age=1s"), null, 0, false,
                // A dead database holds each request for the acquire timeout: the shortest Hikari takes.
                new OriginDatabase(OriginDatabase.Kind.POSTGRES, 10, Duration.ofMillis(250), true)),
                new PrintWriter(out, true));
        CompletableFuture<MatrixRunner.Outcome> running = InBackground.run(runner);

        // Traffic flows through the edge to the database: the origin has answered some of this cell's requests.
        PostgresServer postgres = await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
                .until(runner::postgres, pg -> pg != null && pg.isRunning() && originRequests(ports) >= 100);
        long killedAt = System.currentTimeMillis();
        postgres.kill();

        MatrixRunner.Outcome outcome = running.get(180, TimeUnit.SECONDS);
        CellResult cell = outcome.cells().get(0);
        assertThat(cell.failed()).as(out.toString()).isFalse();
        assertThat(cell.median(Metric.SAMPLES)).isEqualTo(800.0);
        assertThat(cell.median(Metric.DB_502S)).as("the origin counted the reads and writes it could not serve")
                .isPositive();
        assertThat(cell.median(Metric.OTHER_ERRORS_PCT)).as("and the client saw them as errors, not rejections")
                .isPositive();
        assertThat(cell.median(Metric.REJECTED_PCT)).isZero();
        // Its CPU until its last reading before the kill: a component of the cell though it is gone (how
        // much is the readings' luck this early in the cell; PostgresOriginTest sees it grow with queries).
        assertThat(cell.median(Metric.CPU_POSTGRES_S)).as("PostgreSQL's CPU, a component of its own").isNotNull();
        assertThat(cell.median(Metric.POOL_ACTIVE_PEAK)).isNotNull();
        assertThat(out.toString()).contains("database 504s ", "502s ");

        // Once the requests in flight at the kill are over, every read answered came from the edge's cache.
        List<Sample> after = Jtl.read(cell.firstRunDir().resolve("jmeter/results.jtl")).stream()
                .filter(s -> s.timeStamp() > killedAt + 1500 && s.url().contains("/items/") && s.success())
                .toList();
        assertThat(after).as("reads the edge answered with the database dead").isNotEmpty();
        assertThat(after).extracting(Sample::cacheStatus).as("none of them reached the origin")
                .doesNotContain("MISS", "EXPIRED", "REVALIDATED", "BYPASS");
        assertThat(after).extracting(Sample::cacheStatus).as("expired, and served stale all the same")
                .contains("STALE");

        assertThat(Descendants.running("postgres")).as("PostgreSQL stopped with the matrix").isEmpty();
    }

    private static long originRequests(StackPorts ports) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + ports.management() + "/actuator/origin")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(response.body()).at("/total/requests").asLong();
        } catch (Exception notYet) {
            return 0;
        }
    }
}
