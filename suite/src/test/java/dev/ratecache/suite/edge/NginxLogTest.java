package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NginxLogTest {
    @TempDir
    Path dir;

    private static final String MISS = "{\"time\":\"2026-11-27T04:00:10+00:00\",\"msec\":1795752010.250,"
            + "\"client\":\"127.16.0.7\",\"method\":\"GET\",\"uri\":\"/hare?x=1\",\"status\":200,\"bytes\":89,"
            + "\"request_time\":0.150,\"upstream\":\"127.0.0.1:9080\",\"upstream_status\":\"502, 200\","
            + "\"upstream_time\":\"0.020, 0.100\",\"cache\":\"MISS\",\"limit_req\":\"PASSED\",\"limit_conn\":\"\"}";
    private static final String REJECTED = "{\"time\":\"2026-11-27T04:00:11+00:00\",\"msec\":1795752011.000,"
            + "\"client\":\"127.16.0.8\",\"method\":\"POST\",\"uri\":\"/items\",\"status\":429,\"bytes\":0,"
            + "\"request_time\":0.000,\"upstream\":\"\",\"upstream_status\":\"\",\"upstream_time\":\"\",\"cache\":\"\","
            + "\"limit_req\":\"REJECTED\",\"limit_conn\":\"\",\"fleet\":\"FALLBACK\"}";

    @Test
    void aLineIsAnEventThatArrivedItsRequestTimeBeforeItWasLogged() throws Exception {
        EdgeEvent e = NginxLog.events(Files.write(dir.resolve("access.log"), List.of(MISS))).get(0);

        assertThat(e).isEqualTo(new EdgeEvent(1_795_752_010_100L, 1_795_752_010_250L, "127.16.0.7", "GET", "/hare?x=1",
                200, 89, EdgeEvent.Limit.PASSED, EdgeEvent.Cache.MISS, "502, 200", 120, ""));
        assertThat(e.wentUpstream()).isTrue();
        assertThat(e.upstreamArrivalMs()).isEqualTo(1_795_752_010_130L);
    }

    @Test
    void aRejectionNeverWentUpstreamAndCarriesTheFleetsWord() throws Exception {
        EdgeEvent e = NginxLog.events(Files.write(dir.resolve("access.log"), List.of(REJECTED, ""))).get(0);

        assertThat(e.limit()).isEqualTo(EdgeEvent.Limit.REJECTED);
        assertThat(e.cache()).isEqualTo(EdgeEvent.Cache.NONE);
        assertThat(e.wentUpstream()).isFalse();
        assertThat(e.fleet()).isEqualTo("FALLBACK");
    }

    private static final String QUOTA_REJECTED = "{\"time\":\"2026-11-27T04:00:12+00:00\",\"msec\":1795752012.003,"
            + "\"client\":\"127.0.0.1\",\"method\":\"GET\",\"uri\":\"/hare\",\"status\":429,\"bytes\":120,"
            + "\"request_time\":0.002,\"upstream\":\"\",\"upstream_status\":\"\",\"upstream_time\":\"\",\"cache\":\"\","
            + "\"limit_req\":\"PASSED\",\"limit_conn\":\"\",\"quota\":\"REJECTED\",\"quota_at\":\"1795752012002\","
            + "\"quota_r\":\"0\",\"quota_of\":\"18f0dab32511\"}";

    @Test
    void aQuotasWordIsItsDecisionOnRedissClockWhatTheClientWasToldAndWhoseItWas() throws Exception {
        EdgeEvent e = NginxLog.events(Files.write(dir.resolve("access.log"), List.of(QUOTA_REJECTED))).get(0);

        assertThat(e.quota()).isEqualTo(new EdgeEvent.QuotaMark("REJECTED", 1_795_752_012_002L, 0, "18f0dab32511"));
        assertThat(e.quota().decided()).isTrue();
        assertThat(e.quota().admitted()).isFalse();
        assertThat(EdgeEvent.QuotaMark.ofKey("early-1")).isEqualTo(EdgeEvent.QuotaMark.fingerprint("kearly-1"))
                .hasSize(12);
    }

    @Test
    void aLineWithoutAQuotaHasNone() throws Exception {
        EdgeEvent e = NginxLog.events(Files.write(dir.resolve("access.log"), List.of(MISS))).get(0);

        assertThat(e.quota()).isEqualTo(EdgeEvent.QuotaMark.NONE);
        assertThat(e.quota().decided()).isFalse();
    }

    @Test
    void severalEdgesLogsAreOneListInTheOrderTheRequestsEnded() throws Exception {
        Path a = Files.write(dir.resolve("a.log"), List.of(REJECTED));
        Path b = Files.write(dir.resolve("b.log"), List.of(MISS));

        assertThat(NginxLog.events(List.of(a, b, dir.resolve("never-started.log"))))
                .extracting(EdgeEvent::status).containsExactly(200, 429);
    }

    @Test
    void aCellsEventFileReadsBackAsWritten() throws Exception {
        List<EdgeEvent> events = NginxLog.events(Files.write(dir.resolve("access.log"),
                List.of(MISS, REJECTED, QUOTA_REJECTED)));

        assertThat(EventFile.read(EventFile.write(events, dir.resolve("events/front.jsonl")))).isEqualTo(events);
        assertThat(EventFile.read(dir.resolve("events/none.jsonl"))).isEmpty();
    }
}
