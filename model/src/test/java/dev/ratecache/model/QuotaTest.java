package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.model.QuotaLimiter.Answer;
import dev.ratecache.model.QuotaLimiter.KeyWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The quota's three window modes on hand-made arrivals: window edges, the sliding estimate, calendar's short window. */
class QuotaTest {
    private static final long DAY = QuotaSpec.DAY_MS;
    /** 2026-11-20T00:00:00Z, a UTC midnight. */
    private static final long MIDNIGHT = 1_795_132_800_000L;

    /** Admitted or not, for each time in ms, all of key "a". */
    private static List<Boolean> admitted(QuotaLimiter quota, long... times) {
        List<Boolean> got = new ArrayList<>();
        for (long t : times) {
            got.add(quota.answer("a", t).admitted());
        }
        return got;
    }

    private static QuotaLimiter quota(long n, long windowMs, QuotaWindow mode) {
        return new QuotaLimiter(QuotaSpec.of(n, windowMs, mode));
    }

    @Test
    void theMidnightConstantIsOne() {
        assertThat(MIDNIGHT % DAY).isZero();
    }

    @Test
    void fixedAdmitsNPerEpochAlignedWindowAndARejectionConsumesNothing() {
        QuotaLimiter q = quota(3, 60_000, QuotaWindow.FIXED);
        // Window [60 000, 120 000): three admitted, the rest rejected up to its last millisecond.
        assertThat(admitted(q, 60_000, 61_000, 62_000, 63_000, 119_999)).containsExactly(true, true, true, false, false);
        // The next window starts whole: the two rejections cost nothing.
        assertThat(admitted(q, 120_000, 120_001, 120_002, 120_003)).containsExactly(true, true, true, false);
    }

    @Test
    void fixedTellsTheRemainingAndTheResetInWholeSecondsRoundedUp() {
        QuotaLimiter q = quota(3, 60_000, QuotaWindow.FIXED);
        assertThat(q.answer("a", 60_000)).isEqualTo(new Answer(true, 2, 60));
        assertThat(q.answer("a", 100_500)).isEqualTo(new Answer(true, 1, 20));
        assertThat(q.answer("a", 118_999)).isEqualTo(new Answer(true, 0, 2));
        assertThat(q.answer("a", 119_999)).isEqualTo(new Answer(false, 0, 1));
    }

    @Test
    void keysCountApart() {
        QuotaLimiter q = quota(1, 1000, QuotaWindow.FIXED);
        assertThat(q.answer("a", 0).admitted()).isTrue();
        assertThat(q.answer("b", 0).admitted()).isTrue();
        assertThat(q.answer("a", 1).admitted()).isFalse();
    }

    @Test
    void calendarIsFixedWhenTheWindowDividesADay() {
        for (long w : new long[] {60_000, 3_600_000, 4 * 3_600_000, DAY}) {
            QuotaSpec calendar = QuotaSpec.of(5, w, QuotaWindow.CALENDAR);
            QuotaSpec fixed = QuotaSpec.of(5, w, QuotaWindow.FIXED);
            for (long t : new long[] {MIDNIGHT - 1, MIDNIGHT, MIDNIGHT + 12_345_678, MIDNIGHT + DAY - 1}) {
                assertThat(calendar.windowStart(t)).isEqualTo(fixed.windowStart(t));
                assertThat(calendar.windowEnd(t)).isEqualTo(fixed.windowEnd(t));
            }
        }
    }

    @Test
    void calendarRestartsAtUtcMidnightAndTheDaysLastWindowIsShort() {
        // Seven hours: windows at 0, 7, 14 and 21 h, the last three hours long.
        long seven = 7 * 3_600_000L;
        QuotaSpec spec = QuotaSpec.of(2, seven, QuotaWindow.CALENDAR);
        assertThat(spec.windowStart(MIDNIGHT + 22 * 3_600_000L)).isEqualTo(MIDNIGHT + 3 * seven);
        assertThat(spec.windowEnd(MIDNIGHT + 22 * 3_600_000L)).isEqualTo(MIDNIGHT + DAY);
        // Fixed windows of seven hours straddle the midnight instead.
        QuotaSpec fixed = QuotaSpec.of(2, seven, QuotaWindow.FIXED);
        assertThat(fixed.windowEnd(MIDNIGHT + DAY - 1)).isNotEqualTo(MIDNIGHT + DAY);

        QuotaLimiter q = new QuotaLimiter(spec);
        long lastHour = MIDNIGHT + DAY - 3_600_000L;
        assertThat(admitted(q, lastHour, lastHour + 1, lastHour + 2)).containsExactly(true, true, false);
        // The short window resets at midnight, not seven hours after 21 h.
        assertThat(q.answer("a", MIDNIGHT + DAY - 1)).isEqualTo(new Answer(false, 0, 1));
        assertThat(admitted(q, MIDNIGHT + DAY, MIDNIGHT + DAY + 1, MIDNIGHT + DAY + 2))
                .containsExactly(true, true, false);
        // The reset counts to midnight from inside the short window.
        QuotaLimiter fresh = new QuotaLimiter(spec);
        assertThat(fresh.answer("b", MIDNIGHT + DAY - 3_600_000L)).isEqualTo(new Answer(true, 1, 3600));
    }

    @Test
    void aCalendarWindowLongerThanADayIsRefused() {
        assertThatThrownBy(() -> QuotaSpec.of(1, DAY + 1, QuotaWindow.CALENDAR))
                .hasMessageContaining("a calendar window is at most a day");
    }

    @Test
    void slidingWeighsThePreviousWindowByWhatIsLeftOfIt() {
        // N = 10, W = 1 s. Eight admitted in window 0; in window 1 at e = 250 ms the estimate is
        // 8 · 0.75 = 6, so four more fit (6 + 4 = 10) and the fifth does not.
        QuotaLimiter q = quota(10, 1000, QuotaWindow.SLIDING);
        for (int k = 0; k < 8; k++) {
            assertThat(q.answer("a", 100).admitted()).isTrue();
        }
        assertThat(q.estimate("a", 1250)).isEqualTo(6.0);
        assertThat(q.answer("a", 1250)).isEqualTo(new Answer(true, 3, 1));
        assertThat(admitted(q, 1250, 1250, 1250, 1250)).containsExactly(true, true, true, false);
        // At e = 750 the previous window weighs 2: 2 + 4 = 6, four more.
        assertThat(q.estimate("a", 1750)).isEqualTo(6.0);
        assertThat(admitted(q, 1750, 1750, 1750, 1750, 1750)).containsExactly(true, true, true, true, false);
    }

    @Test
    void slidingsRemainingIsTheFloorOfWhatTheEstimateLeaves() {
        // Five in window 0; at e = 300 ms the estimate after one more is 5 · 0.7 + 1 = 4.5: r = floor(5.5) = 5.
        QuotaLimiter q = quota(10, 1000, QuotaWindow.SLIDING);
        for (int k = 0; k < 5; k++) {
            q.answer("a", 0);
        }
        assertThat(q.answer("a", 1300)).isEqualTo(new Answer(true, 5, 1));
    }

    @Test
    void slidingForgetsAWindowOlderThanThePreviousOne() {
        QuotaLimiter q = quota(2, 1000, QuotaWindow.SLIDING);
        assertThat(admitted(q, 999, 999, 999)).containsExactly(true, true, false);
        // Window 1 at e = 0 still carries window 0's two whole.
        assertThat(admitted(q, 1000)).containsExactly(false);
        // Window 2: window 1 admitted nothing, and window 0 no longer counts.
        assertThat(admitted(q, 2000, 2000, 2000)).containsExactly(true, true, false);
    }

    @Test
    void slidingAtWorstLetsTwoNMinusOneThroughOneTrueWindow() {
        // N = 10, W = 1000 ms: ten at the last millisecond of window 0, then as many as fit just before
        // that millisecond slides out of the true window [999, 1998].
        QuotaLimiter q = quota(10, 1000, QuotaWindow.SLIDING);
        List<Long> admittedAt = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            if (q.answer("a", 999).admitted()) {
                admittedAt.add(999L);
            }
        }
        for (int k = 0; k < 20; k++) {
            if (q.answer("a", 1998).admitted()) {
                admittedAt.add(1998L);
            }
        }
        assertThat(admittedAt).hasSize(19);
        assertThat(mostInATrueWindow(admittedAt, 1000)).isEqualTo(2 * 10 - 1);
    }

    @Test
    void slidingNeverLetsMoreThanTwoNMinusOneThroughAnyTrueWindowOfRandomTraffic() {
        Random random = new Random(38);
        for (int run = 0; run < 200; run++) {
            int n = 1 + random.nextInt(20);
            long w = 100 + random.nextInt(2000);
            QuotaLimiter q = quota(n, w, QuotaWindow.SLIDING);
            List<Long> admittedAt = new ArrayList<>();
            long t = random.nextInt(1000);
            for (int k = 0; k < 2000; k++) {
                // Bursts and gaps: often the same millisecond, sometimes a long pause.
                t += random.nextInt(4) == 0 ? random.nextInt((int) w) : random.nextInt(3);
                if (q.answer("a", t).admitted()) {
                    admittedAt.add(t);
                }
            }
            assertThat(mostInATrueWindow(admittedAt, w)).isLessThanOrEqualTo(2L * n - 1);
        }
    }

    @Test
    void slidingsEstimateIsTheTrueCountWhenThePreviousWindowCameEvenly() {
        // Ten in window 0 at the middle of each tenth of it (50, 150, ... 950 ms). A tenth into
        // window 1 the true window (t - 1000, t] has lost one of them, and the estimate says so;
        // between the tenths it is off by at most half a request.
        QuotaLimiter q = quota(100, 1000, QuotaWindow.SLIDING);
        List<Long> sent = new ArrayList<>();
        for (long t = 50; t < 1000; t += 100) {
            q.answer("a", t);
            sent.add(t);
        }
        for (long t = 1000; t < 2000; t += 10) {
            long now = t;
            long trueCount = sent.stream().filter(s -> s > now - 1000).count();
            if ((t - 1000) % 100 == 0) {
                assertThat(q.estimate("a", t)).as("at %d", t).isEqualTo((double) trueCount);
            }
            assertThat(Math.abs(q.estimate("a", t) - trueCount)).as("at %d", t).isLessThanOrEqualTo(0.5);
        }
    }

    @Test
    void underEvenOverloadSlidingSettlesAtNMinusOnePerWindow() {
        // 20 a second, evenly, against N = 10 a second. With 9 in the previous window, the 10th
        // of a window would come at 950 ms, where 9 · 0.05 + 9 + 1 > 10: the previous window's
        // last sliver still weighs, so a steady overload gets N - 1 a window, never more than N.
        QuotaLimiter q = quota(10, 1000, QuotaWindow.SLIDING);
        List<Long> admittedAt = new ArrayList<>();
        for (long t = 0; t < 20_000; t += 50) {
            if (q.answer("a", t).admitted()) {
                admittedAt.add(t);
            }
        }
        List<Long> later = admittedAt.stream().filter(t -> t >= 2000).toList();
        assertThat(mostInATrueWindow(later, 1000)).isEqualTo(9);
        assertThat(later).hasSize(18 * 9);
    }

    @Test
    void aQuotaIsALimitTheSimulationCanKeyByClient() {
        QuotaSpec daily = QuotaSpec.daily(2);
        assertThat(daily.rejectStatus()).isEqualTo(429);
        Limiter limiter = daily.limiter();
        assertThat(limiter.decide("k", MIDNIGHT).accepted()).isTrue();
        assertThat(limiter.decide("k", MIDNIGHT + 1).accepted()).isTrue();
        assertThat(limiter.decide("k", MIDNIGHT + 2).status()).isEqualTo(LimitReqStatus.REJECTED);
    }

    @Test
    void theSimulationAnswersAnExhaustedQuotaWith429PerClient() {
        SimulationSpec spec = new SimulationSpec(QuotaSpec.of(3, 60_000, QuotaWindow.FIXED), null, null,
                SuiteFixture.origin(200), 0, 0);
        List<Arrival> arrivals = new ArrayList<>();
        for (long t = 0; t < 5; t++) {
            arrivals.add(new Arrival(t, "a", "/hare"));
        }
        arrivals.add(new Arrival(10, "b", "/hare"));
        arrivals.add(new Arrival(60_000, "a", "/hare"));

        List<RequestOutcome> got = Simulation.run(spec, new Workload.Open(arrivals)).requests();

        assertThat(got).extracting(RequestOutcome::status).containsExactly(200, 200, 200, 429, 429, 200, 200);
    }

    @Test
    void windowsSayPerKeyWhenTheQuotaRanOutAndHowMuchWasRejectedAfter() {
        QuotaSpec spec = QuotaSpec.of(3, 60_000, QuotaWindow.FIXED);
        List<Arrival> arrivals = new ArrayList<>();
        for (long t = 0; t < 10_000; t += 1000) {
            arrivals.add(new Arrival(t, "early", "/"));
        }
        arrivals.add(new Arrival(30_000, "spread", "/"));
        arrivals.add(new Arrival(61_000, "early", "/"));

        List<KeyWindow> windows = QuotaLimiter.windows(spec, arrivals);

        assertThat(windows).containsExactly(
                new KeyWindow("early", 0, 60_000, 3, 7, 3000, 0),
                new KeyWindow("early", 60_000, 120_000, 1, 0, -1, 0),
                new KeyWindow("spread", 0, 60_000, 1, 0, -1, 0));
    }

    @Test
    void slidingWindowsCountWhatIsAdmittedAfterTheQuotaRanOut() {
        // Ten at the end of window 0 (N = 10), then one every 100 ms through window 1: the estimate
        // starts full and decays, so requests are admitted again after the first rejection.
        QuotaSpec spec = QuotaSpec.of(10, 1000, QuotaWindow.SLIDING);
        List<Arrival> arrivals = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            arrivals.add(new Arrival(999, "a", "/"));
        }
        for (long t = 1000; t < 2000; t += 100) {
            arrivals.add(new Arrival(t, "a", "/"));
        }

        KeyWindow w1 = QuotaLimiter.windows(spec, arrivals).get(1);

        // At e = 0 the estimate is 10: rejected. At e = 100 it is 9, room for one; at e = 200 it is
        // 8 + 1, room for one again: each tenth of the window frees the one request it admits.
        assertThat(w1.exhaustedMs()).isEqualTo(1000);
        assertThat(w1.rejected()).isEqualTo(1);
        assertThat(w1.admitted()).isEqualTo(9);
        assertThat(w1.admittedAfter()).isEqualTo(9);
    }

    /** The most of {@code times} (ascending) inside any [s, s + w - 1]. */
    private static long mostInATrueWindow(List<Long> times, long w) {
        long most = 0;
        int lo = 0;
        for (int hi = 0; hi < times.size(); hi++) {
            while (times.get(hi) - times.get(lo) >= w) {
                lo++;
            }
            most = Math.max(most, hi - lo + 1);
        }
        return most;
    }
}
