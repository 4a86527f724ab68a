package dev.ratecache.suite.advise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.accesslog.AccessLog;
import dev.ratecache.accesslog.LogFormat;
import dev.ratecache.accesslog.ParsedLog;
import dev.ratecache.accesslog.ReadOptions;
import dev.ratecache.accesslog.TimeResolution;
import dev.ratecache.accesslog.WithinSecond;
import dev.ratecache.suite.advise.Advisor.Advice;
import dev.ratecache.suite.advise.Advisor.FrontCandidate;
import dev.ratecache.suite.advise.Advisor.Options;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Advice on logs whose times are whole seconds, where a page and its assets logged in the same second
 * read as one instant: worked out bunched at the second's start and spread over it, made on the one
 * assumed, and said so.
 */
class WholeSecondLogsTest {
    static final DateTimeFormatter COMBINED = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);
    static final ZonedDateTime START = ZonedDateTime.of(2026, 11, 20, 10, 0, 0, 0, ZoneOffset.UTC);

    /** 12 clients, each loading a page and 9 assets every 12 s, in turn: every second of two minutes holds one page view. */
    static final int CLIENTS = 12;
    static final int PAGE_REQUESTS = 10;

    @TempDir
    Path dir;

    static Options options(Double originCapacity, WithinSecond reading) {
        return new Options(originCapacity, 0, null, 10, false, reading);
    }

    /** One page view: the page, then its assets, all logged in second {@code s}. */
    static List<String> pageView(String client, int s, int requests) {
        List<String> lines = new ArrayList<>();
        for (int k = 0; k < requests; k++) {
            String uri = k == 0 ? "/" : "/static/asset-" + k + ".css";
            lines.add(client + " - - [" + COMBINED.format(START.plusSeconds(s)) + "] \"GET " + uri + " HTTP/1.1\" 200 512 \"-\" \"test\"");
        }
        return lines;
    }

    /** Two minutes in which each second holds one client's page and its assets. */
    static List<String> pagesAndAssets(int clients, int requestsPerPage) {
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < 120; s++) {
            lines.addAll(pageView("198.51.100." + (1 + s % clients), s, requestsPerPage));
        }
        return lines;
    }

    ParsedLog read(String name, List<String> lines) throws IOException {
        Path file = Files.write(dir.resolve(name), lines);
        try {
            return AccessLog.read(file, LogFormat.AUTO, ReadOptions.defaults());
        } catch (dev.ratecache.accesslog.AccessLogException e) {
            throw new AssertionError(e);
        }
    }

    Advice advise(ParsedLog log, Options options) {
        try {
            return Advisor.advise(log.requests(), log.resolution(), options);
        } catch (Advisor.BadLog e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aCombinedLogIsAdvisedOnTheAssumedReadingWithTheOtherWorkedOutBeside() throws IOException {
        ParsedLog log = read("pages.log", pagesAndAssets(CLIENTS, PAGE_REQUESTS));

        Advice a = advise(log, options(null, WithinSecond.START));

        assertThat(log.resolution()).isEqualTo(TimeResolution.WHOLE_SECONDS);
        assertThat(a.timing().wholeSeconds()).isTrue();
        assertThat(a.timing().assumed()).isEqualTo(WithinSecond.START);
        assertThat(a.timing().other().timing().assumed()).isEqualTo(WithinSecond.SPREAD);
        assertThat(a.requests()).isEqualTo(a.timing().other().requests()).isEqualTo(1200);
    }

    @Test
    void bunchedAPageAndItsAssetsOverflowALimitTheyFitWhenSpreadOverTheirSecond() throws IOException {
        Advice a = advise(read("pages.log", pagesAndAssets(CLIENTS, PAGE_REQUESTS)), options(null, WithinSecond.START));

        // 10 requests at once: 9 over the rate, more than a burst of 5 holds, for every client.
        FrontCandidate bunched = a.front(10, 5);
        assertThat(bunched.hurtClients()).isEqualTo(CLIENTS);
        assertThat(bunched.delayedPct()).isPositive();
        // 10 requests 100 ms apart: exactly 10 r/s, so none waits and none is turned away.
        FrontCandidate spread = a.timing().other().front(10, 5);
        assertThat(spread.hurtClients()).isZero();
        assertThat(spread.rejectedPct()).isZero();
        assertThat(spread.delayedPct()).isZero();
    }

    @Test
    void theBackLimitAtTheOriginsCapacityNeedsABurstOnlyWhenTheSecondIsBunched() throws IOException {
        Advice a = advise(read("pages.log", pagesAndAssets(CLIENTS, PAGE_REQUESTS)), options(20.0, WithinSecond.START));

        assertThat(a.back().recommended().burst()).isEqualTo(10);
        assertThat(a.timing().other().back().recommended().burst()).isZero();
    }

    @Test
    void adviceMdStatesTheAssumptionAndHowTheRecommendationsWouldChangeAtTheOtherReading() throws IOException {
        Advice a = advise(read("pages.log", pagesAndAssets(CLIENTS, PAGE_REQUESTS)), options(20.0, WithinSecond.START));

        String md = AdviceWriter.markdown("pages.log", a);

        assertThat(md).contains("- The log's times are whole seconds", "bunched at the start of their second (the times as written)"
                + " (`--within-second start`)");
        assertThat(md).contains("## Within a second", "**Assumed** for every figure and recommendation in this file: requests came"
                + " bunched at the start of their second", "| | bunched at the start (assumed) | spread evenly |");
        assertThat(md).contains("At the other reading (spread evenly) the front recommendation would be the same, rate=1r/s burst=10.",
                "The back limit's burst would be 0 rather than 10.");
        assertThat(md).doesNotContain("Each request reaches nginx at its logged time");
        assertThat(AdviceWriter.front(a, false)).contains("# The log's times are whole seconds; its requests were taken as bunched");
        assertThat(AdviceWriter.terminal(a)).contains("times are whole seconds: assumed bunched at the start of their second");
    }

    @Test
    void aPageWithMoreAssetsThanTheLargestBurstFitsAFrontLimitOnlyWhenSpread() throws IOException {
        // 120 requests in one second: no burst tried (at most 100) holds them at once.
        Advice a = advise(read("heavy.log", pagesAndAssets(10, 120)), options(null, WithinSecond.START));

        FrontCandidate bunched = a.frontPick();
        FrontCandidate spread = a.timing().other().frontPick();
        assertThat(bunched.hurtClients()).isEqualTo(10);
        assertThat(spread.hurtClients()).isZero();
        assertThat(spread.floodPerMinute()).isLessThan(bunched.floodPerMinute());
        assertThat(AdviceWriter.markdown("heavy.log", a)).contains("At the other reading (spread evenly) the front recommendation"
                + " would be **rate=" + spread.rate() + "r/s burst=" + spread.burst() + "**, tighter than rate=" + bunched.rate()
                + "r/s burst=" + bunched.burst());
    }

    @Test
    void withinSecondSpreadMakesTheRecommendationOnTheSpreadReading() throws IOException {
        ParsedLog log = read("heavy.log", pagesAndAssets(10, 120));

        Advice start = advise(log, options(null, WithinSecond.START));
        Advice spread = advise(log, options(null, WithinSecond.SPREAD));

        assertThat(spread.timing().assumed()).isEqualTo(WithinSecond.SPREAD);
        assertThat(spread.frontPick()).isEqualTo(start.timing().other().frontPick());
        assertThat(spread.timing().other().frontPick()).isEqualTo(start.frontPick());
        assertThat(AdviceWriter.markdown("heavy.log", spread)).contains("(`--within-second spread`)",
                "| | spread evenly (assumed) | bunched at the start |", "looser than");
    }

    @Test
    void aLogWithMillisecondTimesIsAdvisedAtItsTimesAsLoggedAndSaysNothingOfSeconds() throws IOException {
        // The same page views, each asset 100 ms after the one before, as nginx's $msec logs them.
        List<String> lines = new ArrayList<>();
        for (int s = 0; s < 120; s++) {
            for (int k = 0; k < PAGE_REQUESTS; k++) {
                lines.add(String.format(Locale.ROOT, "{\"msec\":%d.%03d,\"ip\":\"198.51.100.%d\",\"verb\":\"GET\",\"path\":\"%s\",\"code\":200}",
                        START.plusSeconds(s).toEpochSecond(), k * 100, 1 + s % CLIENTS, k == 0 ? "/" : "/static/asset-" + k + ".css"));
            }
        }
        Path file = Files.write(dir.resolve("msec.jsonl"), lines);
        ParsedLog log;
        Advice asLogged;
        try {
            log = AccessLog.read(file, LogFormat.parse("json:time=msec,client=ip,method=verb,uri=path,status=code"),
                    ReadOptions.defaults());
            asLogged = Advisor.advise(log.requests(), options(20.0, WithinSecond.START));
        } catch (Exception e) {
            throw new AssertionError(e);
        }

        Advice a = advise(log, options(20.0, WithinSecond.START));

        assertThat(log.resolution()).isEqualTo(TimeResolution.SUB_SECOND);
        assertThat(a).isEqualTo(asLogged);
        assertThat(a.timing().wholeSeconds()).isFalse();
        assertThat(a.front(10, 5).hurtClients()).isZero();
        String md = AdviceWriter.markdown("msec.jsonl", a);
        assertThat(md).contains("- Each request reaches nginx at its logged time;").doesNotContain("Within a second", "whole seconds");
        assertThat(AdviceWriter.terminal(a)).doesNotContain("whole seconds");
        assertThat(AdviceWriter.front(a, false)).doesNotContain("whole seconds");
    }
}
