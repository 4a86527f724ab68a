package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One limit_req_zone named by several limit_req directives: the rate and each key's state are the
 * zone's, the burst and delay each directive's own (ngx_http_limit_req_t holds burst and delay,
 * the zone's shared context the nodes).
 */
class LimitReqSharedZoneTest {
    private static final Rate TEN = Rate.perSecond(10);

    @Test
    void twoLimitReqOfOneZoneShareEachKeysStateButRefuseAtTheirOwnBurst() {
        LimitReq zone = new LimitReq(LimitReqSpec.nodelay(TEN, 0));
        LimitReqSpec loose = LimitReqSpec.nodelay(TEN, 5);
        LimitReqSpec strict = LimitReqSpec.nodelay(TEN, 0);

        assertThat(LimitReq.decideAll(List.of(new LimitReq.Keyed(zone, "a", loose)), 0).status()).isEqualTo(LimitReqStatus.PASSED);
        assertThat(LimitReq.decideAll(List.of(new LimitReq.Keyed(zone, "a", loose)), 0).status()).isEqualTo(LimitReqStatus.PASSED);
        // The strict location meets the excess the loose one left: 2000 > its burst of 0.
        assertThat(LimitReq.decideAll(List.of(new LimitReq.Keyed(zone, "a", strict)), 0).status())
                .isEqualTo(LimitReqStatus.REJECTED);
        assertThat(LimitReq.decideAll(List.of(new LimitReq.Keyed(zone, "a", loose)), 0).status()).isEqualTo(LimitReqStatus.PASSED);
    }

    @Test
    void aDirectivesOwnDelayDecidesHowLongItsRequestsWait() {
        LimitReq zone = new LimitReq(LimitReqSpec.queue(TEN, 10));
        LimitReqSpec delayAfterTwo = LimitReqSpec.delay(TEN, 10, 2);

        List<Long> delays = java.util.stream.IntStream.range(0, 5)
                .mapToObj(i -> LimitReq.decideAll(List.of(new LimitReq.Keyed(zone, "a", delayAfterTwo)), 0).delayMs()).toList();
        assertThat(delays).containsExactly(0L, 0L, 0L, 100L, 200L);
    }

    @Test
    void aZoneOfSomeKeysDecidesTheirRequestsAsTheWholeZoneWouldAndLeavesItUntouched() {
        LimitReq zone = new LimitReq(LimitReqSpec.nodelay(TEN, 1));
        zone.decide("a", 0);
        zone.decide("b", 0);
        LimitReq onlyA = zone.only(List.of("a"));

        assertThat(onlyA.keys()).isEqualTo(1);
        assertThat(onlyA.decide("a", 0).status()).isEqualTo(LimitReqStatus.PASSED);
        assertThat(onlyA.decide("a", 0).status()).isEqualTo(LimitReqStatus.REJECTED);
        // The zone itself has not seen those two requests; taking the copy's states back, it has.
        assertThat(zone.only(List.of("a")).decide("a", 0).status()).isEqualTo(LimitReqStatus.PASSED);
        zone.takeStates(onlyA);
        assertThat(zone.decide("a", 0).status()).isEqualTo(LimitReqStatus.REJECTED);
        assertThat(zone.keys()).isEqualTo(2);
    }
}
