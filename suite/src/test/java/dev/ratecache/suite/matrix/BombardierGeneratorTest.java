package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.jtl.JtlSummary;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bombardier's figures read back from its JSON result, as the summary a JTL would have given. */
class BombardierGeneratorTest {
    /** bombardier 1.2.6's result with -l -p r -o j: latencies in microseconds. */
    private static final String RESULT = """
            {"spec":{"numberOfConnections":125,"testType":"number-of-requests","numberOfRequests":100000,\
            "method":"GET","url":"http://127.0.0.1:8080/places?code=1227","body":"","stream":false,\
            "timeoutSeconds":2,"client":"fasthttp"},"result":{"bytesRead":128000000,"bytesWritten":9000000,\
            "timeTakenSeconds":3.2,"req1xx":0,"req2xx":99990,"req3xx":0,"req4xx":2,"req5xx":3,"others":5,\
            "errors":[{"description":"timeout","count":5}],"latency":{"mean":3876.5,"stddev":900.1,"max":48210,\
            "percentiles":{"50":3400,"75":4100,"90":5600,"95":6900,"99":12400}},\
            "rps":{"mean":32179.23,"stddev":2000,"max":36000,"percentiles":{"50":32000,"75":33000,"90":34000,\
            "95":35000,"99":36000}}}}
            """;

    @Test
    void theFiguresAreBombardiersOwnInMilliseconds() throws IOException {
        JtlSummary s = BombardierGenerator.summarized(RESULT, 1_000_000).summary();

        assertThat(s.throughput()).isCloseTo(99995 / 3.2, within(0.01));
        assertThat(s.meanMs()).isCloseTo(3.8765, within(1e-9));
        assertThat(s.maxMs()).isEqualTo(48);
        assertThat(s.p50Ms()).isEqualTo(3);
        assertThat(s.p90Ms()).isEqualTo(6);
        assertThat(s.p99Ms()).isEqualTo(12);
        assertThat(s.wallMs()).isEqualTo(3200);
    }

    /** With the limits off, an error status is no rejection; a socket error is a request with no answer. */
    @Test
    void errorStatusesAndSocketErrorsAreOtherErrorsAndNoneIsARejection() throws IOException {
        JtlSummary s = BombardierGenerator.summarized(RESULT, 1_000_000).summary();

        assertThat(s.samples()).isEqualTo(100_000);
        assertThat(s.otherErrors()).isEqualTo(2 + 3 + 5);
        assertThat(s.rejected()).isZero();
    }

    @Test
    void theWindowEndsWhenBombardierEndedAndLastsItsTimeTaken() throws IOException {
        LoadGenerator.Summarized run = BombardierGenerator.summarized(RESULT, 1_000_000);

        assertThat(run.lastEndMs()).isEqualTo(1_000_000);
        assertThat(run.firstStartMs()).isEqualTo(1_000_000 - 3200);
    }

    @Test
    void outputWithoutAResultIsRefusedSayingSo() {
        assertThatThrownBy(() -> BombardierGenerator.summarized("{\"spec\":{}}", 0))
                .hasMessageContaining("bombardier printed no result");
    }

    @Test
    void theCommandLineReadsAsTheWriteUpPrintsIt() {
        assertThat(BombardierGenerator.describe(Map.of("connections", "125", "requests", "100000")))
                .isEqualTo("bombardier -c 125 -n 100000");
        assertThat(BombardierGenerator.describe(Map.of("connections", "250", "rate", "2500", "duration", "10")))
                .isEqualTo("bombardier -c 250 -r 2500 -d 10s");
    }
}
