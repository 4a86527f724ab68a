package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ./run-tests.sh --nginx-conf FILE: the user's config as the front tier of the matrix's cells, its
 * own paths sent by the plans and answered by the origin as /hare, every figure predicted from the
 * limit and cache the config applies there, and the report listing each line the copy changed.
 */
@StackTest
class OwnConfigMatrixStackTest {
    private static MatrixRun matrix;
    private static Path config;
    private static Path configs;

    static Path config(String name) throws IOException {
        Path target = configs.resolve(name);
        try (InputStream in = OwnConfigMatrixStackTest.class.getResourceAsStream("/dev/ratecache/suite/ownconfig/" + name)) {
            Files.write(target, in.readAllBytes());
        }
        return target;
    }

    @BeforeAll
    static void run() throws Exception {
        configs = TestDirs.fresh(OwnConfigMatrixStackTest.class, "configs");
        config = config("api.conf");
        matrix = MatrixRun.of(OwnConfigMatrixStackTest.class, "default", List.of("stress/no-caching", "stress/server-cache"),
                "--nginx-conf", config.toString());
    }

    @Test
    void everyCellRunsTheUsersConfigOnItsOwnPath() throws Exception {
        assertThat(matrix.exitCode).as(matrix.output()).isZero();
        assertThat(matrix.output()).contains("front tier: your config (api.conf, server api.example.com");
        assertThat(Files.readAllLines(matrix.run.resolve("cells/stress-server-cache/jmeter/results.jtl")).get(1))
                .contains("/api/");
        assertThat(Files.readString(matrix.run.resolve("cells/stress-server-cache/nginx/front/conf/nginx.conf")))
                .contains("limit_req zone=api burst=20 nodelay;").contains("proxy_cache apicache;");
    }

    @Test
    void theUsersLimitAndCacheShowInTheFiguresAndArePredicted() {
        var limited = matrix.cells.get("stress/no-caching");
        var cached = matrix.cells.get("stress/server-cache");
        // 100 users at once against 10 r/s with a burst of 20: most are refused with the config's 429.
        assertThat(limited.at("/metrics/rejected_pct/median").asDouble()).isGreaterThan(50);
        assertThat(cached.at("/metrics/origin_requests/median").asDouble()).isLessThan(
                limited.at("/metrics/origin_requests/median").asDouble());
        for (var cell : List.of(limited, cached)) {
            assertThat(cell.at("/prediction/predicted").asBoolean()).as(cell.toString()).isTrue();
            assertThat(cell.at("/prediction/metrics/rejected_pct/predicted").asDouble()).isGreaterThan(50);
        }
    }

    @Test
    void theReportListsEveryLineTheCopyChanged() throws Exception {
        String report = Files.readString(matrix.run.resolve("report.md"));
        assertThat(report).contains(OwnConfigReport.TITLE)
                .contains("api.conf:17: proxy_pass http://backend.internal:9000 -> proxy_pass http://127.0.0.1:");
        assertThat(matrix.run.resolve("rewired.txt")).exists();
    }

    @Test
    void aConfigThatNeitherLimitsNorCachesRunsTheDirectCellsOnly() throws Exception {
        CommandRun cli = new CommandRun();
        int exit = cli.run("--profile", "quick", "--dry-run", "--nginx-conf", config("plain.conf").toString());
        assertThat(exit).as(cli.out() + cli.err()).isZero();
        assertThat(cli.out()).contains("stress/direct").doesNotContain("stress/server-cache")
                .doesNotContain("load/no-caching");
    }

    @Test
    void upTakesTheConfigAsItsFrontToo() throws Exception {
        CommandRun cli = new CommandRun();
        int exit = cli.run("up", "--dry-run", "--nginx-conf", config.toString(), "--results",
                TestDirs.fresh(getClass(), "up").toString());
        assertThat(exit).as(cli.out() + cli.err()).isZero();
        assertThat(cli.out()).contains("front tier: your config (api.conf");
    }

    @Test
    void peakMeasuresTheConfigsOwnPathsAndRefusesTheRenderedFrontsBreakdown() throws Exception {
        CommandRun dry = new CommandRun();
        assertThat(dry.run("peak", "--dry-run", "--nginx-conf", config.toString())).as(dry.out() + dry.err()).isZero();
        CommandRun breakdown = new CommandRun();
        assertThat(breakdown.run("peak", "--breakdown", "--dry-run", "--nginx-conf", config.toString())).isEqualTo(2);
        assertThat(breakdown.err()).contains("--nginx-conf measures your config's HIT, MISS and rejection paths: drop"
                + " --breakdown");
    }

    @Test
    @LongTest
    void aReplayedLogGoesThroughTheConfigEachClientFromItsOwnAddressAndIsPredicted() throws Exception {
        Path log = TestDirs.fresh(getClass(), "replay").resolve("access.log");
        Files.writeString(log, String.join("\n",
                "192.0.2.10 - - [20/Nov/2026:10:00:00 +0100] \"GET /api/items?page=1 HTTP/1.1\" 200 512 \"-\" \"curl/8.0\"",
                "192.0.2.11 - - [20/Nov/2026:10:00:01 +0100] \"GET /api/items/1 HTTP/1.1\" 200 300 \"-\" \"curl/8.0\"",
                "192.0.2.10 - - [20/Nov/2026:10:00:02 +0100] \"GET /search?q=x HTTP/1.1\" 200 300 \"-\" \"curl/8.0\"") + "\n");
        Path results = TestDirs.fresh(getClass(), "replay-results");
        CommandRun cli = new CommandRun();
        int exit = cli.run("replay", log.toString(), "--nginx-conf", config("catch-all.conf").toString(), "--only",
                "replay/no-caching", "--no-dashboards", "--results", results.toString());
        assertThat(exit).as(cli.out() + cli.err()).isZero();
        Path run = results.resolve("latest").toRealPath();
        assertThat(Files.readString(run.resolve("cells/replay-no-caching/nginx/front/conf/nginx.conf")))
                .contains("limit_req zone=perip burst=10 nodelay;");
        var summary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.resolve("summary.json").toFile());
        assertThat(summary.at("/cells/0/prediction/predicted").asBoolean()).as(summary.toString()).isTrue();
        assertThat(summary.at("/cells/0/metrics/origin_requests/median").asDouble()).isEqualTo(3);
    }

    @Test
    void anotherEdgeProductIsRefusedInOneLine() throws Exception {
        CommandRun cli = new CommandRun();
        assertThat(cli.run("--edge", "haproxy", "--dry-run", "--nginx-conf", config.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("--nginx-conf is an nginx config, which only nginx's front runs: drop --edge haproxy");
    }

    @Test
    void anIngressRunsAsOneControllerReplicaRendersIt() throws Exception {
        Path manifest = TestDirs.fresh(getClass(), "ingress").resolve("shop.yaml");
        try (InputStream in = getClass().getResourceAsStream("/ingress/shop.yaml")) {
            Files.write(manifest, in.readAllBytes());
        }
        CommandRun cli = new CommandRun();
        int exit = cli.run("--profile", "quick", "--dry-run", "--ingress", manifest.toString());
        assertThat(exit).as(cli.out() + cli.err()).isZero();
        assertThat(cli.out()).contains("front tier: your config (ingress-nginx.conf, server shop.example.com")
                .contains("paths /api/");
    }
}
