package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.jtl.JtlSummary;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** wrk's figures read back from its output, as the summary a JTL would have given. */
class WrkGeneratorTest {
    /** wrk 4.1.0's report with --latency, then the line resources/wrk/summary.lua prints. */
    private static final String OUTPUT = """
            Running 10s test @ http://127.0.0.1:8080/fast
              10 threads and 20 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency   354.85us    1.40ms  47.24ms   97.05%
                Req/Sec    12.51k     2.37k   25.01k    73.84%
              Latency Distribution
                 50%  210.00us
                 75%  300.00us
                 90%  500.00us
                 99%    2.40ms
              1256199 requests in 10.10s, 179.70MB read
              Non-2xx or 3xx responses: 3
            Requests/sec: 124366.73
            Transfer/sec:     17.79MB
            wrk-summary: {"requests":1256199,"duration_us":10100700,"bytes":188429850,"connect":0,"read":1,"write":0,\
            "status":3,"timeout":2,"min_us":88,"max_us":47240,"mean_us":354.850,"p50_us":210,"p90_us":500,"p95_us":900,\
            "p99_us":2400}
            """;

    @Test
    void theFiguresAreWrksOwnInMilliseconds() throws IOException {
        JtlSummary s = WrkGenerator.summarized(OUTPUT, 1_000_000).summary();

        assertThat(s.throughput()).isCloseTo(1256199 / 10.1007, within(0.01));
        assertThat(s.meanMs()).isCloseTo(0.35485, within(1e-9));
        assertThat(s.minMs()).isZero();
        assertThat(s.maxMs()).isEqualTo(47);
        assertThat(s.p99Ms()).isEqualTo(2);
        assertThat(s.wallMs()).isEqualTo(10101);
    }

    /** wrk cannot tell a rejection from another error: with the limits off, none of them is one. */
    @Test
    void errorStatusesAndSocketErrorsAreOtherErrorsAndNoneIsARejection() throws IOException {
        JtlSummary s = WrkGenerator.summarized(OUTPUT, 1_000_000).summary();

        assertThat(s.samples()).isEqualTo(1256199 + 3);
        assertThat(s.otherErrors()).isEqualTo(3 + 3);
        assertThat(s.rejected()).isZero();
    }

    @Test
    void theWindowEndsWhenWrkEndedAndLastsItsDuration() throws IOException {
        LoadGenerator.Summarized run = WrkGenerator.summarized(OUTPUT, 1_000_000);

        assertThat(run.lastEndMs()).isEqualTo(1_000_000);
        assertThat(run.firstStartMs()).isEqualTo(1_000_000 - 10101);
    }

    @Test
    void outputWithoutTheSummaryLineIsRefusedSayingSo() {
        assertThatThrownBy(() -> WrkGenerator.summarized("Requests/sec: 12.0\n", 0))
                .hasMessageContaining("wrk printed no summary line");
    }

    /** The answered requests' latency is the whole run's only when every request was answered. */
    @Test
    void withoutSamplesTheAdmittedAreTheWholeRunOnlyWhenNothingFailed() throws IOException {
        assertThat(ClientSamples.of(WrkGenerator.summarized(OUTPUT, 0)).admitted()).isNull();
        String clean = OUTPUT.replace("\"read\":1", "\"read\":0").replace("\"status\":3", "\"status\":0")
                .replace("\"timeout\":2", "\"timeout\":0");
        ClientSamples samples = ClientSamples.of(WrkGenerator.summarized(clean, 0));
        assertThat(samples.admitted()).isEqualTo(samples.summary());
    }

    @Test
    void theCommandLineReadsAsTheWriteUpsPrintIt() {
        assertThat(WrkGenerator.describe(Map.of("threads", "2", "connections", "10", "duration", "10")))
                .isEqualTo("wrk -t2 -c10 -d10s");
    }
}
