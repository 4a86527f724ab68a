package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.model.Rate;
import dev.ratecache.suite.kinds.fleet.FleetCells;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.FleetFigures;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The model of each fleet strategy on the suite's fleet tiers (free: 20 r/s, burst 4; the heavy key
 * at 40 r/s) over 3 edges, and its comparison with made-up measurements.
 */
class FleetPredictionTest {
    private static final List<Cell> CELLS = FleetCells.of(KeyedTraffic.fleetTiers(), null, "X-Api-Key", 3);

    private static Cell cell(String name) {
        return CELLS.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private static FleetPrediction predict(String name) {
        Map<String, String> props = new LinkedHashMap<>(Plan.KEYS.sizes(Profile.DEFAULT));
        props.putAll(cell(name).properties());
        return FleetPrediction.of(cell(name), props);
    }

    @Test
    void perEdgeAdmitsEveryRequestTheEdgesEachSeeUnderTheirLimit() {
        FleetPrediction p = predict("fleet/per-edge");
        // 40 r/s spread over 3 edges of 20 r/s: nothing rejected, 40 in every second against 24.
        assertThat(p.busiest()).isEqualTo(40);
        assertThat(p.effectiveLimit()).isCloseTo(40 / 24.0, within(1e-9));
        assertThat(p.admittedPerSecond()).isCloseTo(40, within(0.5));
    }

    @Test
    void sharedAndClientHashAreOneLimitReq() {
        for (String name : List.of("fleet/shared", "fleet/client-hash")) {
            FleetPrediction p = predict(name);
            // burst + 1 at once, then one every 50 ms: 24 in the first second, then 20 a second.
            assertThat(p.busiest()).as(name).isEqualTo(24);
            assertThat(p.effectiveLimit()).as(name).isEqualTo(1.0);
            assertThat(p.admittedPerSecond()).as(name).isCloseTo(20.4, within(0.5));
        }
    }

    @Test
    void splitHoldsUnderRoundRobinAndUnderAdmitsWhenOneEdgeGetsEverything() {
        FleetPrediction split = predict("fleet/split");
        assertThat(split.effectiveLimit()).isBetween(0.8, 1.0);
        FleetPrediction skewed = predict("fleet/split.uri-hash");
        // One edge of 400 r/m (20/3 r/s, rounded down to whole r/m) and burst 1: a third of the limit.
        assertThat(skewed.effectiveLimit()).isLessThan(0.4);
        assertThat(skewed.admittedPerSecond()).isCloseTo(6.7, within(0.5));
    }

    @Test
    void theRateIsNginxsOwnArgument() {
        assertThat(FleetPrediction.rate(20, 3)).isEqualTo(Rate.perMinute(400));
        assertThat(FleetPrediction.rate(40, 2)).isEqualTo(Rate.perSecond(20));
    }

    @Test
    void aMeasurementWithinTwentyPercentIsNotFlaggedAndOneOutsideCarriesItsReason() {
        FleetPrediction p = new FleetPrediction(1.0, 20, 24);
        FleetFigures close = new FleetFigures("free-noisy", 24, 80, 42, 21, 25, 0, 0, 0L, List.of());
        assertThat(p.against(cell("fleet/shared"), close).flagged()).isFalse();
        assertThat(p.against(cell("fleet/shared"), close).limitText()).isEqualTo("1.04 / 1.00");

        FleetFigures far = new FleetFigures("free-noisy", 24, 80, 70, 35, 35, 0, 0, 0L, List.of());
        FleetPrediction.Comparison c = p.against(cell("fleet/shared"), far);
        assertThat(c.flagged()).isTrue();
        assertThat(c.reason()).contains("Redis round trip");
        assertThat(p.against(cell("fleet/split"), far).reason()).contains("worker processes each keep their own");
    }

    @Test
    void everyFleetCellGetsItsFiguresBesideTheGapOfTheOneEdgeModel() {
        for (Cell c : CELLS) {
            Map<String, String> props = new LinkedHashMap<>(Plan.KEYS.sizes(Profile.QUICK));
            props.putAll(c.properties());
            Prediction p = Predictor.predict(new Predictor.Input(c, c.apply(new StackSwitches()), props, Profile.QUICK,
                    8, null, -1, 0), FleetPrediction.MODEL);
            assertThat(p.gap()).as(c.name()).isEqualTo(FleetPrediction.GAP);
            assertThat(p.fleet()).as(c.name()).isNotNull();
        }
    }
}
