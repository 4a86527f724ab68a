package dev.ratecache.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.TestDirs;
import dev.ratecache.suite.cli.RunTestsAccess;
import dev.ratecache.suite.stack.StackPorts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** ./run-tests.sh --profile quick, end to end: the default matrix scaled down, and the report it leaves. */
class QuickMatrixEndToEndTest {
    private static final StringWriter OUT = new StringWriter();
    private static Path results;
    private static Path run;
    private static int exitCode;
    private static final Map<String, JsonNode> CELLS = new HashMap<>();

    @BeforeAll
    static void runQuickProfile() throws Exception {
        results = TestDirs.fresh(QuickMatrixEndToEndTest.class, "results");
        StackPorts p = StackPorts.free();
        exitCode = RunTestsAccess.execute(new PrintWriter(OUT, true),
                "--profile", "quick", "--results", results.toString(),
                "--front-port", String.valueOf(p.front()), "--back-port", String.valueOf(p.back()),
                "--origin-port", String.valueOf(p.origin()), "--management-port", String.valueOf(p.management()),
                "--front-status-port", String.valueOf(p.frontStatus()), "--back-status-port", String.valueOf(p.backStatus()),
                "--assert", "stress/server-cache.rejected_pct == 0",
                "--assert", "stress/no-caching.rejected_pct > 0");
        run = results.resolve("latest").toRealPath();
        JsonNode summary = new ObjectMapper().readTree(run.resolve("summary.json").toFile());
        summary.get("cells").forEach(c -> CELLS.put(c.get("name").asText(), c));
    }

    private static double metric(String cell, String metric) {
        return CELLS.get(cell).get("metrics").get(metric).get("median").asDouble();
    }

    @Test
    void everyCellOfTheDefaultMatrixCompletesAndTheChecksPass() {
        assertThat(exitCode).as(OUT.toString()).isZero();
        assertThat(CELLS.keySet()).containsExactlyInAnyOrder("stress/no-caching", "stress/server-cache",
                "stress/client-cache", "stress/both", "stress/direct", "stress/library", "load/no-caching",
                "load/server-cache", "load/client-cache", "load/both", "load/library");
        assertThat(CELLS.values()).allSatisfy(c -> assertThat(c.get("status").asText()).isEqualTo("ok"));
    }

    @Test
    void serverCacheSendsFewerRequestsToTheOriginAndRejectsLessThanNoCaching() {
        assertThat(metric("stress/server-cache", "origin_requests")).isLessThan(metric("stress/no-caching", "origin_requests"));
        assertThat(metric("stress/server-cache", "rejected_pct")).isLessThan(metric("stress/no-caching", "rejected_pct"));
        assertThat(metric("load/server-cache", "origin_requests")).isLessThan(metric("load/no-caching", "origin_requests"));
    }

    @Test
    void clientCacheHitsAreCountedOnlyWhereTheClientCaches() {
        assertThat(metric("load/client-cache", "client_cache_hits")).isPositive();
        assertThat(metric("load/no-caching", "client_cache_hits")).isZero();
    }

    @Test
    void libraryRetriesAfterRetryAfterSoFewerRequestsEndRejectedThanWithJMetersClientCache() {
        // The same traffic and stack as stress/client-cache; the library waits out Retry-After and tries again.
        assertThat(metric("stress/library", "rejected_pct")).isLessThan(metric("stress/client-cache", "rejected_pct"));
        assertThat(CELLS.get("stress/library").has("reference")).isFalse();
    }

    @Test
    void libraryCacheAnswersRepeatsSoFewerRequestsReachTheOrigin() {
        assertThat(metric("load/library", "client_cache_hits")).isPositive();
        assertThat(metric("load/library", "origin_requests")).isLessThan(metric("load/no-caching", "origin_requests"));
    }

    @Test
    void directCellNeverPassesNginx() {
        assertThat(CELLS.get("stress/direct").get("metrics").has("cpu_front_s")).isFalse();
        assertThat(metric("stress/direct", "origin_requests")).isEqualTo(metric("stress/direct", "samples"));
    }

    @Test
    void reportHoldsEveryFileItPromises() {
        for (String file : new String[] {"summary.json", "summary.csv", "report.md", "index.html", "checks.xml",
                "charts/throughput.png", "charts/rejected_pct.png", "charts/p95_ms.png", "charts/origin_requests.png",
                "cells/stress-server-cache/jmeter/results.jtl", "cells/stress-server-cache/jmeter/dashboard/index.html",
                "cells/stress-server-cache/jmeter/graphs/ResponseTimesOverTime.png",
                "cells/load-both/jmeter/graphs/TransactionsPerSecond.png",
                "cells/stress-server-cache/nginx/front/conf/front-end.conf",
                "cells/stress-server-cache/nginx/front/logs/access.log"}) {
            assertThat(run.resolve(file)).as(file).isNotEmptyFile();
        }
    }

    @Test
    void reportTablesCarryEveryCellAndSayTheReferenceIsNotComparableAtQuickSizes() throws Exception {
        String md = Files.readString(run.resolve("report.md"));
        assertThat(md).contains("| stress/no-caching |", "| load/both |", "every cell completed",
                "sizes differ from the reference experiment's", "PASS `stress/server-cache.rejected_pct == 0`");
        String csv = Files.readString(run.resolve("summary.csv"));
        assertThat(csv.lines().count()).isEqualTo(12);
        assertThat(csv.lines().findFirst().orElseThrow()).contains("throughput [responses/s]", "rejected_pct [%]");
        assertThat(Files.readString(run.resolve("checks.xml"))).contains("tests=\"2\" failures=\"0\"");
    }
}
