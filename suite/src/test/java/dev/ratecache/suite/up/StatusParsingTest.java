package dev.ratecache.suite.up;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalTime;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The status line's parsing and arithmetic, without a stack. */
class StatusParsingTest {
    @TempDir
    Path dir;

    @Test
    void readsStubStatusCounters() {
        String page = "Active connections: 3 \nserver accepts handled requests\n 17 16 42 \nReading: 0 Writing: 1 Waiting: 2 \n";
        assertThat(StubStatus.parse(page)).contains(new StubStatus(3, 17, 16, 42));
        assertThat(StubStatus.parse("<html>404</html>")).isEmpty();
        assertThat(StubStatus.parse(null)).isEmpty();
    }

    private static String entry(int status, String cache) {
        return "{\"time\":\"2026-01-01T00:00:00+00:00\",\"uri\":\"/hare\",\"status\":" + status
                + ",\"cache\":\"" + cache + "\",\"limit_req\":\"PASSED\"}\n";
    }

    private void append(Path log, String text) throws IOException {
        Files.writeString(log, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void countsOnlyWhatTheLogGainedAndKeepsAHalfWrittenLineForNextTime() throws IOException {
        Path log = dir.resolve("access.log");
        append(log, entry(200, "HIT")); // before the tail starts: not counted
        AccessLogTail tail = new AccessLogTail(log, 429);
        assertThat(tail.read()).isEqualTo(AccessLogTail.Counts.NONE);

        String third = entry(429, "");
        append(log, entry(200, "HIT") + entry(200, "MISS") + third.substring(0, 20));
        assertThat(tail.read()).isEqualTo(new AccessLogTail.Counts(2, 0, 1));

        append(log, third.substring(20) + entry(429, ""));
        assertThat(tail.read()).isEqualTo(new AccessLogTail.Counts(2, 2, 0));
        assertThat(tail.read()).isEqualTo(AccessLogTail.Counts.NONE);
    }

    @Test
    void startsOverWhenTheLogIsTruncatedAndSkipsLinesThatAreNotJson() throws IOException {
        Path log = dir.resolve("access.log");
        AccessLogTail tail = new AccessLogTail(log, 503); // no log yet: nginx creates it on start
        append(log, entry(503, "") + entry(503, "") + entry(200, "HIT"));
        assertThat(tail.read()).isEqualTo(new AccessLogTail.Counts(3, 2, 1));

        Files.writeString(log, "127.0.0.1 - - plain line\n" + entry(200, "HIT"));
        assertThat(tail.read()).isEqualTo(new AccessLogTail.Counts(1, 0, 1));
    }

    @Test
    void formatsRatesPerSecondLessThePollsOwnRequests() {
        StatusLine.Reading before = new StatusLine.Reading(OptionalLong.of(100), OptionalLong.of(50), OptionalLong.of(10),
                OptionalLong.of(0));
        StatusLine.Reading after = new StatusLine.Reading(OptionalLong.of(301), OptionalLong.of(71), OptionalLong.of(30),
                OptionalLong.of(4));
        String line = StatusLine.format(LocalTime.of(12, 0, 3), before, after, 2.0,
                new AccessLogTail.Counts(200, 50, 150), 1);
        assertThat(line).isEqualTo(
                "12:00:03  front 100.0  back 10.0  origin 10.0 req/s  rejected 25.0/s  HIT 75.0 %  in-flight 4");
    }

    @Test
    void showsADashForWhatCouldNotBeReadAndForAnIntervalWithNoResponses() {
        StatusLine.Reading none = new StatusLine.Reading(OptionalLong.empty(), OptionalLong.of(5), OptionalLong.empty(),
                OptionalLong.empty());
        StatusLine.Reading idle = new StatusLine.Reading(OptionalLong.of(7), OptionalLong.of(6), OptionalLong.empty(),
                OptionalLong.empty());
        assertThat(StatusLine.format(LocalTime.of(0, 0), none, idle, 2.0, AccessLogTail.Counts.NONE, 1))
                .isEqualTo("00:00:00  front -  back 0.0  origin - req/s  rejected 0.0/s  HIT - %  in-flight -");
        // A counter that went back (a tier restarted) is not a rate.
        assertThat(StatusLine.rate(OptionalLong.of(100), OptionalLong.of(3), 1, 2.0)).isEqualTo("-");
    }
}
