package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.NginxLog;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A cell's run second by second, from a JTL and access logs made up for the purpose. */
class TimelineTest {
    /** Second 0 of every timeline below: 2026-01-01T00:00:00Z. */
    private static final long T0 = 1_767_225_600L;
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"cacheStatus\",\"retryAfter\"";

    /** $time_iso8601, e.g. 2026-01-01T01:00:00+01:00. */
    private static final DateTimeFormatter NGINX_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx");

    private final Path dir = TestDirs.fresh(getClass(), "timeline");

    /** A JTL row: started {@code startMs} after second 0, took {@code elapsedMs}. */
    private static String sample(long startMs, long elapsedMs, String code, boolean success, String message) {
        return (T0 * 1000 + startMs) + "," + elapsedMs + ",/hare," + code + "," + message + ",Users 1-1,text," + success
                + ",,100,100,1,1,http://127.0.0.1/hare,10,0,1,,";
    }

    /** An access-log line as nginx/snippets/shared/logging.conf writes it, at {@code second} after second 0 (in UTC+01:00). */
    private static String logLine(long second, int status, String upstreamStatus, String cache) {
        String time = Instant.ofEpochSecond(T0 + second).atOffset(ZoneOffset.ofHours(1)).format(NGINX_TIME);
        return "{\"time\":\"" + time + "\",\"client\":\"127.0.0.1\",\"method\":\"GET\",\"uri\":\"/hare\",\"status\":" + status
                + ",\"bytes\":89,\"request_time\":0.020,\"upstream\":\"" + (upstreamStatus.isEmpty() ? "" : "127.0.0.1:9080")
                + "\",\"upstream_status\":\"" + upstreamStatus + "\",\"upstream_time\":\"\",\"cache\":\"" + cache
                + "\",\"limit_req\":\"PASSED\",\"limit_conn\":\"\"}";
    }

    private Path jtl(String... rows) throws Exception {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        lines.addAll(Arrays.asList(rows));
        return Files.write(dir.resolve("results.jtl"), lines);
    }

    private Path log(String name, String... lines) throws Exception {
        return Files.write(dir.resolve(name), Arrays.asList(lines));
    }

    @Test
    void requestsAreOfferedWhenTheyStartAndAnsweredWhenTheyEnd() throws Exception {
        Path jtl = jtl(
                sample(100, 200, "200", true, "OK"),              // second 0 -> 0
                sample(900, 1_300, "200", true, "OK"),            // second 0 -> 2
                sample(1_000, 50, "429", false, "Too Many Requests"),
                sample(1_500, 10, "503", false, "Service Unavailable"),
                sample(1_600, 3_000, "Non HTTP response code: java.net.SocketTimeoutException", false, "timeout"),
                sample(2_100, 0, "200", true, "(ex cache)"));

        Timeline t = Timeline.of(jtl, null, null);

        assertThat(t.startEpochSecond()).isEqualTo(T0);
        assertThat(t.seconds()).isEqualTo(5);
        assertThat(t.series(Timeline.OFFERED)).containsExactly(2L, 3L, 1L, 0L, 0L);
        assertThat(t.series(Timeline.ANSWERED_2XX)).containsExactly(1L, 0L, 2L, 0L, 0L);
        assertThat(t.series(Timeline.REJECTED)).containsExactly(0L, 2L, 0L, 0L, 0L);
        assertThat(t.series(Timeline.OTHER_ERRORS)).containsExactly(0L, 0L, 0L, 0L, 1L);
        assertThat(t.series(Timeline.CLIENT_CACHE_HITS)).containsExactly(0L, 0L, 1L, 0L, 0L);
    }

    @Test
    void withoutNginxEveryRequestButAClientCacheHitReachesTheOriginAndThereIsNoEdge() throws Exception {
        Path jtl = jtl(sample(0, 100, "200", true, "OK"), sample(10, 100, "200", true, "OK"),
                sample(1_200, 0, "200", true, "(ex cache)"), sample(1_300, 100, "200", true, "OK"));

        Timeline t = Timeline.of(jtl, null, null);

        assertThat(t.series(Timeline.ORIGIN)).containsExactly(2L, 1L);
        assertThat(t.series(Timeline.EDGE_HIT)).isNull();
        assertThat(t.series(Timeline.EDGE_MISS)).isNull();
    }

    @Test
    void originIsWhatTheBackEndPassedUpstreamAndTheEdgeIsTheFrontEndsCacheStatus() throws Exception {
        Path jtl = jtl(sample(0, 100, "200", true, "OK"), sample(2_000, 100, "200", true, "OK"));
        Path front = log("front.log",
                logLine(0, 200, "200", "MISS"),
                logLine(0, 200, "", "HIT"),
                logLine(1, 200, "", "HIT"),
                logLine(1, 429, "", ""),
                logLine(2, 200, "200", "EXPIRED"),
                logLine(2, 200, "", "UPDATING"));
        Path back = log("back.log",
                logLine(-5, 200, "200", ""),                 // a probe before the run: not the run's
                logLine(0, 200, "200", ""),
                logLine(1, 503, "", ""),                      // rejected by the back end's limit
                logLine(2, 304, "304", ""),
                "");

        Timeline t = Timeline.of(jtl, NginxLog.events(front), NginxLog.events(back));

        assertThat(t.series(Timeline.ORIGIN)).containsExactly(1L, 0L, 1L);
        assertThat(t.series(Timeline.EDGE_HIT)).containsExactly(1L, 1L, 0L);
        assertThat(t.series(Timeline.EDGE_MISS)).containsExactly(1L, 0L, 0L);
        assertThat(t.series(Timeline.EDGE_OTHER)).containsExactly(0L, 0L, 2L);
    }

    @Test
    void latencyPercentilesAreOfTheRequestsEndingInEachSecondAndAbsentWhereNoneEnded() throws Exception {
        List<String> rows = new ArrayList<>();
        for (int ms = 1; ms <= 20; ms++) {
            rows.add(sample(0, ms * 10L, "200", true, "OK"));  // all end in second 0: 10 .. 200 ms
        }
        rows.add(sample(0, 2_500, "200", true, "OK"));       // ends in second 2
        Timeline t = Timeline.of(jtl(rows.toArray(String[]::new)), null, null);

        assertThat(t.series(Timeline.P50_MS)).containsExactly(100L, null, 2_500L);
        assertThat(t.series(Timeline.P95_MS)).containsExactly(190L, null, 2_500L);
    }

    @Test
    void writesOneSeriesPerQuantityOnACommonAxis() throws Exception {
        Path jtl = jtl(sample(0, 100, "200", true, "OK"), sample(3_000, 100, "429", false, "Too Many Requests"));
        Path front = log("front.log", logLine(0, 200, "200", "MISS"), logLine(3, 429, "", ""));
        Path back = log("back.log", logLine(0, 200, "200", ""));
        Path json = dir.resolve("timeline.json");

        Timeline.of(jtl, NginxLog.events(front), NginxLog.events(back)).write(json);

        JsonNode read = new ObjectMapper().readTree(json.toFile());
        assertThat(read.get("start_epoch_s").asLong()).isEqualTo(T0);
        assertThat(read.get("seconds").asInt()).isEqualTo(4);
        List<String> keys = new ArrayList<>();
        read.get("series").fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly(Timeline.OFFERED, Timeline.ANSWERED_2XX, Timeline.REJECTED, Timeline.OTHER_ERRORS,
                Timeline.CLIENT_CACHE_HITS, Timeline.ORIGIN, Timeline.EDGE_HIT, Timeline.EDGE_MISS, Timeline.EDGE_OTHER,
                Timeline.P50_MS, Timeline.P95_MS);
        read.get("series").forEach(series -> assertThat(series.size()).isEqualTo(4));
        assertThat(read.get("series").get(Timeline.REJECTED).toString()).isEqualTo("[0,0,0,1]");
        assertThat(read.get("series").get(Timeline.P50_MS).toString()).isEqualTo("[100,null,null,100]");
    }
}
