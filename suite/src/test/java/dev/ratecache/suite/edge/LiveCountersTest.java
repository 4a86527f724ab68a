package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What up's status line reads of each product's running tiers, from their logs and counters, without a stack. */
class LiveCountersTest {
    @TempDir
    Path dir;

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

    /** Lines as HAProxy's tiers write them (haproxy/snippets/shared/logging.cfg), one per request as it ends. */
    private static String haproxy(int status, String server, String cache) {
        return "{\"accept_ms\":1795751962050,\"th\":0,\"ti\":0,\"treq\":0,\"tw\":0,\"tc\":0,\"tr\":0,\"ta\":0,"
                + "\"key\":\"127.0.7.1\",\"method\":\"GET\",\"uri\":\"\\/hare\",\"status\":" + status + ",\"sent\":290,"
                + "\"length\":\"-\",\"server\":\"" + server + "\",\"limit\":\"PASSED\",\"cache\":\"" + cache + "\"}\n";
    }

    @Test
    void haproxysTiersAreCountedFromBothAccessLogsAndItsNoticesAreNoRequests() throws Exception {
        Path front = dir.resolve("front-access.log");
        Path back = dir.resolve("back-access.log");
        append(front, haproxy(200, "back", "MISS")); // before up's first reading: not counted
        LiveCounters tiers = HaproxyEdge.liveCounters(front, back, 429);
        assertThat(tiers.read()).isEqualTo(new LiveCounters.Reading(OptionalLong.of(0), OptionalLong.of(0),
                AccessLogTail.Counts.NONE));

        append(front, haproxy(200, "<CACHE>", "HIT") + haproxy(429, "<NOSRV>", "-") + haproxy(200, "back", "MISS")
                + "Proxy front stopped (cumulated conns: FE: 14, BE: 0).\n");
        append(back, haproxy(200, "origin1", "-"));
        assertThat(tiers.read()).isEqualTo(new LiveCounters.Reading(OptionalLong.of(3), OptionalLong.of(1),
                new AccessLogTail.Counts(3, 1, 1)));

        append(front, haproxy(200, "<CACHE>", "HIT"));
        assertThat(tiers.read()).isEqualTo(new LiveCounters.Reading(OptionalLong.of(4), OptionalLong.of(1),
                new AccessLogTail.Counts(1, 0, 1)));
        assertThat(tiers.polls()).as("reading a log adds no request").isZero();
    }

    @Test
    void varnishsHitsLeaveOutGraceHitsAndItsRejectionsAreBothTiersSyntheticAnswers() {
        Map<String, Long> frontBefore = Map.of("MAIN.client_req", 100L, "MAIN.s_synth", 5L, "MAIN.cache_hit", 60L,
                "MAIN.cache_hit_grace", 10L);
        Map<String, Long> frontNow = Map.of("MAIN.client_req", 200L, "MAIN.s_synth", 25L, "MAIN.cache_hit", 130L,
                "MAIN.cache_hit_grace", 30L);
        Map<String, Long> backBefore = Map.of("MAIN.client_req", 10L, "MAIN.s_synth", 1L);
        Map<String, Long> backNow = Map.of("MAIN.client_req", 20L, "MAIN.s_synth", 6L);

        LiveCounters.Reading reading = VarnishCounters.reading(frontBefore, frontNow, backBefore, backNow);

        assertThat(reading).isEqualTo(new LiveCounters.Reading(OptionalLong.of(200), OptionalLong.of(20),
                new AccessLogTail.Counts(100, 25, 50)));
    }

    @Test
    void varnishCountersThatCouldNotBeReadGiveNoRateAndNoHitShare() {
        Map<String, Long> front = Map.of("MAIN.client_req", 100L, "MAIN.s_synth", 5L, "MAIN.cache_hit", 60L,
                "MAIN.cache_hit_grace", 10L);

        LiveCounters.Reading reading = VarnishCounters.reading(front, Map.of(), Map.of(), Map.of());

        assertThat(reading).isEqualTo(new LiveCounters.Reading(OptionalLong.empty(), OptionalLong.empty(),
                AccessLogTail.Counts.NONE));
    }
}
