package dev.ratecache.suite.advise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.accesslog.AccessLog;
import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.stats.NearestRank;
import dev.ratecache.suite.advise.QuotaAdvisor.Candidate;
import dev.ratecache.suite.advise.QuotaAdvisor.OutlierKey;
import dev.ratecache.suite.advise.QuotaAdvisor.QuotaAdvice;
import dev.ratecache.suite.advise.QuotaAdvisor.TierQuota;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.TierMembership;
import dev.ratecache.suite.switches.TiersFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** advise's daily quota per tier, on a generated week of keyed traffic. */
class QuotaAdviceTest {
    private static final MultiDayLog WEEK = MultiDayLog.generate(38, 7);
    private static List<LoggedRequest> read;
    private static List<LimitTier> tiers;

    @TempDir
    static Path dir;

    @BeforeAll
    static void readTheWrittenLog() throws Exception {
        Path log = WEEK.write(dir, "week.jsonl");
        read = AccessLog.read(log, dev.ratecache.accesslog.LogFormat.AUTO,
                dev.ratecache.accesslog.ReadOptions.defaults().keyField(MultiDayLog.KEY_FIELD)).requests();
        tiers = TiersFile.read(dir.resolve("tiers-in.txt"));
    }

    private static QuotaAdvice advise(List<LoggedRequest> requests, List<LimitTier> given, double pct) {
        TierMembership m = TierMembership.of(given);
        return QuotaAdvisor.advise(requests, pct, m.names(), m::tierOf, LimitTier.ANONYMOUS);
    }

    private static Map<String, TierQuota> byTier(QuotaAdvice q) {
        return q.tiers().stream().collect(Collectors.toMap(TierQuota::tier, t -> t));
    }

    /** The generator's own daily counts of a tier's keys, heavy ones apart, sorted. */
    private static long[] normalKeyDays(String tier) {
        Map<String, Map<LocalDate, Long>> daily = WEEK.daily();
        return WEEK.keys().stream().filter(k -> k.tier().equals(tier) && !k.heavy())
                .flatMap(k -> daily.getOrDefault(k.name(), Map.of()).values().stream())
                .mapToLong(Long::longValue).sorted().toArray();
    }

    @Test
    void theGeneratorIsSmallSeededAndSpansItsDays() {
        assertThat(MultiDayLog.generate(38, 7).jsonLines()).isEqualTo(WEEK.jsonLines());
        assertThat(MultiDayLog.generate(39, 7).jsonLines()).isNotEqualTo(WEEK.jsonLines());
        assertThat(WEEK.requests()).hasSizeBetween(5_000, 60_000);
        assertThat(read).hasSameSizeAs(WEEK.requests());
        assertThat(WEEK.requests().get(0).day()).isEqualTo(MultiDayLog.FIRST_DAY);
        assertThat(WEEK.requests().get(WEEK.requests().size() - 1).day()).isEqualTo(MultiDayLog.FIRST_DAY.plusDays(6));
        // Daily variation: weekdays busier than the weekend, and normal keys with days of their own.
        long[] free = normalKeyDays("free");
        assertThat(free[free.length - 1]).isGreaterThan(2 * NearestRank.percentile(free, 50));
        Map<LocalDate, Long> perDay = WEEK.requests().stream()
                .collect(Collectors.groupingBy(MultiDayLog.Request::day, Collectors.counting()));
        assertThat(perDay.get(MultiDayLog.FIRST_DAY.plusDays(5))).isLessThan(perDay.get(MultiDayLog.FIRST_DAY.plusDays(2)));
    }

    @Test
    void eachTiersQuotaIsTheNinetyNinthPercentileOfItsNormalKeyDays() {
        QuotaAdvice q = advise(read, tiers, 1);

        assertThat(q.advised()).isTrue();
        assertThat(q.firstDay()).isEqualTo(MultiDayLog.FIRST_DAY);
        assertThat(q.wholeDays()).isEqualTo(7);
        Map<String, TierQuota> t = byTier(q);
        assertThat(t.keySet()).containsExactlyInAnyOrder("free", "pro", "anonymous");
        for (String tier : List.of("free", "pro")) {
            long[] days = normalKeyDays(tier);
            TierQuota quota = t.get(tier);
            assertThat(quota.keyDays()).isEqualTo(days.length);
            assertThat(quota.allowedCut()).isEqualTo(days.length / 100);
            assertThat(quota.pick().limit()).as(tier).isEqualTo(NearestRank.percentile(days, 99));
            // The tightest: within the share, and one less is not.
            long n = quota.pick().limit();
            assertThat(over(days, n)).isLessThanOrEqualTo(quota.allowedCut());
            assertThat(over(days, n - 1)).isGreaterThan(quota.allowedCut());
            assertThat(quota.pick().keyDaysCut()).isEqualTo(over(days, n));
            // The heavy key, and only it, is the tier's outlier, and the quota cuts it.
            assertThat(quota.outliers()).extracting(OutlierKey::key).containsExactly(tier + "-heavy");
            assertThat(quota.pick().outlierKeysCut()).isEqualTo(1);
        }
    }

    @Test
    void aLargerShareGivesATighterQuota() {
        TierQuota at1 = byTier(advise(read, tiers, 1)).get("pro");
        TierQuota at10 = byTier(advise(read, tiers, 10)).get("pro");
        assertThat(at10.pick().limit()).isEqualTo(NearestRank.percentile(normalKeyDays("pro"), 90));
        assertThat(at10.pick().limit()).isLessThan(at1.pick().limit());
    }

    @Test
    void theCalendarRejectionsAreEachKeyDaysCountOverTheQuotaAndSlidingIsBesideThem() {
        Map<String, Map<LocalDate, Long>> daily = WEEK.daily();
        for (TierQuota quota : byTier(advise(read, tiers, 1)).values()) {
            if (quota.tier().equals("anonymous")) {
                continue;
            }
            for (Candidate c : quota.candidates()) {
                long expected = WEEK.keys().stream().filter(k -> k.tier().equals(quota.tier()))
                        .flatMap(k -> daily.getOrDefault(k.name(), Map.of()).values().stream())
                        .mapToLong(count -> Math.max(0, count - c.limit())).sum();
                assertThat(c.rejected()).as("%s %d", quota.tier(), c.limit()).isEqualTo(expected);
                assertThat(c.rejectedSliding()).isGreaterThanOrEqualTo(0);
            }
            // The heavy key sends its 25 days' worth every day: sliding carries yesterday's over.
            assertThat(quota.pick().rejectedSliding()).isGreaterThan(quota.pick().rejected());
        }
    }

    @Test
    void theCandidatesAreRoundQuotasAroundThePick() {
        TierQuota free = byTier(advise(read, tiers, 1)).get("free");
        List<Long> limits = free.candidates().stream().map(Candidate::limit).toList();
        assertThat(limits).isSorted().contains(free.pick().limit());
        assertThat(limits.get(0)).isLessThanOrEqualTo(free.medianDay());
        assertThat(limits.get(limits.size() - 1)).isGreaterThanOrEqualTo(
                free.outliers().get(0).busiestDay());
        assertThat(QuotaAdvisor.round(7, 130)).containsExactly(5L, 10L, 20L, 50L, 100L, 200L);
        assertThat(QuotaAdvisor.round(0, 1)).containsExactly(1L);
        assertThat(QuotaAdvisor.round(1000, 1000)).containsExactly(1000L);
    }

    @Test
    void aSingleDayLogGetsNoQuotaAdviceAndSaysWhy() {
        MultiDayLog day = MultiDayLog.generate(38, 1);
        List<LoggedRequest> requests = day.requests().stream().map(QuotaAdviceTest::logged).toList();

        QuotaAdvice q = advise(requests, tiers, 1);

        assertThat(q.advised()).isFalse();
        assertThat(q.tiers()).isEmpty();
        assertThat(q.none()).isEqualTo("the log spans one UTC day (2026-11-16): a daily quota needs a log of two days or more");
        assertThat(QuotaAdviceReport.terminal(q)).isEqualTo("daily quota per tier: none advised: " + q.none());
        assertThat(QuotaAdviceReport.markdown(q)).contains("## Daily quota per tier\n\nNone advised: the log spans one UTC day");
    }

    @Test
    void onlyWholeDaysCount() {
        // Noon to noon: two dates, no whole day.
        long noon = MultiDayLog.FIRST_DAY.toEpochDay() * 86_400_000L + 43_200_000L;
        List<LoggedRequest> halves = List.of(request(noon, "k"), request(noon + 86_400_000L, "k"));
        assertThat(advise(halves, List.of(), 1).none()).startsWith("the log (2026-11-16T12:00:00Z to 2026-11-17T12:00:00Z)"
                + " covers no whole UTC day");
        // Leave out the first day's first hour: the first day is no longer whole.
        List<LoggedRequest> late = read.stream().filter(r -> r.time().toInstant().toEpochMilli()
                >= MultiDayLog.FIRST_DAY.toEpochDay() * 86_400_000L + 3_600_000L).toList();
        QuotaAdvice q = advise(late, tiers, 1);
        assertThat(q.firstDay()).isEqualTo(MultiDayLog.FIRST_DAY.plusDays(1));
        assertThat(q.wholeDays()).isEqualTo(6);
        // Leave out the last day's last hour: the last day is no longer whole either.
        long lastHour = MultiDayLog.FIRST_DAY.plusDays(7).toEpochDay() * 86_400_000L - 3_600_000L;
        QuotaAdvice both = advise(late.stream().filter(r -> r.time().toInstant().toEpochMilli() < lastHour).toList(),
                tiers, 1);
        assertThat(both.firstDay()).isEqualTo(MultiDayLog.FIRST_DAY.plusDays(1));
        assertThat(both.lastDay()).isEqualTo(MultiDayLog.FIRST_DAY.plusDays(5));
        assertThat(both.wholeDays()).isEqualTo(5);
    }

    @Test
    void theReportHasTheTableInAdviceMdAndTheTerminal() throws Exception {
        QuotaAdvice q = advise(read, tiers, 1);
        TierQuota pro = byTier(q).get("pro");
        String md = QuotaAdviceReport.markdown(q);
        assertThat(md).contains("## Daily quota per tier", "2026-11-16 to 2026-11-22 (7 days)",
                "| pro | 21 | ", "**" + pro.pick().limit() + "/d**", "### pro: " + pro.pick().limit() + " a day",
                "| N/day | key-days cut | key-days cut % | normal keys cut | outlier keys cut | rejected | rejected % | rejected, sliding |",
                "Outlier keys: pro-heavy (busiest day ");
        String terminal = QuotaAdviceReport.terminal(q);
        assertThat(terminal).startsWith("daily quota per tier over the whole UTC days 2026-11-16 to 2026-11-22 (7 days)")
                .contains("  pro: 21 keys (1 outlier), " + pro.keyDays() + " normal key-days, median " + pro.medianDay()
                        + " a day; recommended " + pro.pick().limit() + "/d")
                .contains("N/day  key-days cut  key-days cut %");
        Files.writeString(dir.resolve("quota.md"), md);
    }

    private static LoggedRequest logged(MultiDayLog.Request r) {
        return new LoggedRequest(0, Instant.ofEpochMilli(r.epochMs()).atOffset(ZoneOffset.UTC), r.client(), "GET",
                r.uri(), 200, OptionalLong.empty(), OptionalDouble.empty(), OptionalDouble.empty(), r.key());
    }

    private static LoggedRequest request(long ms, String key) {
        return logged(new MultiDayLog.Request(ms, key, "10.0.0.1", "/"));
    }

    private static int over(long[] days, long n) {
        int over = 0;
        for (long d : days) {
            over += d > n ? 1 : 0;
        }
        return over;
    }
}
