package dev.ratecache.suite.kinds.tiers;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitTier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The cells of --matrix tiers: keys by address against by API key, with and without a noisy neighbour. */
public final class TierCells {
    private TierCells() {}

    /**
     * The keys plan over tiers of API keys: the per-client limit by address (every key from one
     * address, as behind a NAT) against by API key, counting every request against only the edge
     * cache's misses, each with every key well-behaved and with one key flooding at 10 times its
     * tier's rate. The edge cache is on (a /hare HIT is what scope misses makes free) and both limits
     * are on: the back limit is shared by every key, as in production.
     *
     * @param tiers     the tiers and their keys (the user's --tiers, or {@link KeyedTraffic#defaultTiers()})
     * @param tiersFile the user's --tiers file; null: each cell writes the suite's own
     * @param header    the header the keys go in
     */
    public static List<Cell> of(List<LimitTier> tiers, Path tiersFile, String header) {
        var byKey = new LimitKey(LimitKey.Kind.HEADER, header);
        var all = LimitScope.ALL;
        var misses = LimitScope.MISSES;
        String noisy = KeyedTraffic.noisyOf(tiers);
        List<Cell> cells = new ArrayList<>();
        record Variant(String name, LimitKey key, LimitScope scope) {}
        for (Variant v : List.of(new Variant("addr", LimitKey.ADDR, all),
                new Variant("api-key", byKey, all), new Variant("api-key.misses", byKey, misses))) {
            for (boolean withNoisy : new boolean[] {false, true}) {
                KeyedTraffic traffic = new KeyedTraffic(v.key(), v.scope(), tiers, tiersFile, withNoisy ? noisy : null,
                        Matrix.TIERS_KEYS_PER_TIER);
                cells.add(Cell.of(Plan.KEYS, v.name() + (withNoisy ? ".noisy" : "")).serverCache().keys(traffic)
                        .property("keys", traffic.plannedKeys()).property("header", header).build());
            }
        }
        return cells;
    }
}
