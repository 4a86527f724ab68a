package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** vmod_vsthrottle's token bucket (varnish-modules 0.20), on hand-computed arrivals. */
class VsthrottleTest {

    /** Passed or not, for each time in seconds. */
    static List<Boolean> passes(Vsthrottle throttle, double... times) {
        List<Boolean> got = new ArrayList<>();
        for (double t : times) {
            got.add(!throttle.isDenied("a", t));
        }
        return got;
    }

    static void drain(Vsthrottle throttle, int tokens, double at) {
        for (int i = 0; i < tokens; i++) {
            assertThat(throttle.isDenied("a", at)).isFalse();
        }
    }

    @Test
    void aNewKeyStartsWithAFullBucketThenIsDenied() {
        Vsthrottle throttle = new Vsthrottle(3, 1, 0);
        assertThat(passes(throttle, 10, 10, 10, 10, 10)).containsExactly(true, true, true, false, false);
    }

    @Test
    void aDeniedRequestKeepsTheTimeItHadEarned() {
        // Ten per second, drained at 0. At 0.06 the 0.6 of a token truncates to none: denied, and
        // last_used stays at 0, so at 0.12 the same time earns 1.2 → one token.
        Vsthrottle throttle = new Vsthrottle(10, 1, 0);
        drain(throttle, 10, 0);
        assertThat(passes(throttle, 0.06, 0.12)).containsExactly(false, true);
    }

    @Test
    void aStreamOverTheLimitPassesAtLessThanTheLimit() {
        // varnish-modules#237: a request every 60 ms against ten per second, after the bucket
        // drained. Each pass moves last_used and drops the 0.2 token that 120 ms earned beyond
        // the one taken: one request in two passes, 8 in the next second and a bit, not 10.
        Vsthrottle throttle = new Vsthrottle(10, 1, 0);
        drain(throttle, 10, 0);
        int passed = 0;
        for (int ms = 60; ms <= 1020; ms += 60) {
            passed += throttle.decide("a", ms).accepted() ? 1 : 0;
        }
        assertThat(passed).isEqualTo(8);
    }

    @Test
    void aSteadyRateUnderTheLimitAlwaysPasses() {
        // A request every 150 ms against ten per second earns 1.5 → one token each time.
        Vsthrottle throttle = new Vsthrottle(10, 1, 0);
        drain(throttle, 10, 0);
        List<Boolean> got = new ArrayList<>();
        for (int ms = 150; ms <= 3000; ms += 150) {
            got.add(throttle.decide("a", ms).accepted());
        }
        assertThat(got).containsOnly(true);
    }

    @Test
    void aGapWorthExactlyOneTokenCanEarnNoneOnTheMonotonicClock() {
        // 100.8 - 100.7 is 0.09999999999999432 in doubles: times ten is just under one token.
        Vsthrottle throttle = new Vsthrottle(10, 1, 0);
        drain(throttle, 10, 100.7);
        assertThat(passes(throttle, 100.8)).containsExactly(false);
    }

    @Test
    void aFullPeriodRefillsTheBucketToItsLimitAndNoMore() {
        Vsthrottle throttle = new Vsthrottle(3, 1, 0);
        drain(throttle, 3, 0);
        assertThat(passes(throttle, 5, 5, 5, 5)).containsExactly(true, true, true, false);
    }

    @Test
    void theBlockPeriodDeniesEvenWithTokensUntilItEnds() {
        // Two per second, block 5 s. Drained at 1.0; at 1.25 no token: denied, blocked until 6.25.
        // At 2.0 the 0.75 s earn one token: taken, yet denied (blocked), last_used 2.0. At 6.0 the
        // bucket is full again, one taken, still denied. At 6.25 the block is over: 0.25 s earns
        // nothing, the one token left passes and clears the block; the next finds none and is
        // blocked again.
        Vsthrottle throttle = new Vsthrottle(2, 1, 5);
        drain(throttle, 2, 1.0);
        assertThat(passes(throttle, 1.25, 2.0, 6.0, 6.25, 6.25, 7.0))
                .containsExactly(false, false, false, true, false, false);
    }

    @Test
    void withoutABlockTheSameArrivalsPassAsSoonAsATokenIsEarned() {
        Vsthrottle throttle = new Vsthrottle(2, 1, 0);
        drain(throttle, 2, 1.0);
        assertThat(passes(throttle, 1.25, 2.0, 6.0, 6.25, 6.25, 7.0))
                .containsExactly(false, true, true, true, false, true);
    }
}
