package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.kinds.edges.EdgeCells;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each edge's cells are predicted with its own product's limiter and cache, not nginx's. */
class PredictorPerEdgeTest {
    private static final StackSwitches NODELAY = new StackSwitches().frontMode(LimitMode.NODELAY)
            .backMode(LimitMode.NODELAY);

    private static Prediction predict(String name) {
        Cell cell = EdgeCells.of(NODELAY.frontRate()).stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
        return Predictor.predict(new Predictor.Input(cell, cell.apply(NODELAY), cell.plan().sizes(Profile.QUICK),
                Profile.QUICK, 10, null, 0, 0));
    }

    @Test
    void everyEdgesCellIsPredicted() {
        for (EdgeProduct p : EdgeProduct.values()) {
            Prediction prediction = predict("edges/" + p + ".flood-2x-one");
            assertThat(prediction.predicted()).as(p + ": " + prediction.gap()).isTrue();
        }
    }

    @Test
    void haproxysWindowCountsItsRejectionsSoAFloodAtTwiceTheRateIsShutOutWhereNginxPassesTheRate() {
        double nginx = predict("edges/nginx.flood-2x-one").value(Metric.REJECTED_PCT);
        double haproxy = predict("edges/haproxy.flood-2x-one").value(Metric.REJECTED_PCT);

        // nginx passes the burst, then the rate: about half of a flood at twice the rate.
        assertThat(nginx).isBetween(30.0, 60.0);
        // HAProxy tracks every request, denied ones too: its window never empties while the flood lasts.
        assertThat(haproxy).isGreaterThan(nginx + 20);
    }

    /**
     * The cell as it ran, with the origin's measured answer time per path; the quick profile's /hare
     * takes 10 ms and is fresh for max-age=1, which HAProxy counts to the next whole second. The flood
     * starts late in its second, as a run's did, so the first fetch's misses and those at the next
     * second's expiry fall into one window of the back's limit.
     */
    private static final long LATE_IN_A_SECOND = 1_795_955_895_937L;
    /** The origin's answers to a flood on a saturated machine, as a quick run's back tier timed them. */
    private static final Predictor.OriginTimes SLOW = new Predictor.OriginTimes(700, 1050, 1400);

    private static Prediction predictWithOrigin(String name, Map<String, Predictor.OriginTimes> originMs) {
        Cell cell = EdgeCells.of(NODELAY.frontRate()).stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
        return Predictor.predict(new Predictor.Input(cell, cell.apply(NODELAY).spec(new StackPorts()),
                props(cell), Profile.QUICK, 10, null, 0, LATE_IN_A_SECOND, null, null, null, originMs));
    }

    /** As the matrix gives them to JMeter: the plan's sizes, then the cell's own (its rate and sources). */
    private static Map<String, String> props(Cell cell) {
        Map<String, String> props = new java.util.LinkedHashMap<>(cell.plan().sizes(Profile.QUICK));
        props.putAll(cell.properties());
        return props;
    }

    @Test
    void haproxysCacheWithAnOriginSlowerThanItsDelayLocksAFloodFromManyAddressesOutAtTheBack() {
        Prediction atDelay = predictWithOrigin("edges/haproxy.flood-2x-many", Map.of("/hare", new Predictor.OriginTimes(10, 10, 12)));
        Prediction slow = predictWithOrigin("edges/haproxy.flood-2x-many", Map.of("/hare", SLOW));

        // At its delay the origin answers the first misses before many more arrive: almost nothing is refused.
        assertThat(atDelay.slowOrigin()).isNull();
        assertThat(atDelay.value(Metric.REJECTED_PCT)).isLessThan(5.0);
        // As slow as a saturated run measured it: the misses that pile up past the back's burst are
        // denied and counted, the window never empties, and every later miss is refused too. The value
        // is the origin at the p10 it measured; the range takes in its p10 to p90, and says why.
        assertThat(slow.slowOrigin()).isEqualTo("/hare in 700–1400 ms (p10–p90), not its 10 ms");
        assertThat(slow.value(Metric.REJECTED_PCT)).isGreaterThan(atDelay.value(Metric.REJECTED_PCT) + 20);
        assertThat(slow.range(Metric.REJECTED_PCT).high()).isGreaterThan(75.0);
        // A median of a few slow answers is no firm speed: the range still holds the origin at its delay, no lock-out.
        assertThat(slow.range(Metric.REJECTED_PCT).low()).isLessThanOrEqualTo(atDelay.value(Metric.REJECTED_PCT));
        assertThat(slow.range(Metric.EDGE_HIT_PCT).low()).isLessThan(20.0);
    }

    @Test
    void envoysCacheWithAnOriginSlowOnlyInItsSlowestTenthStillTakesTheSlowOriginIntoItsRange() {
        Prediction slowTail = predictWithOrigin("edges/envoy.flood-10x-one", Map.of("/hare", new Predictor.OriginTimes(15, 25, 44)));
        Prediction atDelay = predictWithOrigin("edges/envoy.flood-10x-one", Map.of("/hare", new Predictor.OriginTimes(10, 11, 12)));

        // The revalidations under way when an entry runs out are the slow tenth: every miss behind them goes on.
        assertThat(slowTail.slowOrigin()).isEqualTo("/hare in 15–44 ms (p10–p90), not its 10 ms");
        assertThat(atDelay.slowOrigin()).isNull();
        assertThat(slowTail.range(Metric.ORIGIN_REQUESTS).high()).isGreaterThan(atDelay.value(Metric.ORIGIN_REQUESTS));
    }

    @Test
    void anOriginSlowerThanItsDelayWidensNothingBehindACacheWithALock() {
        Prediction nginx = predictWithOrigin("edges/nginx.flood-2x-many", Map.of("/hare", SLOW));
        Prediction varnish = predictWithOrigin("edges/varnish.flood-2x-many", Map.of("/hare", SLOW));

        // nginx's proxy_cache_lock and Varnish's waiting list hold the misses behind one fetch, however long it takes.
        assertThat(nginx.slowOrigin()).isNull();
        assertThat(varnish.slowOrigin()).isNull();
    }

    @Test
    void vsthrottlesTruncatedRefillRejectsMoreThanNginxAtTheSameNumbers() {
        Map<EdgeProduct, Double> rejected = Map.of(
                EdgeProduct.NGINX, predict("edges/nginx.flood-2x-one").value(Metric.REJECTED_PCT),
                EdgeProduct.VARNISH, predict("edges/varnish.flood-2x-one").value(Metric.REJECTED_PCT));

        assertThat(rejected.get(EdgeProduct.VARNISH)).isGreaterThan(rejected.get(EdgeProduct.NGINX));
    }
}
