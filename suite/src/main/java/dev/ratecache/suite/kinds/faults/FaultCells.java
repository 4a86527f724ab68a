package dev.ratecache.suite.kinds.faults;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import java.util.ArrayList;
import java.util.List;

/** The cells of --matrix faults: each fault at the edge while the flood runs. */
public final class FaultCells {
    private FaultCells() {}

    /** The name of --matrix faults' set of cells. */
    private static final String FAULTS = "faults";

    /** When each fault fires: seconds after the edge's first request, mid-way through the flood's hold. */
    private static final double FAULT_AT_SECONDS = 2;

    /** What a reload divides the front rate by: far enough under the old limit that its seconds tell the two apart. */
    private static final int RELOAD_DIVISOR = 4;

    /**
     * Each fault at the edge while the flood plan runs at twice the front rate from one address, the
     * front limit the only one on (so that what it admits is what the client counts): the reload on
     * /hare behind the edge cache (the origin answers little, so a failure is the reload's), the
     * worker kill on /tortoise without it (200 ms each in the quick profile, so that some are in flight);
     * with the suite's own origin ({@code ownOrigin}), the origin killed and started again, on /hare
     * behind the cache, and again on {@link InjectedFault#NO_STALE_PATH}, which permits no stale; the edge cache
     * filled to its (small) size by a distinct URL per request. A second of ramp, ten held (twelve
     * for the origin's restart, ten for the stale-refused one, eight for the cache's fill, four for
     * Redis's restart), a second to drain (nodelay queues nothing), the fault {@link #FAULT_AT_SECONDS}
     * after the first request (one for the stale-refused restart): JMeter, started late on a busy machine,
     * sends the arrivals it is behind on at once, so the traffic can end seconds early, and some must
     * be left after the fault to see the new limit in, or the edge go back to a restarted origin (seven
     * held left under a second after a reload beside two busy loops and four stack JVMs).
     */
    public static List<Cell> of(int frontRate, boolean ownOrigin) {
        return of(frontRate, ownOrigin, false);
    }

    /**
     * As {@link #of(int, boolean)}, and with {@code redis} (the run has the origin's app cache in
     * Redis, --app-cache redis, on the suite's own origin) Redis killed and started again under a
     * flood of {@link Matrix#DB_PATH} past the edge cache, so that every request admitted reaches the
     * origin and its app cache.
     */
    public static List<Cell> of(int frontRate, boolean ownOrigin, boolean redis) {
        InjectedFault reload = new InjectedFault(InjectedFault.Kind.RELOAD, FAULT_AT_SECONDS, Math.max(1, frontRate / RELOAD_DIVISOR));
        InjectedFault kill = new InjectedFault(InjectedFault.Kind.WORKER_KILL, FAULT_AT_SECONDS, 0);
        InjectedFault origin = new InjectedFault(InjectedFault.Kind.ORIGIN_RESTART, FAULT_AT_SECONDS, 0);
        List<Cell> cells = new ArrayList<>(List.of(
                flood(Cell.named(Plan.FLOOD, FAULTS, reload.kind().toString()).serverCache().trait(reload), frontRate,
                        HOLD_SECONDS),
                // Past the cache, to the slow path: requests are in flight at the kill, to be lost and counted.
                flood(Cell.named(Plan.FLOOD, FAULTS, kill.kind().toString()).trait(kill).property("path", "/tortoise"),
                        frontRate, HOLD_SECONDS)));
        if (ownOrigin) {
            // Behind the cache: what the edge holds is what it can answer while the origin is gone.
            // Held longer: the origin's JVM takes seconds to start again (5.6 s on a busy 2-core machine), and
            // traffic must be left after it to show the edge going back to it.
            cells.add(flood(Cell.named(Plan.FLOOD, FAULTS, origin.kind().toString()).serverCache().trait(origin),
                    frontRate, ORIGIN_RESTART_HOLD_SECONDS));
            // The same outage on a path whose answers permit no stale: the other side of the same rule. Earlier and
            // shorter: its entry, fresh 1 s, is stored by the first request, and a second after the new origin is
            // ready shows the edge back on it (the first expired request goes there); what is left of the hold
            // after a 5.6 s restart on a busy machine is still seconds.
            InjectedFault refused = new InjectedFault(InjectedFault.Kind.STALE_REFUSED, STALE_REFUSED_AT_SECONDS, 0);
            cells.add(flood(Cell.named(Plan.FLOOD, FAULTS, refused.kind().toString()).serverCache().trait(refused)
                    .property("path", InjectedFault.NO_STALE_PATH), frontRate, STALE_REFUSED_HOLD_SECONDS));
        }
        // A distinct URL per request: each admitted one is a new entry, so the small cache fills within seconds.
        InjectedFault full = new InjectedFault(InjectedFault.Kind.CACHE_FULL, 0, 0);
        cells.add(flood(Cell.named(Plan.FLOOD, FAULTS, full.kind().toString()).serverCache().trait(full)
                .property("distinct", "true"), frontRate, CACHE_FULL_HOLD_SECONDS, CACHE_FULL_DRAIN_SECONDS));
        if (ownOrigin && redis) {
            InjectedFault restart = new InjectedFault(InjectedFault.Kind.REDIS_RESTART, FAULT_AT_SECONDS, 0);
            // Past the edge cache (it would answer /places for a day): every admitted request asks the app cache.
            cells.add(flood(Cell.named(Plan.FLOOD, FAULTS, restart.kind().toString()).appCache().trait(restart)
                    .property("path", Matrix.DB_PATH), frontRate, REDIS_RESTART_HOLD_SECONDS));
        }
        return cells;
    }

    /** The suite's origin's arguments for {@link InjectedFault#NO_STALE_PATH}. */
    public static final List<String> NO_STALE_ORIGIN_ARGS = List.of(
            "--origin.endpoints.hare-no-stale.delay=100ms",
            "--origin.endpoints.hare-no-stale.cache-control=public, max-age=1");

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
}
