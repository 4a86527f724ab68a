package dev.ratecache.jtl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JTL as the suite writes and reads it. */
class JtlTest {
    @TempDir
    Path dir;

    @Test
    void aWrittenJtlReadsBackSampleForSample() throws Exception {
        List<Sample> samples = List.of(
                new Sample(1_000, 12, "/hare", "200", "OK", "user-1", true, 5, 2, "http://h:1/hare", "HIT", ""),
                new Sample(1_010, 3, "/hare", "429", "Too Many Requests", "user-2", false, 0, 2, "http://h:1/hare", "", "1"),
                new Sample(1_020, 0, "/hare", "200", JtlSummary.CLIENT_CACHE_HIT, "user-1", true, 0, 1, "http://h:1/hare",
                        "", ""));
        Path jtl = dir.resolve("results.jtl");

        Jtl.write(jtl, samples);

        assertThat(Jtl.read(jtl)).containsExactlyElementsOf(samples);
        assertThat(Files.readAllLines(jtl).get(0)).isEqualTo(Jtl.HEADER)
                .isEqualTo("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
                        + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,"
                        + "\"cacheStatus\",\"retryAfter\"");
    }

    @Test
    void valuesWithCommasAndQuotesSurviveTheRoundTrip() throws Exception {
        Sample odd = new Sample(1, 2, "a,b \"c\"", "Non HTTP response code: java.net.SocketException",
                "Connection reset, by peer", "user 1", false, 0, 1, "http://h:1/x?a=1,2", "", "");
        Path jtl = dir.resolve("odd.jtl");

        Jtl.write(jtl, List.of(odd));

        assertThat(Jtl.read(jtl)).containsExactly(odd);
    }

    @Test
    void rejectionsAreCountedApartFromOtherErrors() {
        JtlSummary s = JtlSummary.of(List.of(Sample.of(0, 10, "200", true), Sample.of(0, 10, "429", false),
                Sample.of(0, 10, "503", false), Sample.of(0, 10, "500", false)));

        assertThat(s.rejected()).isEqualTo(2);
        assertThat(s.otherErrors()).isEqualTo(1);
        assertThat(s.rejectedPct()).isEqualTo(50.0);
    }

    @Test
    void percentilesAreNearestRankSoEachIsALatencyThatWasMeasured() {
        long[] sorted = new long[100];
        for (int i = 0; i < 100; i++) {
            sorted[i] = i + 1;
        }
        assertThat(JtlSummary.percentile(sorted, 50)).isEqualTo(50);
        assertThat(JtlSummary.percentile(sorted, 95)).isEqualTo(95);
        assertThat(JtlSummary.percentile(new long[] {7, 9}, 99)).isEqualTo(9);
        assertThat(JtlSummary.percentile(new long[] {7}, 1)).isEqualTo(7);
    }

    @Test
    void throughputRunsFromTheFirstStartToTheLastEnd() {
        // 3 samples between t=1000 ms and t=2500 ms: 2 per second.
        JtlSummary s = JtlSummary.of(List.of(Sample.of(1_000, 100, "200", true), Sample.of(1_500, 100, "200", true),
                Sample.of(2_000, 500, "200", true)));

        assertThat(s.wallMs()).isEqualTo(1_500);
        assertThat(s.throughput()).isEqualTo(2.0);
        assertThat(s.minMs()).isEqualTo(100);
        assertThat(s.maxMs()).isEqualTo(500);
    }
}
