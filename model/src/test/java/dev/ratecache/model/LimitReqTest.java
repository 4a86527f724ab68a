package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The arithmetic of ngx_http_limit_req_lookup/account, on hand-computed cases. */
class LimitReqTest {

    @Test
    void burstLetsBurstPlusOneThroughAtOnce() {
        // A new key starts at excess 0, so burst=3 accepts 4 requests in the same millisecond.
        LimitReq zone = new LimitReq(LimitReqSpec.nodelay(Rate.perSecond(10), 3));
        List<LimitReqStatus> got = java.util.stream.IntStream.range(0, 6)
                .mapToObj(i -> zone.decide("a", 1000).status()).toList();
        assertThat(got).containsExactly(LimitReqStatus.PASSED, LimitReqStatus.PASSED, LimitReqStatus.PASSED,
                LimitReqStatus.PASSED, LimitReqStatus.REJECTED, LimitReqStatus.REJECTED);
    }

    @Test
    void queuedRequestsWaitExcessOverRate() {
        LimitReq zone = new LimitReq(LimitReqSpec.queue(Rate.perSecond(10), 3));
        assertThat(zone.decide("a", 0)).isEqualTo(new Decision(LimitReqStatus.PASSED, 0, 0, 0));
        assertThat(zone.decide("a", 0)).isEqualTo(new Decision(LimitReqStatus.DELAYED, 100, 1000, 0));
        // 30 ms later 300 thousandths have drained: 1000 - 300 + 1000 = 1700 → 170 ms.
        assertThat(zone.decide("a", 30)).isEqualTo(new Decision(LimitReqStatus.DELAYED, 170, 1700, 0));
    }

    @Test
    void delayThresholdDelaysOnlyBeyondIt() {
        LimitReq zone = new LimitReq(LimitReqSpec.delay(Rate.perSecond(10), 4, 2));
        List<Decision> got = java.util.stream.IntStream.range(0, 6).mapToObj(i -> zone.decide("a", 0)).toList();
        assertThat(got).extracting(Decision::status).containsExactly(LimitReqStatus.PASSED, LimitReqStatus.PASSED,
                LimitReqStatus.PASSED, LimitReqStatus.DELAYED, LimitReqStatus.DELAYED, LimitReqStatus.REJECTED);
        assertThat(got.get(3).delayMs()).isEqualTo(100);
        assertThat(got.get(4).delayMs()).isEqualTo(200);
    }

    @Test
    void sameMillisecondDoesNotMoveLast() {
        // Rate 1 r/s. t=0: new (0). t=500: 0-500+1000 = 500, last=500. t=500 again: ms=0 → 1500,
        // last stays 500. t=1000: ms=500 → 1500-500+1000 = 2000.
        LimitReq zone = new LimitReq(LimitReqSpec.nodelay(Rate.perSecond(1), 5));
        zone.decide("a", 0);
        assertThat(zone.decide("a", 500).excessMilli()).isEqualTo(500);
        assertThat(zone.decide("a", 500).excessMilli()).isEqualTo(1500);
        assertThat(zone.decide("a", 1000).excessMilli()).isEqualTo(2000);
    }

    @Test
    void clockGoingBackwardsCountsAsNoTime() {
        LimitReq zone = new LimitReq(LimitReqSpec.nodelay(Rate.perSecond(1), 5));
        zone.decide("a", 10_000);
        assertThat(zone.decide("a", 9_000).excessMilli()).isEqualTo(1000);
    }

    @Test
    void perMinuteRateIsTruncatedLikeNginx() {
        assertThat(Rate.perMinute(1).milliPerSecond()).isEqualTo(16);
        assertThat(Rate.perMinute(30).milliPerSecond()).isEqualTo(500);
    }

    @Test
    void rejectedRequestChangesNothing() {
        LimitReq zone = new LimitReq(LimitReqSpec.nodelay(Rate.perSecond(1), 0));
        zone.decide("a", 0);
        assertThat(zone.decide("a", 100).status()).isEqualTo(LimitReqStatus.REJECTED);
        // Had the rejection been stored, 1000 ms after it would not be enough.
        assertThat(zone.decide("a", 1000).status()).isEqualTo(LimitReqStatus.PASSED);
    }

    @Test
    void severalLimitsChargeNothingWhenOneRejectsAndTakeTheLongestDelay() {
        LimitReq perClient = new LimitReq(LimitReqSpec.queue(Rate.perSecond(10), 5));
        LimitReq global = new LimitReq(LimitReqSpec.nodelay(Rate.perSecond(1), 0));
        List<LimitReq.Keyed> limits = List.of(new LimitReq.Keyed(perClient, "a"), new LimitReq.Keyed(global, "all"));
        assertThat(LimitReq.decideAll(limits, 0).status()).isEqualTo(LimitReqStatus.PASSED);
        // The global limit rejects: the per-client zone is looked at but not charged.
        assertThat(LimitReq.decideAll(limits, 10).status()).isEqualTo(LimitReqStatus.REJECTED);
        assertThat(LimitReq.decideAll(limits, 20).limitIndex()).isEqualTo(1);
        // Per client alone now: excess 0 - 200 + 1000 = 800 → 80 ms; had the two rejected
        // lookups been charged it would be 2800 - 200 → 260 ms.
        assertThat(perClient.decide("a", 20)).isEqualTo(new Decision(LimitReqStatus.DELAYED, 80, 800, 0));
        // Both pass at t=2000: the per-client delay is reported by the account phase.
        Decision both = LimitReq.decideAll(limits, 2000);
        assertThat(both.status()).isEqualTo(LimitReqStatus.PASSED);
    }

    @Test
    void idleKeysExpireOnlyAfterAMinuteAndWhenDrained() {
        LimitReq zone = new LimitReq(LimitReqSpec.nodelay(Rate.perSecond(1), 5));
        zone.decide("old", 0);
        zone.decide("new", 30_000);
        assertThat(zone.keys()).isEqualTo(2);
        zone.decide("newer", 61_000);
        assertThat(zone.keys()).isEqualTo(2);
    }
}
