package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.nginx.NginxSwitches;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The model on --matrix tiers: by address it predicts; by API key it states what it lacks. */
class TiersPredictionTest {
    private final List<Cell> cells = Matrix.tiers(KeyedTraffic.defaultTiers(), null, "X-Api-Key");

    private static Prediction predict(Cell cell) {
        Map<String, String> props = new LinkedHashMap<>(cell.plan().sizes(Profile.QUICK));
        props.putAll(cell.properties());
        return Predictor.predict(new Predictor.Input(cell, cell.apply(new NginxSwitches()), props, Profile.QUICK, 10,
                null, 0, 0));
    }

    @Test
    void byAddressEveryKeyIsOneClientOfTheFrontLimit() {
        Prediction quiet = predict(cells.get(0));
        Prediction noisy = predict(cells.get(1));
        assertThat(quiet.predicted()).isTrue();
        // 80 r/s from one address under its 100 r/s: nothing rejected, every request an edge HIT but the first few.
        assertThat(quiet.value(Metric.REJECTED_PCT)).isZero();
        // 280 r/s for 4 s against 100 r/s with a queue of 200: about (4 * 180 - 200) / 1120 rejected.
        assertThat(noisy.value(Metric.REJECTED_PCT)).isBetween(30.0, 60.0);
    }

    @Test
    void byApiKeyTheModelNamesWhatItLacks() {
        assertThat(predict(cells.get(2)).gap()).startsWith("the model does not include limits by API key");
        assertThat(predict(cells.get(5)).gap()).contains("--limit-scope misses");
    }

    @Test
    void theArrivalsAreTheKeysSummedRateForHoldSeconds() {
        assertThat(Predictor.keys("a:2:k1;a:2.5:k2;b:10:k3", 3, "/hare")).hasSize(15 * 3)
                .allSatisfy(a -> assertThat(a.client()).isEqualTo("client"));
    }
}
