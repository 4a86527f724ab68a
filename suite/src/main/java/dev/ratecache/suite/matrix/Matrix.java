package dev.ratecache.suite.matrix;

import dev.ratecache.suite.spec.EdgeBalance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The sets of cells run-tests.sh can run. */
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

    /** The name of --matrix faults' set of cells. */
    public static final String FAULTS = "faults";

    /** When each fault fires: seconds after the edge's first request, mid-way through the flood's hold. */
    public static final double FAULT_AT_SECONDS = 2;

    /** What a reload divides the front rate by: far enough under the old limit that its seconds tell the two apart. */
    public static final int RELOAD_DIVISOR = 4;

    /**
     * Each fault at the edge while the flood plan runs at twice the front rate from one address, the
     * front limit the only one on (so that what it admits is what the client counts): the reload on
     * /hare behind the edge cache (the origin answers little, so a failure is the reload's), the
     * worker kill on /tortoise without it (200 ms each in the quick profile, so that some are in flight);
     * with the suite's own origin ({@code ownOrigin}), the origin killed and started again, on /hare
     * behind the cache, and again on {@link #NO_STALE_PATH}, which permits no stale; the edge cache
     * filled to its (small) size by a distinct URL per request. A second of ramp, ten held (twelve
     * for the origin's restart, ten for the stale-refused one, eight for the cache's fill, four for
     * Redis's restart), a second to drain (nodelay queues nothing), the fault {@link #FAULT_AT_SECONDS}
     * after the first request (one for the stale-refused restart): JMeter, started late on a busy machine,
     * sends the arrivals it is behind on at once, so the traffic can end seconds early, and some must
     * be left after the fault to see the new limit in, or the edge go back to a restarted origin (seven
     * held left under a second after a reload beside two busy loops and four stack JVMs).
     */
    public static List<Cell> faults(int frontRate, boolean ownOrigin) {
        return faults(frontRate, ownOrigin, false);
    }

    /**
     * As {@link #faults(int, boolean)}, and with {@code redis} (the run has the origin's app cache in
     * Redis, --app-cache redis, on the suite's own origin) Redis killed and started again under a
     * flood of {@link #DB_PATH} past the edge cache, so that every request admitted reaches the
     * origin and its app cache.
     */
    public static List<Cell> faults(int frontRate, boolean ownOrigin, boolean redis) {
        InjectedFault reload = new InjectedFault(InjectedFault.Kind.RELOAD, FAULT_AT_SECONDS, Math.max(1, frontRate / RELOAD_DIVISOR));
        InjectedFault kill = new InjectedFault(InjectedFault.Kind.WORKER_KILL, FAULT_AT_SECONDS, 0);
        InjectedFault origin = new InjectedFault(InjectedFault.Kind.ORIGIN_RESTART, FAULT_AT_SECONDS, 0);
        List<Cell> cells = new ArrayList<>(List.of(
                flood(Cell.named(Plan.FLOOD, FAULTS, reload.kind().toString()).serverCache().fault(reload), frontRate,
                        HOLD_SECONDS),
                // Past the cache, to the slow path: requests are in flight at the kill, to be lost and counted.
                flood(Cell.named(Plan.FLOOD, FAULTS, kill.kind().toString()).fault(kill).property("path", "/tortoise"),
                        frontRate, HOLD_SECONDS)));
        if (ownOrigin) {
            // Behind the cache: what the edge holds is what it can answer while the origin is gone.
            // Held longer: the origin's JVM takes seconds to start again (5.6 s on a busy 2-core machine), and
            // traffic must be left after it to show the edge going back to it.
            cells.add(flood(Cell.named(Plan.FLOOD, FAULTS, origin.kind().toString()).serverCache().fault(origin),
                    frontRate, ORIGIN_RESTART_HOLD_SECONDS));
            // The same outage on a path whose answers permit no stale: the other side of the same rule. Earlier and
            // shorter: its entry, fresh 1 s, is stored by the first request, and a second after the new origin is
            // ready shows the edge back on it (the first expired request goes there); what is left of the hold
            // after a 5.6 s restart on a busy machine is still seconds.
            InjectedFault refused = new InjectedFault(InjectedFault.Kind.STALE_REFUSED, STALE_REFUSED_AT_SECONDS, 0);
            cells.add(flood(Cell.named(Plan.FLOOD, FAULTS, refused.kind().toString()).serverCache().fault(refused)
                    .property("path", NO_STALE_PATH), frontRate, STALE_REFUSED_HOLD_SECONDS));
        }
        // A distinct URL per request: each admitted one is a new entry, so the small cache fills within seconds.
        InjectedFault full = new InjectedFault(InjectedFault.Kind.CACHE_FULL, 0, 0);
        cells.add(flood(Cell.named(Plan.FLOOD, FAULTS, full.kind().toString()).serverCache().fault(full)
                .property("distinct", "true"), frontRate, CACHE_FULL_HOLD_SECONDS, CACHE_FULL_DRAIN_SECONDS));
        if (ownOrigin && redis) {
            InjectedFault restart = new InjectedFault(InjectedFault.Kind.REDIS_RESTART, FAULT_AT_SECONDS, 0);
            // Past the edge cache (it would answer /places for a day): every admitted request asks the app cache.
            cells.add(flood(Cell.named(Plan.FLOOD, FAULTS, restart.kind().toString()).appCache().fault(restart)
                    .property("path", DB_PATH), frontRate, REDIS_RESTART_HOLD_SECONDS));
        }
        return cells;
    }

    /**
     * The stale-refused cell's path: an endpoint the faults kind adds to the suite's origin
     * ({@link #NO_STALE_ORIGIN_ARGS}), /hare's delay with {@code Cache-Control: public, max-age=1} and no
     * stale-while-revalidate or stale-if-error. An endpoint rather than a switch: the matrix's one origin
     * takes its arguments for the whole run, and every other cell keeps the origin's stale permissions.
     */
    public static final String NO_STALE_PATH = "/hare-no-stale";

    /** The suite's origin's arguments for {@link #NO_STALE_PATH}. */
    public static final List<String> NO_STALE_ORIGIN_ARGS = List.of(
            "--origin.endpoints.hare-no-stale.delay=100ms",
            "--origin.endpoints.hare-no-stale.cache-control=public, max-age=1");

    /**
     * The cache-full cell's --cache-size: 64 of nginx's 4 KB blocks (a small entry takes one), which the
     * front limit's 40 admissions a second fill in under two seconds of the flood.
     */
    public static final String CACHE_FULL_SIZE = "256k";

    /**
     * Past the cache manager's first wake (10 s after nginx starts, the cell's generator starting in
     * between), so that it evicts mid-flood; the injector waits for it past the traffic if it has not.
     */
    private static final int CACHE_FULL_HOLD_SECONDS = 8;

    private static final double STALE_REFUSED_AT_SECONDS = 1;
    private static final int STALE_REFUSED_HOLD_SECONDS = 10;
    /** Redis starts again in well under a second: two seconds of traffic after it show the origin back on it. */
    private static final int REDIS_RESTART_HOLD_SECONDS = 4;

    private static final int HOLD_SECONDS = 10;
    /**
     * A 5.6 s restart on a busy 2-core machine, 2 s after the first request, leaves over five seconds
     * of the hold for the edge to go back to the new origin (sixteen before: four seconds of each run
     * of the test lane's faults class, which the cells added since had to give back).
     */
    private static final int ORIGIN_RESTART_HOLD_SECONDS = 12;

    private static Cell flood(Cell.Builder cell, int frontRate, int holdSeconds) {
        return flood(cell, frontRate, holdSeconds, 1);
    }

    /**
     * The cache-full cell's drain: every admitted request of it is a miss to the origin, and on a
     * saturated machine they took up to 1.7 s; JMeter cuts what is still in flight when the drain
     * ends ("Socket closed"). What it cuts at its very end is not counted against the edge
     * ({@link FaultFigures#withoutJMetersOwnAborts}): a generator behind its schedule sends its backlog
     * into the drain, and no drain is long enough for that.
     */
    private static final int CACHE_FULL_DRAIN_SECONDS = 3;

    private static Cell flood(Cell.Builder cell, int frontRate, int holdSeconds, int drainSeconds) {
        return cell.backLimit(false).property("rate", String.valueOf(2 * frontRate)).property("sources", "1")
                .property("ramp", "1").property("hold", String.valueOf(holdSeconds))
                .property("drain", String.valueOf(drainSeconds)).build();
    }

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
