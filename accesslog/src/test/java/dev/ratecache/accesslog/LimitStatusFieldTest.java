package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nginx's $limit_req_status read from a JSON log, for advise's shadow mode. */
class LimitStatusFieldTest {
    @TempDir
    Path dir;

    private ParsedLog read(List<String> lines, LogFormat format) throws Exception {
        Path file = Logs.write(Files.createTempFile(dir, "access", ".jsonl"), lines);
        return AccessLog.read(file, format, ReadOptions.defaults());
    }

    private static String suiteLine(double msec, String limitReq) {
        return "{\"time\":" + msec + ",\"request_time\":0.000,\"client\":\"127.0.0.2\",\"method\":\"GET\",\"uri\":\"/a\","
                + "\"status\":200,\"bytes\":3" + (limitReq == null ? "" : ",\"limit_req\":\"" + limitReq + "\"") + "}";
    }

    @Test
    void theSuitesLogReadsLimitReqAsTheStatusAndAnEmptyOrDashOrMissingOneAsNone() throws Exception {
        ParsedLog log = read(List.of(suiteLine(1795165200.001, "REJECTED_DRY_RUN"), suiteLine(1795165200.002, "passed"),
                suiteLine(1795165200.003, ""), suiteLine(1795165200.004, "-"), suiteLine(1795165200.005, null)), LogFormat.AUTO);

        assertThat(log.format()).isEqualTo(LogFormat.SUITE_JSON);
        assertThat(log.resolution()).isEqualTo(TimeResolution.SUB_SECOND);
        assertThat(log.requests()).extracting(LoggedRequest::limitStatus)
                .containsExactly("REJECTED_DRY_RUN", "PASSED", "", "", "");
        assertThat(log.requests()).extracting(LoggedRequest::hasLimitStatus).containsExactly(true, true, false, false, false);
    }

    @Test
    void aJsonMappingReadsTheStatusFromTheFieldNamedByLimitStatus() throws Exception {
        LogFormat format = LogFormat.parse("json:time=ts,client=ip,method=verb,uri=path,limit_status=lrs");
        ParsedLog log = read(List.of("{\"ts\":1795165200.5,\"ip\":\"10.0.0.1\",\"verb\":\"GET\",\"path\":\"/a\",\"lrs\":\"DELAYED\"}"),
                format);

        assertThat(format.hasLimitStatus()).isTrue();
        assertThat(format.spelling()).endsWith(",limit_status=lrs");
        assertThat(log.requests()).extracting(LoggedRequest::limitStatus).containsExactly("DELAYED");
    }

    @Test
    void aLogWithoutTheFieldHasNoStatusAndTheOlderConstructorsStillWork() {
        LoggedRequest r = new LoggedRequest(1, OffsetDateTime.parse("2026-11-20T10:00:00Z"), "10.0.0.1", "GET", "/a", 200,
                OptionalLong.empty(), OptionalDouble.empty(), OptionalDouble.empty());

        assertThat(r.limitStatus()).isEmpty();
        assertThat(r.hasLimitStatus()).isFalse();
        assertThat(LogFormat.COMBINED.hasLimitStatus()).isFalse();
    }
}
