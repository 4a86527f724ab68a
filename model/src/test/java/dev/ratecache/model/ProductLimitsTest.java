package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The simulation with each product's limit at a tier, as the suite maps nginx's rate 10 r/s and
 * burst 5 onto it, flooded by one client at twice that rate (20 r/s for 20 s).
 */
class ProductLimitsTest {

    static List<Arrival> flood() {
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            arrivals.add(new Arrival(i * 50L, "c", "/hare"));
        }
        return arrivals;
    }

    static SimulationResult front(LimitSpec limit) {
        return Simulation.run(new SimulationSpec(limit, null, null, SimulationTest.ORIGIN, 0, 0), new Workload.Open(flood()));
    }

    static List<Long> passedAt(SimulationResult r) {
        return r.requests().stream().filter(o -> o.status() == 200).map(RequestOutcome::issueMs).toList();
    }

    @Test
    void theSuitesMappingGivesEachProductBurstPlusOneOverTheTimeTheRateTakesToRefillIt() {
        // 6 over 600 ms: 10 a second slide out of HAProxy's window, or refill vsthrottle's bucket.
        assertThat(LimitSpec.haproxy(10, 5, 429)).isEqualTo(new HaproxyReqRateSpec(600, 6, 1200, 429));
        assertThat(LimitSpec.vsthrottle(10, 5, 429)).isEqualTo(new VsthrottleSpec(6, 600, 429));
        // Whole milliseconds, rounded, at least one.
        assertThat(LimitSpec.haproxy(3, 0, 503).periodMs()).isEqualTo(333);
        assertThat(LimitSpec.vsthrottle(3, 1, 503).periodMs()).isEqualTo(667);
        assertThat(LimitSpec.vsthrottle(5000, 0, 503).periodMs()).isEqualTo(1);
    }

    @Test
    void vsthrottlesPeriodIsTheDoubleTheCompiledVclPasses() {
        // varnishd -C renders 9ms as 9.000 * 0.001, a hair above 9 / 1000.0.
        assertThat(VsthrottleSpec.periodSeconds(9)).isEqualTo(9 * 0.001).isNotEqualTo(9 / 1000.0);
    }

    @Test
    void haproxyPassesItsThresholdThenNothingWhileTheClientKeepsSending() {
        // HaproxyReqRate: a denied request counts, so each 600 ms period counts 12 and the window
        // never reads 6 or less again; nginx's bucket would pass 10 a second after its burst.
        SimulationResult r = front(LimitSpec.haproxy(10, 5, 429));

        assertThat(passedAt(r)).containsExactly(0L, 50L, 100L, 150L, 200L, 250L);
        assertThat(r.requests().subList(6, 400)).allSatisfy(o -> {
            assertThat(o.status()).isEqualTo(429);
            assertThat(o.reachedOrigin()).isFalse();
        });
    }

    @Test
    void vsthrottlePassesItsBucketThenLessThanTheRate() {
        // Vsthrottle: 6 tokens at once, then 100 ms earns 6 x 0.1 / 0.6 = 1 token on paper, but a
        // difference of doubles of seconds is sometimes a hair under 0.1 and truncates to none, and
        // the fraction earned beyond a token is lost at each pass (varnish-modules#237): one pass
        // each 100 or 150 ms, 163 of 400 where nginx passes 205.
        SimulationResult r = front(LimitSpec.vsthrottle(10, 5, 429));
        List<Long> passed = passedAt(r);

        assertThat(passed.subList(0, 6)).containsExactly(0L, 50L, 100L, 150L, 200L, 250L);
        for (int i = 7; i < passed.size(); i++) {
            assertThat(passed.get(i) - passed.get(i - 1)).as("gap before %d ms", passed.get(i)).isIn(100L, 150L);
        }
        assertThat(passed).hasSize(163);
        int nginx = passedAt(front(LimitReqSpec.nodelay(Rate.perSecond(10), 5).withRejectStatus(429))).size();
        assertThat(nginx).isEqualTo(205);
        assertThat(r.requests()).allMatch(o -> o.status() == 200 || o.status() == 429);
    }

    @Test
    void theOtherProductsNeverDelayARequest() {
        for (LimitSpec limit : List.of(LimitSpec.haproxy(10, 5, 503), LimitSpec.vsthrottle(10, 5, 503))) {
            assertThat(front(limit).requests()).as(limit.toString()).allSatisfy(o -> {
                assertThat(o.front().status()).isNotEqualTo(LimitReqStatus.DELAYED);
                assertThat(o.front().delayMs()).isZero();
            });
        }
    }

    @Test
    void aBackLimitCountsEveryClientUnderOneKey() {
        // Two clients, three requests each at once, behind a back of burst 3: one window or bucket
        // of 4 for both, so two of the six are refused whichever product holds it.
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            arrivals.add(new Arrival(0, "a", "/hare"));
            arrivals.add(new Arrival(0, "b", "/hare"));
        }
        for (LimitSpec back : List.of(LimitSpec.haproxy(10, 3, 429), LimitSpec.vsthrottle(10, 3, 429))) {
            SimulationSpec spec = new SimulationSpec(null, null, back, SimulationTest.ORIGIN, 0, 0);
            SimulationResult r = Simulation.run(spec, new Workload.Open(arrivals));
            assertThat(r.requests()).as(back.toString()).extracting(RequestOutcome::status)
                    .containsExactly(200, 200, 200, 200, 429, 429);
            assertThat(r.aggregates().originRequests()).isEqualTo(4);
        }
    }
}
