package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.TraefikRateLimit.Outcome;
import dev.ratecache.model.TraefikRateLimit.Store;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Traefik 3.7's RateLimit middleware (x/time/rate in memory, the Lua script in Redis), on hand-computed arrivals. */
class TraefikRateLimitTest {
    static final long S = 1_000_000_000L;
    static final long MS = 1_000_000L;
    /** A Unix time on a whole second, so that the ttlmap's whole seconds fall where a test says. */
    static final long T0 = 1_800_000_000L * S;

    static List<Boolean> passes(TraefikRateLimit limit, long... offsetsNs) {
        List<Boolean> got = new ArrayList<>();
        for (long t : offsetsNs) {
            got.add(limit.outcome("a", T0 + t).passed());
        }
        return got;
    }

    @Test
    void averagePeriodAndBurstBecomeARateAHalfTokenDelayAndAKeepTime() {
        TraefikRateLimit ten = new TraefikRateLimit(10, 0, 5, Store.MEMORY);
        assertThat(ten.rate()).isEqualTo(10.0);
        assertThat(ten.maxDelayNs()).isEqualTo(50 * MS);
        assertThat(ten.ttlSeconds()).isEqualTo(2);
        // 29 per 10 s is 2.9 r/s, truncated to 2 for maxDelay: 1 s / 4, not 1 s / 5.8.
        TraefikRateLimit odd = new TraefikRateLimit(29, 10 * S, 1, Store.MEMORY);
        assertThat(odd.rate()).isEqualTo(2.9);
        assertThat(odd.maxDelayNs()).isEqualTo(250 * MS);
        // Below 1 r/s: maxDelay is half a second, and the bucket is kept 1 + 1/rate seconds.
        TraefikRateLimit slow = new TraefikRateLimit(1, 4 * S, 1, Store.MEMORY);
        assertThat(slow.maxDelayNs()).isEqualTo(500 * MS);
        assertThat(slow.ttlSeconds()).isEqualTo(5);
    }

    @Test
    void aBurstOfZeroIsOne() {
        TraefikRateLimit limit = new TraefikRateLimit(1, 0, 0, Store.MEMORY);
        assertThat(passes(limit, 0, 0)).containsExactly(true, false);
    }

    @Test
    void aNewSourcePassesItsBurstAtOnceAndARejectionCostsNothing() {
        TraefikRateLimit limit = new TraefikRateLimit(10, 0, 3, Store.MEMORY);
        assertThat(passes(limit, 0, 0, 0, 0, 0)).containsExactly(true, true, true, false, false);
        // Rejected at 0 and 0: they took nothing, so 100 ms later one whole token is there.
        assertThat(passes(limit, 100 * MS, 100 * MS)).containsExactly(true, false);
    }

    @Test
    void aRequestWithinHalfATokenIsDelayedNotRejected() {
        // 10 r/s, burst 1, drained at 0: at 60 ms 0.6 of a token is there, the wait 40 ms is
        // under maxDelay (50 ms), so the request sleeps 40 ms and passes; its reservation took
        // the token ahead, so at 120 ms the balance is -0.4 + 0.6 - 1 = -0.8: 80 ms, rejected.
        TraefikRateLimit limit = new TraefikRateLimit(10, 0, 1, Store.MEMORY);
        assertThat(limit.outcome("a", T0).waitNs()).isZero();
        Outcome delayed = limit.outcome("a", T0 + 60 * MS);
        assertThat(delayed.passed()).isTrue();
        assertThat(delayed.waitNs()).isBetween(40 * MS - 1, 40 * MS);
        Outcome rejected = limit.outcome("a", T0 + 120 * MS);
        assertThat(rejected.passed()).isFalse();
        assertThat(rejected.waitNs()).isBetween(80 * MS - 1, 80 * MS);
        assertThat(rejected.retryAfterSeconds()).isEqualTo(1);
        assertThat(limit.decide("a", (T0 + 200 * MS) / MS)).isEqualTo(new Decision(LimitReqStatus.PASSED, 0, 0, 0));
    }

    @Test
    void theModelsDelayIsTheWaitRoundedUpToAMillisecond() {
        TraefikRateLimit limit = new TraefikRateLimit(10, 0, 1, Store.MEMORY);
        limit.decide("a", T0 / MS);
        assertThat(limit.decide("a", T0 / MS + 61)).isEqualTo(new Decision(LimitReqStatus.DELAYED, 39, 0, 0));
    }

    @Test
    void anIdleSourceGetsAFullBucketBackOnTheTtlmapsWholeSecondsNotByItsRefill() {
        // 1 r/s, burst 5, kept 2 s. Drained at 10.9 s (expiry 12): at 12.0 s, 1.1 s later, the
        // bucket is gone and a new one passes 5, where 1.1 s of refill would pass one.
        TraefikRateLimit limit = new TraefikRateLimit(1, 0, 5, Store.MEMORY);
        long at = 900 * MS;
        assertThat(passes(limit, at, at, at, at, at, at)).containsExactly(true, true, true, true, true, false);
        long back = 2 * S;
        assertThat(passes(limit, back, back, back, back, back, back)).containsExactly(true, true, true, true, true, false);
    }

    @Test
    void beforeItsExpiryASourceRefillsAtTheRate() {
        TraefikRateLimit limit = new TraefikRateLimit(1, 0, 5, Store.MEMORY);
        assertThat(passes(limit, 0, 0, 0, 0, 0)).containsOnly(true);
        // At 1.9 s (expiry 2) 1.9 tokens have come: one passes, the next is 0.1 short, a wait of
        // 100 ms under maxDelay (500 ms), so it is delayed; the third would wait 1.1 s.
        assertThat(passes(limit, 1900 * MS, 1900 * MS, 1900 * MS)).containsExactly(true, true, false);
    }

    @Test
    void averageZeroPassesEverythingInMemoryAndRejectsEverythingInRedis() {
        assertThat(passes(new TraefikRateLimit(0, 0, 1, Store.MEMORY), 0, 0, 0)).containsOnly(true);
        Outcome redis = new TraefikRateLimit(0, 0, 1, Store.REDIS).outcome("a", T0);
        assertThat(redis.passed()).isFalse();
        assertThat(redis.waitNs()).isZero();
    }

    @Test
    void redisKeepsTheSameBucketToTheMicrosecond() {
        TraefikRateLimit limit = new TraefikRateLimit(10, 0, 3, Store.REDIS);
        assertThat(passes(limit, 0, 0, 0, 0)).containsExactly(true, true, true, false);
        assertThat(passes(limit, 60 * MS, 120 * MS)).containsExactly(true, false);
    }

    @Test
    void redisExpiresAnIdleKeyToTheMillisecondNotOnWholeSeconds() {
        // 1 r/s, burst 5, ttl 2 s. Drained at 0.9 s; at 2.8 s (1.9 s later) the key is still there.
        TraefikRateLimit limit = new TraefikRateLimit(1, 0, 5, Store.REDIS);
        long at = 900 * MS;
        assertThat(passes(limit, at, at, at, at, at)).containsOnly(true);
        assertThat(passes(limit, 2800 * MS, 2800 * MS, 2800 * MS)).containsExactly(true, true, false);
        TraefikRateLimit memory = new TraefikRateLimit(1, 0, 5, Store.MEMORY);
        assertThat(passes(memory, at, at, at, at, at)).containsOnly(true);
        // In memory the expiry was 2 (unix), passed at 2.8 s: a full bucket again.
        assertThat(passes(memory, 2800 * MS, 2800 * MS, 2800 * MS)).containsOnly(true);
    }

    @Test
    void redisGivesBackTheTokenOfAWaitJustAboveMaxDelaysWholeMicrosecondsWhichGoStillServes() {
        // 3 r/s, burst 1: maxDelay 166 666 666 ns, 166 666 µs in the script. At 166 667 µs the
        // wait is 166 666.33 µs: above 166 666, so the script gives its token back; Go reads
        // 166 666 333 ns, under maxDelay, and serves it after the wait. Memory charges it.
        long second = 166_667_000L;
        TraefikRateLimit redis = new TraefikRateLimit(3, 0, 1, Store.REDIS);
        assertThat(passes(redis, 0, second, second)).containsExactly(true, true, true);
        TraefikRateLimit memory = new TraefikRateLimit(3, 0, 1, Store.MEMORY);
        assertThat(passes(memory, 0, second, second)).containsExactly(true, true, false);
    }

    @Test
    void luasToStringKeepsFourteenDigits() {
        assertThat(TraefikRateLimit.luaToString(166666.33333333334)).isEqualTo(166666.33333333);
        assertThat(TraefikRateLimit.luaToString(0.5)).isEqualTo(0.5);
    }

    @Test
    void goDurationSecondsAddsWholeSecondsAndTheRest() {
        assertThat(TraefikRateLimit.seconds(1_500_000_000L)).isEqualTo(1.5);
        assertThat(TraefikRateLimit.seconds(-1)).isEqualTo(-1e-9);
    }

    @Test
    void theSuitesMappingIsAverageRPerSecondAndBurstPlusOne() {
        assertThat(LimitSpec.traefik(100, 200, 429))
                .isEqualTo(new TraefikRateLimitSpec(100, 1000, 201, Store.MEMORY, 429));
        // From an idle bucket B+1 pass at once, as nginx's nodelay burst, and the next is refused.
        Limiter limiter = LimitSpec.traefik(10, 5, 429).limiter();
        List<Boolean> got = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            got.add(limiter.decide("a", T0 / MS).accepted());
        }
        assertThat(got).containsExactly(true, true, true, true, true, true, false);
    }

    @Test
    void inTheSimulationAFloodAtTwiceTheRatePassesWhatNginxPassesSomeHeldForTheirToken() {
        // 20 r/s for 20 s against 10 r/s, burst 5 (ProductLimitsTest's flood): a rejection costs
        // nothing and fractions carry over, so Traefik passes nginx's count within one; every
        // second request arrives half a token short, a wait of 50 ms, which maxDelay (50 ms) allows.
        SimulationResult r = ProductLimitsTest.front(LimitSpec.traefik(10, 5, 429));
        int nginx = ProductLimitsTest.passedAt(ProductLimitsTest.front(LimitReqSpec.nodelay(Rate.perSecond(10), 5)
                .withRejectStatus(429))).size();

        assertThat(ProductLimitsTest.passedAt(r).size()).isBetween(nginx - 1, nginx + 1);
        assertThat(r.requests()).allMatch(o -> o.status() == 200 || o.status() == 429);
        assertThat(r.requests()).extracting(o -> o.front().status()).contains(LimitReqStatus.DELAYED);
        assertThat(r.requests()).filteredOn(o -> o.front().status() == LimitReqStatus.DELAYED)
                .allSatisfy(o -> assertThat(o.front().delayMs()).isBetween(1L, 50L));
    }
}
