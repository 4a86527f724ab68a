package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The matrix with --tls: JMeter's plans and the client library's driver reach the edge over https
 * (the driver trusting the run's CA), and the cells measure what they measure over cleartext.
 */
@StackTest
@LongTest
class TlsMatrixStackTest {
    private static MatrixRun matrix;

    @BeforeAll
    static void run() throws Exception {
        matrix = MatrixRun.of(TlsMatrixStackTest.class, "default", List.of("stress/server-cache", "load/library"), "--tls");
    }

    private static String firstSample(String cell, String generator) throws Exception {
        Path jtl = matrix.run.resolve("cells").resolve(cell.replace('/', '-')).resolve(generator).resolve("results.jtl");
        return Files.readAllLines(jtl).get(1);
    }

    @Test
    void everyCellCompletesOverHttps() {
        assertThat(matrix.exitCode).as(matrix.output()).isZero();
        assertThat(matrix.cells).containsOnlyKeys("stress/server-cache", "load/library");
        matrix.cells.values().forEach(c -> assertThat(c.get("status").asText()).as(c.toString()).isEqualTo("ok"));
    }

    @Test
    void jmeterSendsItsPlanToTheEdgeOverHttpsAndTheEdgeCacheAnswersIt() throws Exception {
        var metrics = matrix.cells.get("stress/server-cache").get("metrics");

        assertThat(firstSample("stress/server-cache", "jmeter")).contains(",https://127.0.0.1:");
        assertThat(metrics.at("/other_errors_pct/median").asDouble()).isZero();
        assertThat(metrics.at("/edge_hit_pct/median").asDouble()).isGreaterThan(90);
    }

    @Test
    void theLibrarysDriverTrustsTheRunsCaAndGetsEveryAnswer() throws Exception {
        var metrics = matrix.cells.get("load/library").get("metrics");

        assertThat(firstSample("load/library", "library")).contains(",https://127.0.0.1:");
        assertThat(metrics.at("/other_errors_pct/median").asDouble()).isZero();
        assertThat(metrics.at("/samples/median").asDouble()).isPositive();
    }

    @Test
    void theReportSaysTheLoadSpeaksHttp11OverTls() throws Exception {
        assertThat(Files.readString(matrix.run.resolve("report.md")))
                .contains("- **tls**: clients reach the edge over https; JMeter speaks HTTP/1.1");
    }
}
