package dev.ratecache.suite.matrix;

import dev.ratecache.suite.spec.EdgeBalance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sets of cells of the kinds of matrix that have no package of their own (reference, full,
 * protection, caches) and what every kind's cells share; each other kind's cells are its own
 * (kinds/: FaultCells, FleetCells...).
 */
public final class Matrix {
    private Matrix() {}

    /** The protection matrix's flood rates, as multiples of the front end's per-client rate. */
    public static final List<Integer> FLOOD_MULTIPLES = List.of(2, 5, 10);

    /** Addresses a "many" flood comes from: enough that no one of them reaches the per-client limit at 10x. */
    public static final int MANY_SOURCES = 100;

    /**
     * The reference experiment: each plan with both rate limits on and each caching combination,
     * plus straight to the app server where the reference measured that (the stress plan). Each plan
     * the library's driver can send also gets a library row: the same traffic sent by the suite's
     * client library, beside JMeter's client-cache row.
     */
    public static List<Cell> reference(List<Plan> plans) {
        List<Cell> cells = new ArrayList<>();
        for (Plan plan : plans) {
            cells.add(Cell.of(plan, Cell.NO_CACHING).build());
            cells.add(Cell.of(plan, Cell.SERVER_CACHE).serverCache().build());
            cells.add(Cell.of(plan, Cell.CLIENT_CACHE).clientCache().build());
            cells.add(Cell.of(plan, Cell.BOTH).serverCache().clientCache().build());
            if (plan.hasDirectReference()) {
                cells.add(Cell.of(plan, Cell.DIRECT).direct().build());
            }
            addLibraryRow(plan, cells);
        }
        return cells;
    }

    /** Every combination of front limit, back limit, server cache and client cache, per plan, plus direct. */
    public static List<Cell> full(List<Plan> plans) {
        List<Cell> cells = new ArrayList<>();
        for (Plan plan : plans) {
            for (boolean front : new boolean[] {true, false}) {
                for (boolean back : new boolean[] {true, false}) {
                    for (boolean server : new boolean[] {false, true}) {
                        for (boolean client : new boolean[] {false, true}) {
                            String variant = "front-" + Cell.onOff(front) + ".back-" + Cell.onOff(back)
                                    + ".server-" + Cell.onOff(server) + ".client-" + Cell.onOff(client);
                            cells.add(Cell.of(plan, variant).frontLimit(front).backLimit(back)
                                    .serverCache(server).clientCache(client).build());
                        }
                    }
                }
            }
            cells.add(Cell.of(plan, Cell.DIRECT).direct().build());
            addLibraryRow(plan, cells);
        }
        return cells;
    }

    /** The library row, for a plan whose traffic the driver can send (it knows the suite's plans, not a user's). */
    private static void addLibraryRow(Plan plan, List<Cell> cells) {
        if (plan.libraryRow()) {
            cells.add(Cell.of(plan, "library").clientCache().generator(Generator.LIBRARY).build());
        }
    }

    /**
     * The flood plan at 2x, 5x and 10x the front end's per-client rate, each from one address
     * (the per-client limit stops it) and from {@link #MANY_SOURCES} (each client under its limit:
     * the back limit alone protects the origin). The limits and the edge cache are as switched:
     * switching the back limit off is how a breach of its promise is shown.
     */
    public static List<Cell> protection(int frontRate, boolean frontLimit, boolean backLimit, boolean cache) {
        List<Cell> cells = new ArrayList<>();
        for (int multiple : FLOOD_MULTIPLES) {
            for (int sources : List.of(1, MANY_SOURCES)) {
                cells.add(Cell.of(Plan.FLOOD, multiple + "x-" + (sources == 1 ? "one" : "many"))
                        .frontLimit(frontLimit).backLimit(backLimit).serverCache(cache)
                        .property("rate", String.valueOf(multiple * frontRate))
                        .property("sources", String.valueOf(sources)).build());
            }
        }
        return cells;
    }

    /** The name suffix of a cell whose edges shard the cache (--edge-balance uri-hash). */
    public static final String SHARDED = ".sharded";

    /**
     * With several edges: each cell with the edge cache twice, round robin (independent caches,
     * under its own name) and sharded by URI (named with {@link #SHARDED}), so that the report
     * sets one beside the other on the same plan. Cells without the edge cache run once.
     */
    public static List<Cell> bothEdgeBalances(List<Cell> cells) {
        List<Cell> out = new ArrayList<>();
        for (Cell c : cells) {
            if (c.serverCache() && !c.direct()) {
                out.add(c.withEdgeBalance(c.name(), EdgeBalance.ROUND_ROBIN));
                out.add(c.withEdgeBalance(c.name() + SHARDED, EdgeBalance.URI_HASH));
            } else {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * The hot-set plan (reads and writes of /items) under each way of caching it: none; the edge
     * cache; the origin's own cache in Redis; both; the edge with JMeter's per-user cache. Speed
     * against staleness, and CPU in the app against CPU at the edge. The rate limits are off: they
     * would reject the uncached cells' traffic and hide the load each cache takes off the database.
     */
    public static List<Cell> caches() {
        Plan plan = Plan.HOTSET;
        return List.of(
                Cell.of(plan, "no-cache").frontLimit(false).backLimit(false).build(),
                Cell.of(plan, "edge").frontLimit(false).backLimit(false).serverCache().build(),
                Cell.of(plan, "app-cache").frontLimit(false).backLimit(false).appCache().build(),
                Cell.of(plan, "both").frontLimit(false).backLimit(false).serverCache().appCache().build(),
                Cell.of(plan, "edge+client").frontLimit(false).backLimit(false).serverCache().clientCache().build());
    }

    /** Edges in --matrix fleet and --matrix quotas unless --edges gives more than one. */
    public static final int FLEET_EDGES = 3;

    /**
     * The database endpoint's small query (5 rows), one postal code. One URL rather than several: a
     * cache's gain here is the misses it takes off the database, and with any handful of codes the
     * stress plan's 1000 requests would miss a handful of times instead of once; the pool sweep
     * (straight to the origin, no cache) is where the database does every request's work.
     */
    public static final String DB_PATH = "/places?code=1227";

    /** Keys that send per tier in --matrix tiers: enough for a fairness figure, few enough for one JMeter. */
    public static final int TIERS_KEYS_PER_TIER = 5;

    /**
     * The cells named in {@code only}, in matrix order; throws naming the unknown ones and listing
     * the valid choices.
     */
    public static List<Cell> select(List<Cell> cells, List<String> only) {
        if (only.isEmpty()) {
            return cells;
        }
        Map<String, Cell> byName = new LinkedHashMap<>();
        cells.forEach(c -> byName.put(c.name(), c));
        List<String> unknown = only.stream().filter(n -> !byName.containsKey(n)).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("--only names no such cell: " + String.join(", ", unknown)
                    + "; valid cells: " + String.join(", ", byName.keySet()));
        }
        return cells.stream().filter(c -> only.contains(c.name())).toList();
    }
}
