package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lines as long as an nginx with raised large_client_header_buffers writes them are read like any
 * other, and one past {@link AccessLog#MAX_LINE_CHARS} is a bad line: neither ever ends the run.
 */
class LongLinesTest {
    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-20T10:00:00+01:00");
    private static final int KIB_64 = 64 * 1024;

    @TempDir
    Path dir;

    private static String combined(long second, String target, String referer, String agent, String after) {
        return "192.0.2.1 - - [" + LogTimes.LOCAL.format(T0.plusSeconds(second)) + "] \"GET " + target + " HTTP/1.1\" 200 100 \""
                + referer + "\" \"" + agent + "\"" + after;
    }

    @Test
    void quotedFieldsOf64KiBAreReadWhateverTheyHold() throws Exception {
        String target = "/search?q=" + "a".repeat(KIB_64);
        String referer = "https://example.com/?" + "b".repeat(KIB_64);
        // Apache escapes a quote as \": every one of them a step through the field.
        String agent = "say \\\"hi\\\" ".repeat(KIB_64 / 12);
        Path log = Logs.write(dir.resolve("long.log"), List.of(
                combined(0, target, referer, agent, " 0.250 0.200"),
                combined(1, "/b", "-", "curl/8", "")));

        for (LogFormat format : List.of(LogFormat.COMBINED, LogFormat.AUTO)) {
            ParsedLog parsed = Logs.read(log, format);

            assertThat(parsed.bad().count()).isZero();
            LoggedRequest r = parsed.requests().get(0);
            assertThat(r.uri()).isEqualTo(target);
            assertThat(r.requestSeconds().getAsDouble()).isEqualTo(0.250);
            assertThat(r.upstreamSeconds().getAsDouble()).isEqualTo(0.200);
        }
    }

    @Test
    void aCommonLineWithA64KiBTargetIsRead() throws Exception {
        String target = "/" + "c".repeat(KIB_64);
        Path log = Logs.write(dir.resolve("common.log"), List.of(
                "192.0.2.1 - - [20/Nov/2026:10:00:00 +0100] \"GET " + target + " HTTP/1.1\" 200 -",
                "192.0.2.1 - - [20/Nov/2026:10:00:01 +0100] \"GET /b HTTP/1.1\" 200 7"));

        for (LogFormat format : List.of(LogFormat.COMMON, LogFormat.AUTO)) {
            assertThat(Logs.read(log, format).requests()).extracting(LoggedRequest::uri).containsExactly(target, "/b");
        }
    }

    @Test
    void aLongListOfUpstreamTimesIsSummed() throws Exception {
        // One upstream tried after another, as nginx lists them in $upstream_response_time.
        String tries = String.join(", ", java.util.Collections.nCopies(50_000, "0.002"));
        Path log = Logs.write(dir.resolve("tries.log"), List.of(
                combined(0, "/a", "-", "curl/8", " 0.1 " + tries), combined(1, "/b", "-", "curl/8", "")));

        LoggedRequest r = Logs.read(log, LogFormat.COMBINED).requests().get(0);

        assertThat(r.upstreamSeconds().getAsDouble()).isCloseTo(100.0, within(1e-6));
    }

    @Test
    void aJsonLineOf64KiBIsRead() throws Exception {
        String uri = "/" + "d".repeat(KIB_64);
        Path log = Logs.write(dir.resolve("app.jsonl"), List.of(
                "{\"time\":\"2026-11-20T10:00:00+01:00\",\"client\":\"c\",\"method\":\"GET\",\"uri\":\"" + uri
                        + "\",\"agent\":\"" + "\\\"".repeat(KIB_64) + "\"}",
                "{\"time\":\"2026-11-20T10:00:01+01:00\",\"client\":\"c\",\"method\":\"GET\",\"uri\":\"/b\"}"));

        assertThat(Logs.read(log, LogFormat.AUTO).requests()).extracting(LoggedRequest::uri).containsExactly(uri, "/b");
    }

    @Test
    void aJsonLineNestedDeeperThanAnyLogIsABadLine() throws Exception {
        String deep = "[".repeat(200_000) + "]".repeat(200_000);
        Path log = Logs.write(dir.resolve("deep.jsonl"), List.of(
                "{\"time\":\"2026-11-20T10:00:00+01:00\",\"client\":\"c\",\"method\":\"GET\",\"uri\":\"/a\"}",
                "{\"time\":\"2026-11-20T10:00:01+01:00\",\"client\":\"c\",\"method\":\"GET\",\"uri\":\"/b\",\"x\":" + deep + "}",
                "{\"time\":\"2026-11-20T10:00:02+01:00\",\"client\":\"c\",\"method\":\"GET\",\"uri\":\"/c\"}"));

        ParsedLog parsed = AccessLog.read(log, LogFormat.SUITE_JSON, new ReadOptions(50));

        assertThat(parsed.bad().firstLines()).containsExactly(2L);
        assertThat(parsed.requests()).extracting(LoggedRequest::uri).containsExactly("/a", "/c");
    }

    @Test
    void aLineAtTheLimitIsReadAndOnePastItIsABadLineCountedWithItsNumber() throws Exception {
        String head = combined(0, "/at-limit", "-", "", "");
        String atLimit = combined(0, "/at-limit", "-", "x".repeat(AccessLog.MAX_LINE_CHARS - head.length()), "");
        String pastLimit = combined(0, "/past-limit", "-", "y".repeat(AccessLog.MAX_LINE_CHARS), "");
        List<String> lines = new ArrayList<>();
        for (int n = 1; n <= 200; n++) {
            lines.add(n == 50 ? atLimit : n == 100 ? pastLimit : combined(n, "/" + n, "-", "curl/8", ""));
        }
        assertThat(atLimit).hasSize(AccessLog.MAX_LINE_CHARS);
        Path log = Logs.write(dir.resolve("limit.log"), lines);

        ParsedLog parsed = Logs.read(log, LogFormat.AUTO);

        assertThat(parsed.lines()).isEqualTo(200);
        assertThat(parsed.bad()).isEqualTo(new BadLines(1, List.of(100L), 1));
        assertThat(parsed.requests()).hasSize(199).extracting(LoggedRequest::uri).contains("/at-limit")
                .doesNotContain("/past-limit");
    }

    @Test
    void aLogOfLinesPastTheLimitIsRefusedQuotingTheFirstCharactersAndTheLimit() throws Exception {
        String pastLimit = combined(0, "/past-limit", "-", "\u001b[2J" + "y".repeat(AccessLog.MAX_LINE_CHARS), "");
        Path log = Logs.write(dir.resolve("past.log"), List.of(pastLimit, pastLimit));
        String quoted = ": \"192.0.2.1 - - [20/Nov/2026:10:00:00 +0100] \"GET /past-limit";

        assertThatThrownBy(() -> Logs.read(log, LogFormat.COMBINED)).isInstanceOf(AccessLogException.class)
                .hasMessageStartingWith(log + ": 2 of 2 lines (100.0 %) are not nginx combined (limit 1 %); line 1 is"
                        + " longer than 1 MiB (1048576 characters), the most a line may have" + quoted)
                .hasMessageNotContaining("\n").hasMessageNotContaining("\u001b")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
        assertThatThrownBy(() -> Logs.read(log, LogFormat.AUTO)).isInstanceOf(AccessLogException.class)
                .hasMessageStartingWith(log + ": the first 2 lines are each longer than 1 MiB (1048576 characters), the"
                        + " most a line may have; line 1" + quoted)
                .hasMessageNotContaining("\n").hasMessageNotContaining("\u001b")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
        Path one = Logs.write(dir.resolve("one.log"), List.of(pastLimit));
        assertThatThrownBy(() -> Logs.read(one, LogFormat.AUTO)).isInstanceOf(AccessLogException.class)
                .hasMessageStartingWith(one + ": line 1 is longer than 1 MiB (1048576 characters), the most a line may"
                        + " have" + quoted);
    }

    @Test
    void aLineWithoutAnEndForMegabytesIsOneBadLine() throws Exception {
        // A binary file, or a log cut by a full disk: no line end for megabytes, then the log goes on.
        String junk = "z".repeat(3 * AccessLog.MAX_LINE_CHARS);
        Path log = Logs.write(dir.resolve("junk.log"), List.of(junk, combined(0, "/a", "-", "curl/8", ""),
                combined(1, "/b", "-", "curl/8", "")));

        ParsedLog parsed = AccessLog.read(log, LogFormat.COMBINED, new ReadOptions(50));

        assertThat(parsed.bad()).isEqualTo(new BadLines(1, List.of(1L), 1));
        assertThat(parsed.requests()).extracting(LoggedRequest::line).containsExactly(2L, 3L);
    }

    @Test
    void aBodySizeTooLargeForANumberIsABadLine() throws Exception {
        Path log = Logs.write(dir.resolve("bytes.log"), List.of(
                "192.0.2.1 - - [20/Nov/2026:10:00:00 +0100] \"GET /a HTTP/1.1\" 200 99999999999999999999 \"-\" \"x\"",
                "192.0.2.1 - - [20/Nov/2026:10:00:00 +0100] \"GET /a HTTP/1.1\" 200 99999999999999999999",
                combined(1, "/b", "-", "curl/8", "")));

        ParsedLog parsed = AccessLog.read(log, LogFormat.AUTO, new ReadOptions(100));

        assertThat(parsed.bad().firstLines()).containsExactly(1L, 2L);
        assertThat(parsed.requests()).singleElement().satisfies(r -> assertThat(r.bytes()).isEqualTo(OptionalLong.of(100)));
    }

    @Test
    void linesEndAtLineFeedsCarriageReturnsOrBoth() throws Exception {
        String a = combined(0, "/a", "-", "curl/8", "");
        String b = combined(1, "/b", "-", "curl/8", "");
        String c = combined(2, "/c", "-", "curl/8", "");
        Path log = Files.writeString(dir.resolve("ends.log"), a + "\r\n" + b + "\r" + c + "\n\r\n", StandardCharsets.UTF_8);

        ParsedLog parsed = Logs.read(log, LogFormat.AUTO);

        assertThat(parsed.requests()).extracting(LoggedRequest::line).containsExactly(1L, 2L, 3L);
        assertThat(parsed.requests()).extracting(LoggedRequest::uri).containsExactly("/a", "/b", "/c");
        assertThat(parsed.bad().count()).isZero();
    }
}
