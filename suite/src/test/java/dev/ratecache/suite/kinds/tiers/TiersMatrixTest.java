package dev.ratecache.suite.kinds.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.TiersFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --matrix tiers: its cells, the keys they send and the tiers file the suite writes for them. */
class TiersMatrixTest {
    private final List<Cell> cells = TierCells.of(KeyedTraffic.defaultTiers(), null, "X-Api-Key");

    @Test
    void addressAgainstKeyAllAgainstMissesWithAndWithoutTheNoisyKey() {
        assertThat(cells).extracting(Cell::name).containsExactly("keys/addr", "keys/addr.noisy", "keys/api-key",
                "keys/api-key.noisy", "keys/api-key.misses", "keys/api-key.misses.noisy");
        assertThat(cells).allSatisfy(c -> {
            assertThat(c.plan()).isEqualTo(Plan.KEYS);
            assertThat(c.serverCache() && c.frontLimit() && c.backLimit()).as("cache and both limits on").isTrue();
            assertThat(c.trait(KeyedTraffic.class).noisyKey() != null).isEqualTo(c.name().endsWith(".noisy"));
        });
    }

    @Test
    void wellBehavedKeysSendHalfTheirTiersRateAndTheNoisyKeyTenTimesIt() {
        assertThat(cells.get(0).properties().get("keys")).isEqualTo(
                "free:10:free-1;free:10:free-2;free:10:free-3;free:10:free-4;pro:20:pro-1;pro:20:pro-2");
        assertThat(cells.get(1).properties().get("keys")).contains("free:200:free-noisy");
        assertThat(cells.get(1).trait(KeyedTraffic.class).offeredRate()).isEqualTo(280.0);
        assertThat(cells.get(0).properties()).containsEntry("header", "X-Api-Key");
    }

    @Test
    void eachCellSwitchesItsKeyAndScopeOnTopOfTheUsers() {
        StackSwitches user = new StackSwitches().frontRate(100);
        StackSwitches addr = cells.get(0).apply(user);
        StackSwitches misses = cells.get(4).apply(user);
        assertThat(addr.limitKey().byAddress()).isTrue();
        assertThat(misses.limitKey().toString()).isEqualTo("header:X-Api-Key");
        assertThat(misses.limitScope()).isEqualTo(LimitScope.MISSES);
        assertThat(user.limitScope()).as("the user's switches are not changed").isEqualTo(LimitScope.ALL);
    }

    @Test
    void theSuitesTiersFileReadsBackAsItsTiers(@TempDir Path dir) throws Exception {
        Path file = cells.get(2).trait(KeyedTraffic.class).tiersFileIn(dir);
        assertThat(TiersFile.read(file)).isEqualTo(KeyedTraffic.defaultTiers());
        StackSwitches s = cells.get(2).apply(new StackSwitches()).tiers(file);
        assertThat(s.problems()).isEmpty();
    }

    @Test
    void aUsersTiersSendAtMostFiveKeysEachAndTheirFirstKeyIsTheNoisyOne() {
        List<String> keys = java.util.stream.IntStream.range(0, 20).mapToObj(i -> "k" + i).toList();
        List<LimitTier> mine = List.of(new LimitTier("gold", 4, 8, dev.ratecache.suite.switches.LimitMode.QUEUE, keys));
        List<Cell> own = TierCells.of(mine, Path.of("mine.txt"), "X-Key");
        assertThat(own.get(0).properties().get("keys")).isEqualTo("gold:2:k0;gold:2:k1;gold:2:k2;gold:2:k3;gold:2:k4");
        assertThat(own.get(1).properties().get("keys")).startsWith("gold:40:k0;gold:2:k1;")
                .endsWith("gold:2:k5");
        assertThat(own.get(1).trait(KeyedTraffic.class).tiersFile()).isEqualTo(Path.of("mine.txt"));
    }
}
