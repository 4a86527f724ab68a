package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.stats.Median;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** From a read log to what the replay sends: selection, timing, source addresses and the files. */
class ReplayTest {
    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-20T10:00:00+01:00");

    @TempDir
    Path dir;

    private ParsedLog log(List<String> lines) throws Exception {
        return Logs.read(Logs.write(Files.createTempFile(dir, "access", ".log"), lines), LogFormat.AUTO);
    }

    /** One request per second, from the given clients in turn, all GET. */
    private ParsedLog everySecond(List<String> clients) throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            lines.add(Logs.combined(clients.get(i), T0.plusSeconds(i), "GET", "/r/" + i));
        }
        return log(lines);
    }

    @Test
    void aLogWithOneRequestIsRefusedSayingAReplayNeedsTwo() throws Exception {
        ParsedLog one = log(List.of(Logs.combined("192.0.2.1", T0, "GET", "/")));

        assertThatThrownBy(() -> Replay.prepare(one, Selection.defaults(), 1)).isInstanceOf(AccessLogException.class)
                .hasMessage(one.source() + ": only 1 request in the log; a replay needs at least 2");
    }

    @Test
    void onlyGetAndHeadAreKeptByDefaultAndOtherMethodsAreCountedPerMethod() throws Exception {
        List<String> methods = List.of("GET", "POST", "HEAD", "PUT", "POST", "GET", "DELETE", "POST");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < methods.size(); i++) {
            lines.add(Logs.combined("192.0.2.1", T0.plusSeconds(i), methods.get(i), "/x"));
        }

        ReplayInput input = Replay.prepare(log(lines), Selection.defaults(), 1);

        assertThat(input.schedule()).extracting(ScheduledRequest::method)
                .containsExactlyElementsOf(methods.stream().filter(Selection.DEFAULT_METHODS::contains).toList());
        Map<String, Long> expected = new java.util.HashMap<>();
        methods.stream().filter(m -> !Selection.DEFAULT_METHODS.contains(m)).forEach(m -> expected.merge(m, 1L, Long::sum));
        assertThat(input.summary().skippedMethods()).isEqualTo(expected);
        // Most frequent first, so the summary leads with what matters.
        assertThat(input.summary().skippedMethods().keySet().iterator().next()).isEqualTo("POST");
    }

    @Test
    void methodsNamedInTheSelectionAreKept() throws Exception {
        ParsedLog parsed = log(List.of(Logs.combined("192.0.2.1", T0, "GET", "/x"),
                Logs.combined("192.0.2.1", T0.plusSeconds(1), "POST", "/x"),
                Logs.combined("192.0.2.1", T0.plusSeconds(2), "PUT", "/x")));

        ReplayInput input = Replay.prepare(parsed, Selection.defaults().methods(Selection.parseMethods("get, head,POST")), 1);

        assertThat(input.schedule()).extracting(ScheduledRequest::method).containsExactly("GET", "POST");
        assertThat(input.summary().skippedMethods()).isEqualTo(Map.of("PUT", 1L));
    }

    @Test
    void fromIsInclusiveAndToExclusiveAndBothTakeTheLogsOwnSpelling() throws Exception {
        ParsedLog parsed = everySecond(java.util.Collections.nCopies(10, "192.0.2.1"));
        OffsetDateTime from = Selection.parseTime(LogTimes.LOCAL.format(T0.plusSeconds(3)));
        // The same instant in another offset: selection is by instant.
        OffsetDateTime to = Selection.parseTime(T0.plusSeconds(7).withOffsetSameInstant(java.time.ZoneOffset.ofHours(-5)).toString());

        ReplayInput input = Replay.prepare(parsed, Selection.defaults().from(from).to(to), 1);

        assertThat(input.schedule()).extracting(ScheduledRequest::uri).containsExactly("/r/3", "/r/4", "/r/5", "/r/6");
        assertThat(input.summary().outsideSelection()).isEqualTo(10 - 4);
        assertThat(input.summary().first()).isEqualTo(T0.plusSeconds(3));
    }

    @Test
    void aTimeWithoutAnOffsetIsRefused() {
        assertThatThrownBy(() -> Selection.parseTime("2026-11-20T10:00:00")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offset").hasMessageNotContaining("\n");
    }

    @Test
    void firstCountsRequestsAfterTheTimeWindowAndTheMethodFilter() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lines.add(Logs.combined("192.0.2.1", T0.plusSeconds(i), i % 2 == 0 ? "GET" : "POST", "/r/" + i));
        }

        ReplayInput input = Replay.prepare(log(lines), Selection.defaults().from(T0.plusSeconds(2)).first(3), 1);

        assertThat(input.schedule()).extracting(ScheduledRequest::uri).containsExactly("/r/2", "/r/4", "/r/6");
    }

    @Test
    void offsetsAreMillisecondsAfterTheFirstSelectedRequestDividedByTheSpeed() throws Exception {
        List<Duration> after = List.of(Duration.ZERO, Duration.ofMillis(1500), Duration.ofSeconds(61), Duration.ofHours(25));
        List<String> lines = new ArrayList<>();
        for (Duration d : after) {
            lines.add(String.format("{\"time\":\"%s\",\"client\":\"c\",\"method\":\"GET\",\"uri\":\"/\",\"status\":200}",
                    T0.plus(d)));
        }
        ParsedLog parsed = log(lines);

        assertThat(Replay.prepare(parsed, Selection.defaults(), 1).schedule()).extracting(ScheduledRequest::offsetMs)
                .containsExactlyElementsOf(after.stream().map(Duration::toMillis).toList());
        assertThat(Replay.prepare(parsed, Selection.defaults(), 10).schedule()).extracting(ScheduledRequest::offsetMs)
                .containsExactlyElementsOf(after.stream().map(d -> Math.round(d.toMillis() / 10.0)).toList());
    }

    @Test
    void eachClientGetsItsOwnAddressInOrderOfFirstAppearanceFrom127_16_0_1() throws Exception {
        List<String> clients = List.of("192.0.2.7", "2001:db8::1", "192.0.2.7", "unknown", "2001:db8::1");

        ReplayInput input = Replay.prepare(everySecond(clients), Selection.defaults(), 1);

        assertThat(input.clients()).extracting(ClientAddress::client).containsExactly("192.0.2.7", "2001:db8::1", "unknown");
        assertThat(input.clients()).extracting(ClientAddress::address)
                .containsExactly("127.16.0.1", "127.16.0.2", "127.16.0.3");
        assertThat(input.clients()).extracting(ClientAddress::requests).containsExactly(2L, 2L, 1L);
        for (ScheduledRequest r : input.schedule()) {
            assertThat(input.clients()).contains(new ClientAddress(r.client(), r.address(),
                    clients.stream().filter(r.client()::equals).count()));
        }
    }

    @Test
    void theSameLogAndSelectionGiveTheSameMapping() throws Exception {
        List<String> clients = new ArrayList<>();
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 500; i++) {
            clients.add("10.0." + random.nextInt(4) + "." + random.nextInt(200));
        }
        Path file = Logs.write(dir.resolve("access.log"), clients.stream()
                .map(c -> Logs.combined(c, T0.plusSeconds(clients.indexOf(c)), "GET", "/")).toList());

        ReplayInput once = Replay.prepare(Logs.read(file, LogFormat.AUTO), Selection.defaults(), 1);
        ReplayInput again = Replay.prepare(Logs.read(file, LogFormat.AUTO), Selection.defaults(), 1);

        assertThat(again.clients()).isEqualTo(once.clients());
        assertThat(again.schedule()).isEqualTo(once.schedule());
    }

    @Test
    void addressesSkipThoseEndingIn0Or255AcrossOctetBoundaries() throws Exception {
        List<String> clients = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            clients.add("client-" + i);
        }

        List<String> addresses = Replay.prepare(everySecond(clients), Selection.defaults(), 1).clients().stream()
                .map(ClientAddress::address).toList();

        assertThat(addresses).hasSize(600).doesNotHaveDuplicates().first().isEqualTo("127.16.0.1");
        assertThat(addresses).allSatisfy(a -> assertThat(a).startsWith("127.16.").doesNotEndWith(".0").doesNotEndWith(".255"));
        // Each next address is the next one up, except past .254, where .255 and the next block's .0 are stepped over.
        for (int i = 1; i < addresses.size(); i++) {
            long step = asNumber(addresses.get(i)) - asNumber(addresses.get(i - 1));
            assertThat(step).as("%s after %s", addresses.get(i), addresses.get(i - 1))
                    .isEqualTo(addresses.get(i - 1).endsWith(".254") ? 3 : 1);
        }
        // 600 clients need three blocks of 254: the test crosses two boundaries.
        assertThat(addresses).contains("127.16.1.1", "127.16.2.1");
    }

    @Test
    void theAddressRangeEndsAt127_255_255_254() {
        assertThat(SourceAddresses.of(SourceAddresses.CAPACITY - 1)).isEqualTo("127.255.255.254");
        assertThatThrownBy(() -> SourceAddresses.of(SourceAddresses.CAPACITY)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void moreClientsThanAddressesAreRefusedInOneLine() throws Exception {
        ParsedLog parsed = everySecond(List.of("a", "b", "c", "d"));

        assertThatThrownBy(() -> Replay.prepare(parsed, Selection.defaults(), 1, 3)).isInstanceOf(AccessLogException.class)
                .hasMessageContaining("4 distinct clients").hasMessageNotContaining("\n");
        assertThat(Replay.prepare(parsed, Selection.defaults(), 1, 4).clients()).hasSize(4);
    }

    @Test
    void aSelectionThatLeavesFewerThanTwoRequestsFails() throws Exception {
        ParsedLog parsed = everySecond(List.of("a", "b", "c"));

        assertThatThrownBy(() -> Replay.prepare(parsed, Selection.defaults().first(1), 1))
                .isInstanceOf(AccessLogException.class).hasMessageContaining("keeps 1 of 3 requests")
                .hasMessageContaining("at least 2");
    }

    @Test
    void pathsTakeTheMedianUpstreamTimeElseRequestTimeAndTheMedianBodySize() throws Exception {
        String line = "192.0.2.1 - - [%s] \"GET %s HTTP/1.1\" 200 %d \"-\" \"t\" %s";
        List<String> lines = List.of(
                // /up: upstream times 0.010, 0.030, 0.100 (median 30 ms) and a hit without one.
                String.format(line, LogTimes.LOCAL.format(T0), "/up?a=1", 100, "0.011 0.010"),
                String.format(line, LogTimes.LOCAL.format(T0.plusSeconds(1)), "/up?a=2", 300, "0.031 0.030"),
                String.format(line, LogTimes.LOCAL.format(T0.plusSeconds(2)), "/up", 200, "0.101 0.100"),
                String.format(line, LogTimes.LOCAL.format(T0.plusSeconds(3)), "/up", 50, "0.000 -"),
                // /rt: request times only, 0.004 and 0.010: an even count takes the mean of the middle two.
                String.format(line, LogTimes.LOCAL.format(T0.plusSeconds(4)), "/rt", 10, "rt=0.004"),
                String.format(line, LogTimes.LOCAL.format(T0.plusSeconds(5)), "/rt", 20, "rt=0.010"),
                // /none: no times at all.
                String.format(line, LogTimes.LOCAL.format(T0.plusSeconds(6)), "/none", 7, ""));

        List<PathProfile> paths = Replay.prepare(log(lines), Selection.defaults(), 1).paths();

        assertThat(paths).containsExactly(
                new PathProfile("/up", 4, OptionalLong.of(Math.round(Median.of(new double[] {10, 30, 100}))),
                        Math.round(Median.of(new double[] {100, 300, 200, 50}))),
                new PathProfile("/rt", 2, OptionalLong.of(Math.round((4 + 10) / 2.0)), Math.round((10 + 20) / 2.0)),
                new PathProfile("/none", 1, OptionalLong.empty(), 7));
    }

    @Test
    void writeProducesTheThreeFilesWithTheirHeadersAndOddUrisSurvive() throws Exception {
        String odd = "/q?a=1,2&b=\"x\"";
        ParsedLog parsed = log(List.of(
                "{\"time\":\"2026-11-20T10:00:00+01:00\",\"client\":\"c1\",\"method\":\"GET\",\"uri\":\"/plain\",\"status\":200,\"bytes\":5,\"request_time\":0.002,\"upstream_time\":\"0.001\"}",
                "{\"time\":\"2026-11-20T10:00:01+01:00\",\"client\":\"c2\",\"method\":\"GET\",\"uri\":\"" + odd.replace("\"", "\\\"")
                        + "\",\"status\":200,\"bytes\":9,\"request_time\":0.000,\"upstream_time\":\"\"}"));
        ReplayInput input = Replay.prepare(parsed, Selection.defaults(), 2);
        Path run = dir.resolve("run");

        input.write(run);

        List<CSVRecord> schedule = readCsv(run.resolve(ReplayInput.SCHEDULE_CSV));
        assertThat(Files.readAllLines(run.resolve(ReplayInput.SCHEDULE_CSV)).get(0)).isEqualTo("offset_ms,address,method,uri,client");
        assertThat(schedule).hasSize(input.schedule().size());
        for (int i = 0; i < schedule.size(); i++) {
            ScheduledRequest r = input.schedule().get(i);
            assertThat(schedule.get(i).toList()).containsExactly(String.valueOf(r.offsetMs()), r.address(), r.method(), r.uri(), r.client());
        }
        assertThat(schedule.get(1).get("uri")).isEqualTo(odd);

        assertThat(Files.readAllLines(run.resolve(ReplayInput.CLIENTS_CSV)).get(0)).isEqualTo("client,address,requests");
        assertThat(readCsv(run.resolve(ReplayInput.CLIENTS_CSV))).extracting(CSVRecord::toList).containsExactlyElementsOf(
                input.clients().stream().map(c -> List.of(c.client(), c.address(), String.valueOf(c.requests()))).toList());

        assertThat(Files.readAllLines(run.resolve(ReplayInput.PATHS_CSV)).get(0)).isEqualTo("path,requests,delay_ms,body_bytes");
        assertThat(readCsv(run.resolve(ReplayInput.PATHS_CSV))).extracting(CSVRecord::toList).containsExactlyElementsOf(
                input.paths().stream().map(p -> List.of(p.path(), String.valueOf(p.requests()),
                        p.delayMs().isPresent() ? String.valueOf(p.delayMs().getAsLong()) : "", String.valueOf(p.bodyBytes()))).toList());
    }

    @Test
    void theSummaryTellsFormatCountsSkippedMethodsClientsSpanAndSpeed() throws Exception {
        Path file = Logs.write(dir.resolve("access.log"), List.of(
                Logs.combined("192.0.2.1", T0, "GET", "/a"), "torn",
                Logs.combined("192.0.2.2", T0.plusMinutes(90), "POST", "/a"),
                Logs.combined("192.0.2.2", T0.plusHours(2), "GET", "/b")));
        ParsedLog parsed = AccessLog.read(file, LogFormat.AUTO, new ReadOptions(50));

        ReplaySummary s = Replay.prepare(parsed, Selection.defaults(), 4).summary();

        assertThat(s.format()).isEqualTo("combined");
        assertThat(s.lines()).isEqualTo(4);
        assertThat(s.requestsInLog()).isEqualTo(3);
        assertThat(s.requestsKept()).isEqualTo(2);
        assertThat(s.bad()).isEqualTo(new BadLines(1, List.of(2L)));
        assertThat(s.skippedMethods()).isEqualTo(Map.of("POST", 1L));
        assertThat(s.clients()).isEqualTo(2);
        assertThat(s.first()).isEqualTo(T0);
        assertThat(s.last()).isEqualTo(T0.plusHours(2));
        assertThat(s.span()).isEqualTo(Duration.ofHours(2));
        assertThat(s.text()).contains(file.toString(), "combined", "4 lines", "3 requests", "1 bad line (at line 2)",
                "2 requests from 2 clients", LogTimes.ISO.format(T0), LogTimes.ISO.format(T0.plusHours(2)), "speed 4", "1 POST")
                .doesNotContain("\n");
    }

    @Test
    void aRequestLineLongerThanTheFrontTakesIsLeftOutAndCountedSayingWhy() throws Exception {
        // nginx answers 414 when the request line and its CRLF pass the front's 8 KiB buffer.
        String fits = "/q?" + "a".repeat(Replay.MAX_REQUEST_LINE_BYTES - "GET /q? HTTP/1.1\r\n".length());
        String over = fits + "a";
        ParsedLog parsed = log(List.of(Logs.combined("192.0.2.1", T0, "GET", "/a"),
                Logs.combined("192.0.2.1", T0.plusSeconds(1), "GET", fits),
                Logs.combined("192.0.2.2", T0.plusSeconds(2), "GET", over),
                Logs.combined("192.0.2.1", T0.plusSeconds(3), "GET", "/b")));

        ReplayInput input = Replay.prepare(parsed, Selection.defaults().first(3), 1);

        assertThat(input.schedule()).extracting(ScheduledRequest::uri).containsExactly("/a", fits, "/b");
        assertThat(input.summary().longRequestLines()).isEqualTo(1);
        assertThat(input.summary().text()).contains("1 request left out: its request line is over the 8 KiB the"
                + " suite's front takes (large_client_header_buffers 4 8k), which would answer it 414 before any limit"
                + " or cache saw it.");
    }

    @Test
    void theSummaryEscapesWhatIsNotPrintableInAMethodAndSaysWhichBadLinesWereTooLong() throws Exception {
        Path file = Logs.write(dir.resolve("app.jsonl"), List.of(
                "{\"time\":\"2026-11-20T10:00:00+01:00\",\"client\":\"c\",\"method\":\"GET\",\"uri\":\"/a\"}",
                "{\"time\":\"2026-11-20T10:00:01+01:00\",\"client\":\"c\",\"method\":\"\\u001b]0;owned\\u0007\",\"uri\":\"/a\"}",
                "{\"time\":\"2026-11-20T10:00:02+01:00\",\"client\":\"c\",\"method\":\"GET\",\"uri\":\"/"
                        + "b".repeat(AccessLog.MAX_LINE_CHARS) + "\"}",
                "{\"time\":\"2026-11-20T10:00:03+01:00\",\"client\":\"c\",\"method\":\"GET\",\"uri\":\"/c\"}"));
        ParsedLog parsed = AccessLog.read(file, LogFormat.AUTO, new ReadOptions(50));

        String text = Replay.prepare(parsed, Selection.defaults(), 1).summary().text();

        assertThat(text).contains("1 \\x1b]0;OWNED\\x07", "1 bad line (at line 3; 1 longer than 1 MiB (1048576"
                + " characters), the most a line may have)").doesNotContainPattern("\\p{Cntrl}");
    }

    @Test
    void theSpeedMustBePositive() throws Exception {
        ParsedLog parsed = everySecond(List.of("a", "b"));

        for (double speed : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> Replay.prepare(parsed, Selection.defaults(), speed))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static List<CSVRecord> readCsv(Path file) throws Exception {
        try (Reader in = Files.newBufferedReader(file)) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in).getRecords();
        }
    }

    private static long asNumber(String address) {
        long n = 0;
        for (String octet : address.split("\\.")) {
            n = n * 256 + Integer.parseInt(octet);
        }
        return n;
    }

}
