package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each format the replay reads, line by line, and how auto tells them apart. */
class LogFormatsTest {
    @TempDir
    Path dir;

    @Test
    void aCombinedLineGivesClientTimeMethodUriStatusAndBytes() throws Exception {
        LoggedRequest r = Logs.read(Logs.fixture("combined.log"), LogFormat.COMBINED).requests().get(0);

        assertThat(r.line()).isEqualTo(1);
        assertThat(r.client()).isEqualTo("192.0.2.10");
        assertThat(r.time()).isEqualTo(OffsetDateTime.parse("2026-11-20T10:00:00+01:00"));
        assertThat(r.method()).isEqualTo("GET");
        assertThat(r.uri()).isEqualTo("/api/items?page=1");
        assertThat(r.path()).isEqualTo("/api/items");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.bytes()).isEqualTo(OptionalLong.of(512));
        assertThat(r.requestSeconds()).isEmpty();
        assertThat(r.upstreamSeconds()).isEmpty();
    }

    @Test
    void combinedTimingFieldsAreReadAsTrailingNumbersOrKeyValuePairsWithUpstreamListsSummed() throws Exception {
        List<LoggedRequest> rs = Logs.read(Logs.fixture("combined.log"), LogFormat.COMBINED).requests();

        // Line 2: "... 0.105 0.104"
        assertThat(rs.get(1).requestSeconds().getAsDouble()).isEqualTo(0.105);
        assertThat(rs.get(1).upstreamSeconds().getAsDouble()).isEqualTo(0.104);
        assertThat(rs.get(1).client()).isEqualTo("192.0.2.11");
        // Line 3: rt=0.250 urt="0.010, 0.020", from an IPv6 client.
        assertThat(rs.get(2).client()).isEqualTo("2001:db8::1");
        assertThat(rs.get(2).requestSeconds().getAsDouble()).isEqualTo(0.250);
        assertThat(rs.get(2).upstreamSeconds().getAsDouble()).isCloseTo(0.010 + 0.020, within(1e-9));
        // Line 4: "0.003 -", no upstream.
        assertThat(rs.get(3).requestSeconds().getAsDouble()).isEqualTo(0.003);
        assertThat(rs.get(3).upstreamSeconds()).isEmpty();
        // Line 5: rt=0.002 urt=-
        assertThat(rs.get(4).requestSeconds().getAsDouble()).isEqualTo(0.002);
        assertThat(rs.get(4).upstreamSeconds()).isEmpty();
    }

    @Test
    void anEscapedQuoteInsideAQuotedFieldDoesNotEndIt() throws Exception {
        Path log = Logs.write(dir.resolve("quote.log"), List.of(
                "192.0.2.1 - - [20/Nov/2026:10:00:00 +0100] \"GET /a HTTP/1.1\" 200 1 \"-\" \"say \\\"hi\\\"\" 0.5 0.4",
                "192.0.2.1 - - [20/Nov/2026:10:00:01 +0100] \"GET /b HTTP/1.1\" 200 1 \"-\" \"x\""));

        LoggedRequest r = Logs.read(log, LogFormat.COMBINED).requests().get(0);

        assertThat(r.requestSeconds()).isEqualTo(OptionalDouble.of(0.5));
        assertThat(r.upstreamSeconds()).isEqualTo(OptionalDouble.of(0.4));
    }

    @Test
    void aLineWithoutARequestLineParsesAsNoRequestRatherThanAsBad() throws Exception {
        Path log = Logs.write(dir.resolve("norequest.log"), List.of(
                Logs.combined("192.0.2.1", OffsetDateTime.parse("2026-11-20T10:00:00+01:00"), "GET", "/a"),
                "192.0.2.9 - - [20/Nov/2026:10:00:01 +0100] \"-\" 400 0 \"-\" \"-\"",
                Logs.combined("192.0.2.1", OffsetDateTime.parse("2026-11-20T10:00:02+01:00"), "GET", "/b")));

        ParsedLog parsed = Logs.read(log, LogFormat.COMBINED);

        assertThat(parsed.bad().count()).isZero();
        assertThat(parsed.requests()).extracting(LoggedRequest::method)
                .containsExactly("GET", LoggedRequest.NO_REQUEST, "GET");
    }

    @Test
    void commonLinesParseAndADashForTheBodyMeansNoBytes() throws Exception {
        List<LoggedRequest> rs = Logs.read(Logs.fixture("common.log"), LogFormat.COMMON).requests();

        assertThat(rs).extracting(LoggedRequest::client).containsExactly("192.0.2.10", "192.0.2.11", "192.0.2.10");
        assertThat(rs).extracting(LoggedRequest::method).containsExactly("GET", "GET", "DELETE");
        assertThat(rs.get(0).time()).isEqualTo(OffsetDateTime.parse("2000-10-10T13:55:36-07:00"));
        assertThat(rs.get(0).bytes()).isEqualTo(OptionalLong.of(2326));
        assertThat(rs.get(1).uri()).isEqualTo("/index.html?x=1");
        assertThat(rs.get(1).status()).isEqualTo(304);
        assertThat(rs.get(1).bytes()).isEqualTo(OptionalLong.of(0));
    }

    @Test
    void theSuitesJsonLogParsesWithUpstreamTimesSummedAndEmptyOnesAbsent() throws Exception {
        List<LoggedRequest> rs = Logs.read(Logs.fixture("suite.log"), LogFormat.SUITE_JSON).requests();

        assertThat(rs).hasSize(4);
        LoggedRequest miss = rs.get(0);
        assertThat(miss.time()).isEqualTo(OffsetDateTime.parse("2026-11-20T10:00:00+01:00"));
        assertThat(miss.client()).isEqualTo("127.0.0.1");
        assertThat(miss.uri()).isEqualTo("/hare?x=1");
        assertThat(miss.status()).isEqualTo(200);
        assertThat(miss.bytes()).isEqualTo(OptionalLong.of(512));
        assertThat(miss.requestSeconds()).isEqualTo(OptionalDouble.of(0.012));
        assertThat(miss.upstreamSeconds()).isEqualTo(OptionalDouble.of(0.011));
        assertThat(rs.get(1).upstreamSeconds()).isEmpty();
        assertThat(rs.get(3).upstreamSeconds().getAsDouble()).isCloseTo(0.100 + 0.200, within(1e-9));
    }

    @Test
    void aJsonMappingReadsEpochSecondsEpochMillisAndIsoTimes() throws Exception {
        LogFormat format = LogFormat.parse("json:time=ts,client=ip,method=verb,uri=path,status=code,bytes=size,"
                + "upstream_time=upstream");

        List<LoggedRequest> rs = Logs.read(Logs.fixture("mapped.jsonl"), format).requests();

        assertThat(rs).extracting(r -> r.time().toInstant()).containsExactly(
                Instant.ofEpochSecond(1795165200),
                Instant.ofEpochMilli(1795165200500L),
                OffsetDateTime.parse("2026-11-20T10:00:01.250+01:00").toInstant(),
                Instant.ofEpochMilli(1795165202750L));
        // An ISO time keeps the offset it was written with.
        assertThat(rs.get(2).time().getOffset()).isEqualTo(java.time.ZoneOffset.ofHours(1));
        assertThat(rs).extracting(LoggedRequest::client).containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.1", "10.0.0.3");
        assertThat(rs.get(1).method()).isEqualTo("GET");
        assertThat(rs.get(1).uri()).isEqualTo("/b?q=1");
        assertThat(rs.get(1).upstreamSeconds()).isEqualTo(OptionalDouble.of(0.040));
        assertThat(rs.get(3).status()).isEqualTo(404);
        assertThat(rs.get(3).bytes()).isEmpty();
    }

    @Test
    void aGzippedLogReadsLikeThePlainOneWhateverItsName() throws Exception {
        Path plain = Logs.fixture("combined.log");
        Path gzipped = Logs.gzip(plain, dir.resolve("access.log.1"));

        assertThat(Logs.read(gzipped, LogFormat.AUTO).requests())
                .isEqualTo(Logs.read(plain, LogFormat.COMBINED).requests());
    }

    @ParameterizedTest(name = "{0} is read as {1}")
    @CsvSource({"combined.log, combined", "common.log, common", "suite.log, suite-json"})
    void autoPicksTheFormatTheFirstLinesAreIn(String fixture, String expected) throws Exception {
        assertThat(Logs.read(Logs.fixture(fixture), LogFormat.AUTO).format()).isEqualTo(LogFormat.parse(expected));
    }

    @Test
    void autoGoesByMostOfTheFirstLinesSoATornFirstLineDoesNotDecide() throws Exception {
        List<String> lines = new java.util.ArrayList<>(java.nio.file.Files.readAllLines(Logs.fixture("combined.log")));
        // What a log cut mid-line by rotation starts with: the end of a combined line, which is not one.
        lines.add(0, lines.get(0).substring(lines.get(0).indexOf('"')));
        Path log = Logs.write(dir.resolve("rotated.log"), lines);

        ParsedLog parsed = AccessLog.read(log, LogFormat.AUTO, new ReadOptions(50));

        assertThat(parsed.format()).isEqualTo(LogFormat.COMBINED);
        assertThat(parsed.bad().firstLines()).containsExactly(1L);
    }

    @Test
    void autoRefusesALogInNoFormatItKnowsInOneLine() throws Exception {
        Path log = Logs.write(dir.resolve("mapped.jsonl"), java.nio.file.Files.readAllLines(Logs.fixture("mapped.jsonl")));

        assertThatThrownBy(() -> Logs.read(log, LogFormat.AUTO)).isInstanceOf(AccessLogException.class)
                .hasMessageContaining("--log-format").hasMessageContaining("line 1")
                .hasMessageNotContaining("\n");
    }

    @Test
    void anUnknownFormatIsRejectedInOneLineListingTheAcceptedForms() {
        assertThatThrownBy(() -> LogFormat.parse("apache")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("\"apache\"", "combined", "common", "suite-json", "json:", "auto")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aJsonMappingWithoutTheFieldsAReplayNeedsIsRejected() {
        assertThatThrownBy(() -> LogFormat.parse("json:time=ts,client=ip")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("method", "uri");
        assertThatThrownBy(() -> LogFormat.parse("json:time=ts,client=ip,method=m,uri=u,colour=c"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("colour");
    }

    @Test
    void aFormatSpellingParsesBackToTheSameFormat() {
        for (String spelling : List.of("auto", "combined", "common", "suite-json", "json:time=ts,client=ip,method=verb,uri=path,status=code")) {
            assertThat(LogFormat.parse(spelling).spelling()).isEqualTo(spelling);
        }
        assertThat(((LogFormat.Json) LogFormat.parse("json:time=ts,client=ip,method=verb,uri=path")).fields())
                .isEqualTo(Map.of("time", "ts", "client", "ip", "method", "verb", "uri", "path"));
    }
}
