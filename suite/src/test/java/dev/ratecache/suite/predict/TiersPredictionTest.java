package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.kinds.tiers.TierCells;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The model on --matrix tiers: by address it predicts; by API key it states what it lacks. */
class TiersPredictionTest {
    private final List<Cell> cells = TierCells.of(KeyedTraffic.defaultTiers(), null, "X-Api-Key");

    private static Prediction predict(Cell cell) {
        return predict(cell, new StackSwitches());
    }

    private static Prediction predict(Cell cell, StackSwitches switches) {
        Map<String, String> props = new LinkedHashMap<>(cell.plan().sizes(Profile.QUICK));
        props.putAll(cell.properties());
        return Predictor.predict(new Predictor.Input(cell, cell.apply(switches), props, Profile.QUICK, 10,
                null, 0, 0));
    }

    @Test
    void anAllowedNetworkIsCountedByNoPerClientLimitAndOthersAreAsBefore() {
        Cell noisy = cells.get(1);
        Prediction allowed = predict(noisy, new StackSwitches().allow(List.of("127.0.0.0/8")));
        Prediction elsewhere = predict(noisy, new StackSwitches().allow(List.of("10.0.0.0/8")));
        // 280 r/s of /hare from the loopback address: allowed, nothing meets a per-client limit, and the
        // edge cache keeps the back's limit from rejecting; another network's allow-list changes nothing.
        assertThat(allowed.predicted()).isTrue();
        assertThat(allowed.value(Metric.REJECTED_PCT)).isZero();
        assertThat(elsewhere.value(Metric.REJECTED_PCT)).isEqualTo(predict(noisy).value(Metric.REJECTED_PCT));
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
    void byApiKeyEachKeyIsLimitedAtItsTiersRateAndOnlyTheNoisyKeyLoses() {
        Prediction quiet = predict(cells.get(2));
        Prediction noisy = predict(cells.get(3));
        assertThat(quiet.predicted()).as(quiet.gap()).isTrue();
        assertThat(quiet.value(Metric.REJECTED_PCT)).isZero();
        // free-noisy: 200 r/s against 20 r/s burst 20 nodelay for 4 s: 800 sent, about 100 admitted;
        // every other key inside its tier. 1120 requests in all: about 700 / 1120 rejected.
        assertThat(noisy.value(Metric.REJECTED_PCT)).isBetween(55.0, 70.0);
        // Per tier: the free tier holds the noisy key (800 of its 960 requests, about 700 rejected); pro loses nothing.
        assertThat(noisy.tierRejectedPct().get("free")).isBetween(65.0, 80.0);
        assertThat(noisy.tierRejectedPct().get("pro")).isZero();
    }

    @Test
    void byAddressTheModelSharesTheRejectionsOutOverEveryTier() {
        Prediction noisy = predict(cells.get(1));
        assertThat(noisy.tierRejectedPct().keySet()).containsExactly("free", "pro");
        assertThat(noisy.tierRejectedPct().get("pro")).isPositive();
    }

    @Test
    void countingOnlyMissesTheNoisyKeysEdgeHitsCostNoQuota() {
        Prediction noisy = predict(cells.get(5));
        assertThat(noisy.predicted()).as(noisy.gap()).isTrue();
        // /hare is an edge HIT but for a miss per lifetime: the per-key limits, behind the cache, see
        // a handful of requests, so even the noisy key is hardly rejected.
        assertThat(noisy.value(Metric.REJECTED_PCT)).isLessThan(5.0);
        assertThat(noisy.tierRejectedPct().get("free")).isLessThan(5.0);
    }

    @Test
    void theModelNamesWhatItLacks() {
        // The address ceiling at 10 r/s: the one address's 280 r/s reaches it, and the model has no ceiling.
        Cell noisy = cells.get(3);
        StackSwitches low = new StackSwitches().addressCeiling(dev.ratecache.suite.switches.AddressCeiling.parse("10"));
        Map<String, String> props = new LinkedHashMap<>(noisy.plan().sizes(Profile.QUICK));
        props.putAll(noisy.properties());
        assertThat(Predictor.predict(new Predictor.Input(noisy, noisy.apply(low), props, Profile.QUICK, 10, null, 0, 0))
                .gap()).startsWith("the model does not include the address ceiling (10 r/s)");
    }

    @Test
    void theAddressCeilingIsResolvedAgainstTheFilesOwnAnonymousTierAsRendered() {
        // auto is ten times the most generous tier in force: free's 20 r/s here, the file's anonymous tier
        // (5 r/s) standing in for --front-rate's 100. The noisy cell's one address sends 240 r/s.
        List<dev.ratecache.suite.switches.LimitTier> tiers = List.of(
                new dev.ratecache.suite.switches.LimitTier("free", 20, 20, dev.ratecache.suite.switches.LimitMode.NODELAY,
                        List.of("free-1", "free-2", "free-3", "free-4", KeyedTraffic.NOISY)),
                new dev.ratecache.suite.switches.LimitTier("anonymous", 5, 5, dev.ratecache.suite.switches.LimitMode.QUEUE, List.of()));
        Cell noisy = TierCells.of(tiers, null, "X-Api-Key").get(3);
        assertThat(noisy.name()).isEqualTo("keys/api-key.noisy");
        assertThat(predict(noisy, new StackSwitches().frontRate(100)).gap())
                .startsWith("the model does not include the address ceiling (200 r/s)");
    }

    @Test
    void theArrivalsAreTheKeysSummedRateForHoldSecondsEachKeyAtItsOwnRate() {
        List<dev.ratecache.model.Arrival> arrivals = Predictor.keys("a:2:k1;a:3:k2;b:10:k3", 3, "/hare", true);
        assertThat(arrivals).hasSize(15 * 3);
        assertThat(arrivals).filteredOn(a -> a.client().equals("k1")).hasSize(6);
        assertThat(arrivals).filteredOn(a -> a.client().equals("k3")).hasSize(30);
        assertThat(Predictor.keys("a:2:k1;a:3:k2", 1, "/hare", false)).allSatisfy(a -> assertThat(a.client())
                .isEqualTo("client"));
    }
}
