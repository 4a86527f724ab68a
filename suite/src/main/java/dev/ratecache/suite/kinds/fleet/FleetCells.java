package dev.ratecache.suite.kinds.fleet;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitTier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The cells of --matrix fleet: one per-client limit across several edges, by each strategy and balance. */
public final class FleetCells {
    private FleetCells() {}

    /** The name of --matrix fleet's set of cells, and of their table. */
    private static final String FLEET = "fleet";

    /** The name suffix of the fleet cell whose edges are chosen by URI hash. */
    private static final String URI_HASH = ".uri-hash";

    /**
     * One per-client limit across {@code edges} edges (--fleet-limit): the keys plan, keyed by API
     * key in {@code header}, one heavy key at {@link KeyedTraffic#FLEET_MULTIPLE} times its tier's rate
     * beside a crowd under theirs, the edge cache on. Each strategy under round robin (client-hash
     * chooses the edge itself), and split under URI hash too: every request of the plan is one URL,
     * so one edge gets them all and holds each key to rate/N.
     */
    public static List<Cell> of(List<LimitTier> tiers, Path tiersFile, String header, int edges) {
        var byKey = new LimitKey(LimitKey.Kind.HEADER, header);
        KeyedTraffic traffic = new KeyedTraffic(byKey, LimitScope.ALL, tiers, tiersFile,
                KeyedTraffic.noisyOf(tiers), Matrix.TIERS_KEYS_PER_TIER, KeyedTraffic.FLEET_MULTIPLE);
        record Variant(String name, FleetLimit strategy, EdgeBalance balance) {}
        List<Cell> cells = new ArrayList<>();
        for (Variant v : List.of(
                new Variant("per-edge", FleetLimit.PER_EDGE, EdgeBalance.ROUND_ROBIN),
                new Variant("client-hash", FleetLimit.CLIENT_HASH, EdgeBalance.ROUND_ROBIN),
                new Variant("split", FleetLimit.SPLIT, EdgeBalance.ROUND_ROBIN),
                new Variant("split" + URI_HASH, FleetLimit.SPLIT, EdgeBalance.URI_HASH),
                new Variant("shared", FleetLimit.SHARED, EdgeBalance.ROUND_ROBIN))) {
            cells.add(Cell.named(Plan.KEYS, FLEET, v.name()).serverCache().keys(traffic)
                    .fleet(new Cell.Fleet(edges, v.strategy()), v.balance())
                    .property("keys", traffic.plannedKeys()).property("header", header).build());
        }
        return cells;
    }
}
