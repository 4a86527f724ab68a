package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --key-field: each request's key read from a JSON log, and the schedule's key column. */
class KeyFieldTest {
    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-20T10:00:00+01:00");

    @TempDir
    Path dir;

    private static String suiteLine(int second, String client, String extra) {
        return "{\"time\":\"" + LogTimes.ISO.format(T0.plusSeconds(second)) + "\",\"client\":\"" + client
                + "\",\"method\":\"GET\",\"uri\":\"/r/" + second + "\",\"status\":200,\"bytes\":5" + extra + "}";
    }

    private ParsedLog read(List<String> lines, LogFormat format, String keyField) throws Exception {
        Path file = Logs.write(Files.createTempFile(dir, "access", ".jsonl"), lines);
        return AccessLog.read(file, format, ReadOptions.defaults().keyField(keyField));
    }

    @Test
    void theSuitesLogGivesEachRequestTheKeyOfTheNamedFieldAndNoKeyWhenItIsAbsentEmptyOrADash() throws Exception {
        ParsedLog log = read(List.of(suiteLine(0, "c1", ",\"api_key\":\"k-free-1\""),
                suiteLine(1, "c1", ",\"api_key\":\"k-pro-1\""),
                suiteLine(2, "c2", ""),
                suiteLine(3, "c2", ",\"api_key\":\"\""),
                suiteLine(4, "c2", ",\"api_key\":\"-\""),
                suiteLine(5, "c2", ",\"api_key\":null"),
                suiteLine(6, "c3", ",\"api_key\":12345")), LogFormat.AUTO, "api_key");

        assertThat(log.format()).isEqualTo(LogFormat.SUITE_JSON);
        assertThat(log.keyField()).contains("api_key");
        assertThat(log.requests()).extracting(LoggedRequest::key)
                .containsExactly("k-free-1", "k-pro-1", "", "", "", "", "12345");
        assertThat(log.bad().count()).isZero();
    }

    @Test
    void aJsonMappingReadsTheKeyFromANestedField() throws Exception {
        LogFormat format = LogFormat.parse("json:time=ts,client=ip,method=verb,uri=path");
        ParsedLog log = read(List.of(
                "{\"ts\":1795165200,\"ip\":\"10.0.0.1\",\"verb\":\"GET\",\"path\":\"/a\",\"auth\":{\"key\":\"k1\"}}",
                "{\"ts\":1795165201,\"ip\":\"10.0.0.1\",\"verb\":\"GET\",\"path\":\"/b\",\"auth\":{}}"), format, "auth.key");

        assertThat(log.requests()).extracting(LoggedRequest::key).containsExactly("k1", "");
    }

    @Test
    void withoutAKeyFieldNoRequestHasAKeyWhateverTheLineHolds() throws Exception {
        ParsedLog log = read(List.of(suiteLine(0, "c1", ",\"api_key\":\"k1\""), suiteLine(1, "c1", "")),
                LogFormat.SUITE_JSON, null);

        assertThat(log.keyField()).isEmpty();
        assertThat(log.requests()).allMatch(r -> !r.hasKey());
    }

    @Test
    void aKeyFieldForALogWithoutFieldsIsRefusedInOneLine() throws Exception {
        Path file = Logs.write(dir.resolve("access.log"), List.of(Logs.combined("192.0.2.1", T0, "GET", "/"),
                Logs.combined("192.0.2.1", T0.plusSeconds(1), "GET", "/")));

        assertThatThrownBy(() -> AccessLog.read(file, LogFormat.AUTO, ReadOptions.defaults().keyField("api_key")))
                .isInstanceOf(AccessLogException.class)
                .hasMessage(file + ": --key-field api_key needs a log with named fields (suite-json or json:...);"
                        + " this log is read as combined, which has none");
        assertThatThrownBy(() -> AccessLog.read(file, LogFormat.COMMON, ReadOptions.defaults().keyField("k")))
                .isInstanceOf(AccessLogException.class).hasMessageContaining("read as common, which has none");
        assertThatThrownBy(() -> ReadOptions.defaults().keyField(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("\n");
    }

    @Test
    void theScheduleHasAKeyColumnOnlyWhenARequestCarriesAKey() throws Exception {
        ParsedLog keyed = read(List.of(suiteLine(0, "c1", ",\"k\":\"a,b\""), suiteLine(1, "c1", ""),
                suiteLine(2, "c2", ",\"k\":\"k2\"")), LogFormat.SUITE_JSON, "k");
        Path run = dir.resolve("keyed");

        ReplayInput input = Replay.prepare(keyed, Selection.defaults(), 1);
        input.write(run);

        assertThat(input.keyed()).isTrue();
        assertThat(Files.readAllLines(run.resolve(ReplayInput.SCHEDULE_CSV)).get(0))
                .isEqualTo("offset_ms,address,method,uri,client,key");
        List<CSVRecord> rows = csv(run.resolve(ReplayInput.SCHEDULE_CSV));
        assertThat(rows).extracting(r -> r.get("key")).containsExactly("a,b", "", "k2");
        // The same client keeps its address whatever key it sends: the key travels beside it.
        assertThat(rows).extracting(r -> r.get("address")).containsExactly("127.16.0.1", "127.16.0.1", "127.16.0.2");
        assertThat(input.summary().keys()).isEqualTo(new ReplaySummary.Keys("k", 2, 2, 0));
        assertThat(input.summary().text()).contains("Keys from field k: 2 of 3 requests carry one (2 distinct keys)");

        // Read with a key field, but no line has one: the schedule is the old one.
        ParsedLog none = read(List.of(suiteLine(0, "c1", ""), suiteLine(1, "c1", "")), LogFormat.SUITE_JSON, "k");
        Path plain = dir.resolve("plain");
        Replay.prepare(none, Selection.defaults(), 1).write(plain);
        assertThat(Files.readAllLines(plain.resolve(ReplayInput.SCHEDULE_CSV)).get(0))
                .isEqualTo(String.join(",", ReplayInput.SCHEDULE_HEADER));
    }

    @Test
    void aKeyNginxWouldCountAsMissingIsSentAsNoKeyAndCounted() throws Exception {
        String tooLong = "k".repeat(Replay.MAX_KEY_BYTES + 1);
        ParsedLog log = read(List.of(suiteLine(0, "c1", ",\"k\":\"" + tooLong + "\""),
                suiteLine(1, "c1", ",\"k\":\"a\\u0001b\""), suiteLine(2, "c1", ",\"k\":\"caf\u00e9\""),
                suiteLine(3, "c1", ",\"k\":\"" + "k".repeat(Replay.MAX_KEY_BYTES) + "\"")), LogFormat.SUITE_JSON, "k");

        ReplayInput input = Replay.prepare(log, Selection.defaults(), 1);

        assertThat(input.schedule()).extracting(ScheduledRequest::key)
                .containsExactly("", "", "", "k".repeat(Replay.MAX_KEY_BYTES));
        assertThat(input.summary().keys()).isEqualTo(new ReplaySummary.Keys("k", 4, 1, 3));
        assertThat(input.summary().text()).contains("3 keys over 256 bytes or with characters other than visible ASCII"
                + " are sent as no key");
    }

    private static List<CSVRecord> csv(Path file) throws Exception {
        try (Reader in = Files.newBufferedReader(file)) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in).getRecords();
        }
    }
}
