package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Limits by identity: a limit per client (one zone per tier), and per-client limits counted only on misses. */
class PerClientLimitsTest {
    private static final LimitReqSpec FREE = LimitReqSpec.nodelay(Rate.perSecond(1), 0);
    private static final LimitReqSpec PRO = LimitReqSpec.nodelay(Rate.perSecond(100), 100);

    /** Ten requests from each of two keys within a second, /hare. */
    private static List<Arrival> tenEach() {
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            arrivals.add(new Arrival(i * 50L, "free-key", "/hare"));
            arrivals.add(new Arrival(i * 50L + 1, "pro-key", "/hare"));
        }
        return arrivals;
    }

    private static long rejected(SimulationResult r, String client) {
        return r.requests().stream().filter(o -> o.client().equals(client) && o.rejected()).count();
    }

    @Test
    void eachClientIsLimitedAtItsOwnTiersRate() {
        SimulationSpec spec = new SimulationSpec(PRO, null, null, SimulationTest.ORIGIN, 0, 0)
                .withFrontByClient(Map.of("free-key", FREE));
        SimulationResult r = Simulation.run(spec, new Workload.Open(tenEach()));
        assertThat(rejected(r, "free-key")).isEqualTo(9);
        assertThat(rejected(r, "pro-key")).isZero();
    }

    @Test
    void countedBehindTheCacheEdgeHitsCostNoQuota() {
        SimulationSpec atFront = new SimulationSpec(PRO, SuiteFixture.edge(), null, SimulationTest.ORIGIN, 0, 0)
                .withFrontByClient(Map.of("free-key", FREE));
        SimulationSpec atBack = atFront.withPerClientAtBack(true);

        assertThat(rejected(Simulation.run(atFront, new Workload.Open(tenEach())), "free-key")).isEqualTo(9);
        // Only the first /hare misses (the others wait on the cache lock or hit): one request of
        // free-key's reaches its limit, which lets it through.
        SimulationResult r = Simulation.run(atBack, new Workload.Open(tenEach()));
        assertThat(rejected(r, "free-key")).isZero();
        assertThat(r.requests()).allSatisfy(o -> assertThat(o.status()).isEqualTo(200));
    }
}
