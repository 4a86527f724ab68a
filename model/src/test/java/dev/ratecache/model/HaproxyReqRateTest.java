package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HAProxy 2.6's freq_ctr request rate with a `gt LIMIT` deny, on hand-computed arrivals. */
class HaproxyReqRateTest {

    static final LimitReqStatus P = LimitReqStatus.PASSED;
    static final LimitReqStatus R = LimitReqStatus.REJECTED;

    static List<LimitReqStatus> decide(HaproxyReqRate limit, long... times) {
        List<LimitReqStatus> got = new ArrayList<>();
        for (long t : times) {
            got.add(limit.decide("a", t).status());
        }
        return got;
    }

    @Test
    void burstAtTheStartOfAWindowPassesTheLimitAndDeniesTheRest() {
        // The rate read includes the request being tracked: 1, 2, 3 pass `gt 3`, 4 and 5 do not.
        HaproxyReqRate limit = new HaproxyReqRate(1000, 3, 10_000);
        assertThat(decide(limit, 1000, 1000, 1000, 1000, 1000)).containsExactly(P, P, P, R, R);
    }

    @Test
    void theFirstSecondAfterAFullWindowStillCountsItWholeThenLessByTheMillisecond() {
        // Five at 0 fill the period [0, 1000). At 1000 the previous five weigh whole (remain 1000):
        // 5 + 1 = 6. At 1200: 5*800/1000 + 2 = 6. At 1500: (5*500 + 3*1000)/1000 = 5.5, rounded
        // down to 5, which is not above 5.
        HaproxyReqRate limit = new HaproxyReqRate(1000, 5, 10_000);
        assertThat(decide(limit, 0, 0, 0, 0, 0)).containsOnly(P);
        assertThat(decide(limit, 1000, 1200, 1500)).containsExactly(R, R, P);
    }

    @Test
    void aDeniedRequestStillCounts() {
        // Four at 0 with `gt 3`: the fourth is denied but counted, so at 1200 the previous period
        // weighs 4*800/1000 = 3.2, plus 1 = 4.2 → 4: denied. Had only the three passed counted,
        // 2.4 + 1 = 3 would pass.
        HaproxyReqRate limit = new HaproxyReqRate(1000, 3, 10_000);
        assertThat(decide(limit, 0, 0, 0, 0)).containsExactly(P, P, P, R);
        assertThat(decide(limit, 1200)).containsExactly(R);
    }

    @Test
    void aClientThatKeepsSendingWhileDeniedIsDeniedForGood() {
        // Ten a second against `gt 3` per second: each period counts ten, denied ones included, so
        // from the fourth request on no request ever sees a rate of 3 or less.
        HaproxyReqRate limit = new HaproxyReqRate(1000, 3, 10_000);
        List<LimitReqStatus> got = new ArrayList<>();
        for (long t = 0; t < 5000; t += 100) {
            got.add(limit.decide("a", t).status());
        }
        assertThat(got.subList(0, 3)).containsOnly(P);
        assertThat(got.subList(3, got.size())).containsOnly(R);
    }

    @Test
    void aSteadyRateJustUnderTheLimitAlwaysPasses() {
        // Four a second against `gt 5` per second: from the second period on every read is
        // 4*remain/1000 + k with k requests so far in the period, exactly 5 at each 250 ms.
        HaproxyReqRate limit = new HaproxyReqRate(1000, 5, 10_000);
        List<LimitReqStatus> got = new ArrayList<>();
        for (long t = 0; t < 5000; t += 250) {
            got.add(limit.decide("a", t).status());
        }
        assertThat(got).containsOnly(P);
    }

    @Test
    void aSteadyRateAtTheLimitIsDeniedAfterItsFirstPeriod() {
        // Five a second against `gt 5` per second: the first period passes all five; from then
        // on each read is 5*remain/1000 + k = 6, as the previous period slides out exactly as fast
        // as the current one fills. A fixed window would pass them all.
        HaproxyReqRate limit = new HaproxyReqRate(1000, 5, 10_000);
        List<LimitReqStatus> got = new ArrayList<>();
        for (long t = 0; t < 5000; t += 200) {
            got.add(limit.decide("a", t).status());
        }
        assertThat(got.subList(0, 5)).containsOnly(P);
        assertThat(got.subList(5, got.size())).containsOnly(R);
    }

    @Test
    void periodsStartOnTheFirstRequestsMillisecondRoundedDownToEven() {
        // Ten at 1001 open the period [1000, 1010), not [1001, 1011): at 1015 the previous ten
        // weigh 5/10 (5), where a period from 1001 would give them 6/10 (6).
        HaproxyReqRate limit = new HaproxyReqRate(10, 100, 10_000);
        for (int i = 0; i < 10; i++) {
            limit.decide("a", 1001);
        }
        assertThat(limit.rate("a", 1015)).isEqualTo(5);
    }

    @Test
    void anOddPeriodStartsEachNextPeriodAMillisecondEarlier() {
        // Periods of 11 ms from 1000: the rotation at 1011 starts the next at 1011 & ~1 = 1010, so
        // at 1015 the previous eleven weigh 6/11 (6), plus the one at 1011: 7, not 7/11 + 1 = 8.
        HaproxyReqRate limit = new HaproxyReqRate(11, 100, 10_000);
        for (int i = 0; i < 11; i++) {
            limit.decide("a", 1000);
        }
        limit.decide("a", 1011);
        assertThat(limit.rate("a", 1015)).isEqualTo(7);
    }

    @Test
    void periodsStayAlignedOnTheFirstOneInsteadOfFollowingEachRequest() {
        // Periods of 1000 from 0: a request at 1999 rotates into [1000, 2000) and one at 2000 into
        // [2000, 3000), where the previous period (the one at 1999) weighs whole: 1 + 1 = 2.
        HaproxyReqRate limit = new HaproxyReqRate(1000, 1, 10_000);
        assertThat(decide(limit, 0, 1999, 2000)).containsExactly(P, P, R);
    }

    @Test
    void twoIdlePeriodsForgetEverything() {
        // Ten at 0 (seven denied). At 1999 the ten still weigh 10*1/1000 → 0: 0 + 1 passes. At
        // 2000 nothing was left: the period restarts at 2000 with nothing before it.
        HaproxyReqRate limit = new HaproxyReqRate(1000, 3, 10_000);
        for (int i = 0; i < 10; i++) {
            limit.decide("a", 0);
        }
        assertThat(limit.rate("a", 1999)).isEqualTo(0);
        assertThat(limit.rate("a", 2000)).isEqualTo(0);
        assertThat(decide(limit, 2000, 2000, 2000, 2000)).containsExactly(P, P, P, R);
    }

    @Test
    void anEntryIdleForTheTableExpiryStartsAfresh() {
        // Ten at 0 against `gt 3` per second. With expire 1500 the entry is gone at 1600 and the
        // request is the key's first; with expire 10 s it meets 10*400/1000 + 1 = 5 and is denied.
        HaproxyReqRate expiring = new HaproxyReqRate(1000, 3, 1500);
        HaproxyReqRate kept = new HaproxyReqRate(1000, 3, 10_000);
        for (int i = 0; i < 10; i++) {
            expiring.decide("a", 0);
            kept.decide("a", 0);
        }
        assertThat(expiring.decide("a", 1600).status()).isEqualTo(P);
        assertThat(kept.decide("a", 1600).status()).isEqualTo(R);
    }

    @Test
    void aLoneRequestReadsAsOneThroughTheNextPeriod() {
        // The flapping correction: nothing current and at most one before reads as that one,
        // unweighted, instead of 1*500/1000 → 0; even at 2000, where the period it fell in is
        // two periods back but remain is 0, not below; at 2001 it is gone.
        HaproxyReqRate limit = new HaproxyReqRate(1000, 3, 10_000);
        limit.decide("a", 0);
        assertThat(limit.rate("a", 1500)).isEqualTo(1);
        assertThat(limit.rate("a", 2000)).isEqualTo(1);
        assertThat(limit.rate("a", 2001)).isEqualTo(0);
    }

    @Test
    void keysAreCountedApart() {
        HaproxyReqRate limit = new HaproxyReqRate(1000, 1, 10_000);
        assertThat(limit.decide("a", 0).status()).isEqualTo(P);
        assertThat(limit.decide("b", 0).status()).isEqualTo(P);
        assertThat(limit.decide("a", 0).status()).isEqualTo(R);
    }
}
