package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each edge's cells are predicted with its own product's limiter and cache, not nginx's. */
class PredictorPerEdgeTest {
    private static final StackSwitches NODELAY = new StackSwitches().frontMode(LimitMode.NODELAY)
            .backMode(LimitMode.NODELAY);

    private static Prediction predict(String name) {
        Cell cell = Matrix.edges(NODELAY.frontRate()).stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
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

    @Test
    void vsthrottlesTruncatedRefillRejectsMoreThanNginxAtTheSameNumbers() {
        Map<EdgeProduct, Double> rejected = Map.of(
                EdgeProduct.NGINX, predict("edges/nginx.flood-2x-one").value(Metric.REJECTED_PCT),
                EdgeProduct.VARNISH, predict("edges/varnish.flood-2x-one").value(Metric.REJECTED_PCT));

        assertThat(rejected.get(EdgeProduct.VARNISH)).isGreaterThan(rejected.get(EdgeProduct.NGINX));
    }
}
