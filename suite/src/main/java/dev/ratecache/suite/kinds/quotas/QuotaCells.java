package dev.ratecache.suite.kinds.quotas;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.LibraryDriver;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.switches.LimitKey;
import java.util.ArrayList;
import java.util.List;

/** The cells of --matrix quotas: each window mode's quota, spent early, spread, and paced by the client library. */
public final class QuotaCells {
    private QuotaCells() {}

    /** The name of --matrix quotas' set of cells, and of its table. */
    private static final String QUOTAS = "quotas";

    /** --matrix quotas' quota unless --quota gives one: a day's 600 requests, the day compressed to a minute. */
    public static final String DEFAULT_QUOTA = "600/60s";

    /**
     * A quota across {@code edges} edges in round robin, for each window mode but calendar (for a
     * window that divides a day, as the compressed one does, it is fixed): the keys plan with one key
     * spending its quota early and one spreading it, then the client library pacing a key to the
     * edge's RateLimit. The edge cache is on, as in production; the burst limit far above the keys.
     *
     * @param quota  the quota, its mode ignored: each cell has its own
     * @param header the header the keys go in
     */
    public static List<Cell> of(Quota quota, String header, int edges) {
        var byKey = new LimitKey(LimitKey.Kind.HEADER, header);
        List<Cell> cells = new ArrayList<>();
        for (var mode : List.of(Quota.Window.SLIDING, Quota.Window.FIXED)) {
            QuotaTraffic traffic = new QuotaTraffic(new Quota(quota.limit(),
                    quota.windowSeconds(), mode), edges);
            KeyedTraffic keys = new KeyedTraffic(byKey, LimitScope.ALL,
                    List.of(traffic.tier()), null, null, Matrix.TIERS_KEYS_PER_TIER);
            cells.add(Cell.named(Plan.KEYS, QUOTAS, mode.toString()).serverCache().keys(keys).trait(traffic).edgeBalance(EdgeBalance.ROUND_ROBIN)
                    .property("keys", traffic.plannedKeys()).property("header", header)
                    .property("hold", String.valueOf(traffic.holdSeconds())).build());
            cells.add(Cell.named(Plan.KEYS, QUOTAS, mode + ".library").serverCache().keys(keys).trait(traffic).edgeBalance(EdgeBalance.ROUND_ROBIN)
                    .generator(Generator.LIBRARY).property("users", "1")
                    .property("loops", String.valueOf(traffic.libraryLoops()))
                    .property(LibraryDriver.HEADER_PROPERTY, header + ":" + QuotaTraffic.PACED)
                    .property(LibraryDriver.PACE_PROPERTY, "true").build());
        }
        return cells;
    }
}
