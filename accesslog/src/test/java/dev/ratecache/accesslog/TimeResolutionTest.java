package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether a read log's times are whole seconds: from the format where it knows, from the values where it cannot. */
class TimeResolutionTest {
    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-20T10:00:00+01:00");

    @TempDir
    Path dir;

    @Test
    void combinedAndCommonLogsHaveWholeSecondTimes() throws Exception {
        assertThat(Logs.read(Logs.fixture("combined.log"), LogFormat.AUTO).resolution())
                .isEqualTo(TimeResolution.WHOLE_SECONDS);
        assertThat(Logs.read(Logs.fixture("common.log"), LogFormat.COMMON).resolution())
                .isEqualTo(TimeResolution.WHOLE_SECONDS);
    }

    @Test
    void theSuitesJsonLogReadsTimeIso8601SoItsTimesAreWholeSeconds() throws Exception {
        assertThat(Logs.read(Logs.fixture("suite.log"), LogFormat.SUITE_JSON).resolution())
                .isEqualTo(TimeResolution.WHOLE_SECONDS);
    }

    @Test
    void aJsonLogWithMillisecondDecimalsHasSubSecondTimes() throws Exception {
        Path log = Logs.write(dir.resolve("msec.jsonl"), List.of(
                "{\"msec\":1795165200.000,\"ip\":\"10.0.0.1\",\"verb\":\"GET\",\"path\":\"/\"}",
                "{\"msec\":1795165200.041,\"ip\":\"10.0.0.1\",\"verb\":\"GET\",\"path\":\"/app.css\"}"));

        ParsedLog parsed = Logs.read(log, LogFormat.parse("json:time=msec,client=ip,method=verb,uri=path"));

        assertThat(parsed.resolution()).isEqualTo(TimeResolution.SUB_SECOND);
        assertThat(parsed.requests().get(1).time().toInstant().toEpochMilli()).isEqualTo(1795165200041L);
    }

    @Test
    void aJsonLogOfWholeEpochSecondsHasWholeSecondTimes() throws Exception {
        Path log = Logs.write(dir.resolve("epoch.jsonl"), List.of(
                "{\"ts\":1795165200,\"ip\":\"10.0.0.1\",\"verb\":\"GET\",\"path\":\"/\"}",
                "{\"ts\":\"2026-11-20T10:00:01+01:00\",\"ip\":\"10.0.0.1\",\"verb\":\"GET\",\"path\":\"/app.css\"}"));

        assertThat(Logs.read(log, LogFormat.parse("json:time=ts,client=ip,method=verb,uri=path")).resolution())
                .isEqualTo(TimeResolution.WHOLE_SECONDS);
    }

    @Test
    void theMappedFixtureWithIsoDecimalsAndEpochMillisHasSubSecondTimes() throws Exception {
        assertThat(Logs.read(Logs.fixture("mapped.jsonl"), LogFormat.parse("json:time=ts,client=ip,method=verb,uri=path"))
                .resolution()).isEqualTo(TimeResolution.SUB_SECOND);
    }

    @Test
    void aReplayOfAWholeSecondLogSaysItsSecondsAreSentBunchedAndPredictedSo() throws Exception {
        Path log = Logs.write(dir.resolve("page.log"), List.of(
                Logs.combined("192.0.2.1", T0, "GET", "/"),
                Logs.combined("192.0.2.1", T0, "GET", "/app.css"),
                Logs.combined("192.0.2.1", T0.plusSeconds(5), "GET", "/")));

        String text = Replay.prepare(Logs.read(log, LogFormat.AUTO), Selection.defaults(), 1).summary().text();

        assertThat(text).contains(ReplaySummary.WHOLE_SECONDS_NOTE).doesNotContain("\n");
    }

    @Test
    void aReplayOfASubSecondLogSaysNothingAboutWholeSeconds() throws Exception {
        String text = Replay.prepare(Logs.read(Logs.fixture("mapped.jsonl"),
                LogFormat.parse("json:time=ts,client=ip,method=verb,uri=path")), Selection.defaults(), 1).summary().text();

        assertThat(text).doesNotContain("whole seconds");
    }
}
