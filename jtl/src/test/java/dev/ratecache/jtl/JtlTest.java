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
                        "", ""),
                new Sample(1_030, 4, "/hare", "200", "OK", "Replay 1-7", true, 5, 9, "http://h:1/hare?a=1", "MISS", "",
                        1_025, "203.0.113.9"),
                new Sample(1_040, 2, "GET /items/{id}", "200", "OK", "Users 1-2", true, 80, 2, "http://h:1/items/7",
                        "HIT", "", Sample.UNSCHEDULED, "", 0),
                new Sample(1_050, 2, "GET /items/{id}", "200", "OK", "Users 1-2", true, 80, 2, "http://h:1/items/7",
                        "HIT", "", Sample.UNSCHEDULED, "", 1_234),
                new Sample(1_060, 2, "/a", "429", "Too Many Requests", "Replay 1-1", false, 80, 2, "http://h:1/a",
                        "", "1", 1_055, "203.0.113.9", Sample.NOT_STALE, "k-pro,1"));
        Path jtl = dir.resolve("results.jtl");

        Jtl.write(jtl, samples);

        assertThat(Jtl.read(jtl)).containsExactlyElementsOf(samples);
        assertThat(Files.readAllLines(jtl).get(0)).isEqualTo(Jtl.HEADER)
                .isEqualTo("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
                        + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,"
                        + "\"cacheStatus\",\"retryAfter\",\"scheduledAt\",\"client\",\"staleMs\",\"key\"");
        assertThat(Jtl.read(jtl)).extracting(Sample::staleMs).containsExactly(
                Sample.NOT_STALE, Sample.NOT_STALE, Sample.NOT_STALE, Sample.NOT_STALE, 0L, 1_234L, Sample.NOT_STALE);
        assertThat(Jtl.read(jtl)).extracting(Sample::key).containsExactly("", "", "", "", "", "", "k-pro,1");
    }

    @Test
    void aJtlWithoutTheReplayColumnsReadsAsUnscheduled() throws Exception {
        // As JMeter wrote it before scheduledAt and client were sample variables.
        Path jtl = Files.write(dir.resolve("old.jtl"), List.of(
                "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
                        + "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"cacheStatus\",\"retryAfter\"",
                "1000,12,/hare,200,OK,Users 1-1,text,true,,5,100,1,1,http://h:1/hare,10,0,1,HIT,"));

        Sample s = Jtl.read(jtl).get(0);

        assertThat(s.scheduled()).isFalse();
        assertThat(s.scheduledAt()).isEqualTo(Sample.UNSCHEDULED);
        assertThat(s.client()).isEmpty();
        assertThat(s.cacheStatus()).isEqualTo("HIT");
        assertThat(Lateness.of(List.of(s)).scheduled()).isZero();
        assertThat(s.stale()).isFalse();
    }

    @Test
    void aJtlWithoutTheStaleColumnReadsAsNoStaleRead() throws Exception {
        // As JMeter wrote it before staleMs was a sample variable (the replay's columns present).
        Path jtl = Files.write(dir.resolve("replay.jtl"), List.of(
                "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
                        + "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"cacheStatus\",\"retryAfter\","
                        + "\"scheduledAt\",\"client\"",
                "1000,12,/hare,200,OK,Replay 1-1,text,true,,5,100,1,1,http://h:1/hare,10,0,1,HIT,,990,203.0.113.9"));

        Sample s = Jtl.read(jtl).get(0);

        assertThat(s.stale()).isFalse();
        assertThat(s.staleMs()).isEqualTo(Sample.NOT_STALE);
        assertThat(s.scheduledAt()).isEqualTo(990);
        // Nor a key column: a replay without keys.
        assertThat(s.key()).isEmpty();
        assertThat(StaleReads.of(List.of(s)).stale()).isZero();
    }

    @Test
    void staleReadsCountsTheSamplesWithAnAgeAmongTheAnsweredReads() {
        List<Sample> samples = new java.util.ArrayList<>();
        for (int i = 0; i < 96; i++) {
            samples.add(read(i, "200", true, Sample.NOT_STALE));
        }
        samples.add(read(96, "200", true, 5));
        samples.add(read(97, "200", true, 0)); // same millisecond: still stale
        samples.add(read(98, "200", true, 40));
        samples.add(read(99, "200", true, 700));
        samples.add(read(100, "429", false, Sample.NOT_STALE)); // rejected: no read
        samples.add(new Sample(101, 1, "PUT /items/{id}", "200", "OK", "t", true, 0, 1, "", "", "")); // a write

        StaleReads stale = StaleReads.of(samples);

        assertThat(stale.reads()).isEqualTo(100);
        assertThat(stale.stale()).isEqualTo(4);
        assertThat(stale.stalePct()).isEqualTo(4.0);
        assertThat(stale.p50Ms()).isEqualTo(5);
        assertThat(stale.oldestMs()).isEqualTo(700);
        assertThat(StaleReads.of(List.of()).describe()).isEqualTo(
                "stale reads: 0 of 0 reads (0.00 %), age ms p50 0, p99 0, oldest 0");
    }

    private static Sample read(long timeStamp, String code, boolean success, long staleMs) {
        return new Sample(timeStamp, 1, "GET /items/{id}", code, "", "t", success, 0, 1, "", "", "",
                Sample.UNSCHEDULED, "", staleMs);
    }

    @Test
    void emptyReplayColumnsOfTheOtherPlansReadAsUnscheduled() throws Exception {
        Path jtl = Files.write(dir.resolve("stress.jtl"), List.of(Jtl.HEADER,
                "1000,12,/hare,200,OK,Users 1-1,text,true,,5,100,1,1,http://h:1/hare,10,0,1,HIT,,,,,",
                // a user's own plan that never sets the variables: JMeter writes null
                "1001,12,/hare,200,OK,Users 1-1,text,true,,5,100,1,1,http://h:1/hare,10,0,1,HIT,,null,null,null,null"));

        assertThat(Jtl.read(jtl)).hasSize(2).allSatisfy(s -> assertThat(s.scheduled()).isFalse());
        assertThat(Jtl.read(jtl)).allSatisfy(s -> assertThat(s.key()).isEmpty());
        assertThat(Jtl.read(jtl).get(0).client()).isEmpty();
        assertThat(Jtl.read(jtl)).noneSatisfy(s -> assertThat(s.stale()).isTrue());
    }

    @Test
    void latenessIsTheStartMinusTheDueTimeOverScheduledSamplesOnly() {
        List<Sample> samples = new java.util.ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            // due at 10 000 + i, started i ms late (sample 100 is the latest, 100 ms)
            samples.add(scheduled(10_000 + i + i, 10_000 + i));
        }
        samples.add(scheduled(9_997, 10_000)); // 3 ms early
        samples.add(Sample.of(50_000, 1, "200", true)); // not part of the schedule: ignored

        Lateness late = Lateness.of(samples);

        assertThat(late.scheduled()).isEqualTo(101);
        assertThat(late.p50Ms()).isEqualTo(50);
        assertThat(late.p99Ms()).isEqualTo(99);
        assertThat(late.maxMs()).isEqualTo(100);
        assertThat(late.earliestMs()).isEqualTo(-3);
    }

    private static Sample scheduled(long timeStamp, long scheduledAt) {
        return new Sample(timeStamp, 1, "/", "200", "OK", "t", true, 0, 1, "", "", "", scheduledAt, "c");
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
        // Elapsed 1 to 100 ms in reverse order: each percentile is the sample of its own rank.
        List<Sample> samples = new java.util.ArrayList<>();
        for (int i = 100; i >= 1; i--) {
            samples.add(Sample.of(0, i, "200", true));
        }
        JtlSummary s = JtlSummary.of(samples);
        assertThat(List.of(s.p50Ms(), s.p90Ms(), s.p95Ms(), s.p99Ms())).containsExactly(50L, 90L, 95L, 99L);
        // Two samples: the p50 is the faster one, not their mean.
        JtlSummary two = JtlSummary.of(List.of(Sample.of(0, 7, "200", true), Sample.of(0, 9, "200", true)));
        assertThat(List.of(two.p50Ms(), two.p99Ms())).containsExactly(7L, 9L);
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
