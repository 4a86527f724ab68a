package dev.ratecache.suite.kinds.faults;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.report.Check;
import java.util.List;

/**
 * What the edge promises through a fault while the traffic flows (--matrix faults). A reload:
 * not one request fails (nginx's old workers finish what they hold while the new ones take the new
 * connections), and the new limit holds from some second after the signal to the end of the traffic.
 * A worker killed: its master starts another; the requests it held are lost, and counted, not
 * promised. The origin killed and started again: the edge answers from its cache meanwhile, stale
 * as the origin's stale-while-revalidate and stale-if-error permit, fails nothing, and goes back to
 * the new origin by itself. The same on a path that permits no stale: no stale answer, an error
 * instead, and no failure once the new origin is ready. The cache full: no failed request, every
 * answer says what the cache did (X-Cache-Status), and the cache manager evicts to keep it within
 * its size. The origin's Redis killed and started again: the origin answers from its database
 * meanwhile, fails nothing, and uses the new Redis by itself.
 */
public final class FaultPromise {
    private FaultPromise() {}

    /** The check's line for a cell of {@code kind}, as the report and checks.xml name it. */
    public static String text(String cell, InjectedFault.Kind kind) {
        return cell + switch (kind) {
            case RELOAD -> ": no failed request across the reload, and the new limit in force after it";
            case WORKER_KILL -> ": the master started a worker in place of the one killed";
            case ORIGIN_RESTART -> ": no failed request while the origin was down, and the edge back on the new one by itself";
            case STALE_REFUSED -> ": no stale answer while the origin was down (none permitted), an error instead, and"
                    + " the edge back on the new one by itself";
            case REDIS_RESTART -> ": no failed request while Redis was down, and the origin back on the new one by itself";
            case CACHE_FULL -> ": no failed request once the cache was full, every answer with its X-Cache-Status, and"
                    + " the cache manager evicting";
        };
    }

    /** One check per run of a fault cell (cells without a fault have none). */
    public static List<Check.Outcome> check(List<CellResult> cells) {
        return Check.perCell(cells, InjectedFault.class, FaultFigures.class,
                (r, fault) -> new Check(text(r.cell().name(), fault.kind()), r.cell().name(), null, "==", 1),
                FaultPromise::evaluate);
    }

    /** Passed when every run kept the promise; the detail is the first run that broke it, or the first run's. */
    static Check.Outcome evaluate(Check check, List<FaultFigures> runs) {
        for (int run = 1; run <= runs.size(); run++) {
            FaultFigures f = runs.get(run - 1);
            String which = runs.size() > 1 ? " (run " + run + ")" : "";
            if (f == null || !kept(f)) {
                return new Check.Outcome(check, false, (f == null ? "no fault figures" : f.terminalLine()) + which);
            }
        }
        return new Check.Outcome(check, true, runs.get(0).terminalLine());
    }

    private static boolean kept(FaultFigures f) {
        if (!f.fired() || f.error() != null) {
            return false;
        }
        return switch (f.fault().kind()) {
            // Under the old limit the seconds before must admit more than the new one allows, or they tell nothing.
            case RELOAD -> f.failed() == 0 && f.effectMs() != null && f.beforePeak() > f.newLimit();
            case WORKER_KILL -> f.respawned();
            case ORIGIN_RESTART -> f.failed() == 0 && f.recovered();
            // Without an error meanwhile no expired entry was asked for while it was down: the rule went untested.
            case STALE_REFUSED -> f.servedStale() == 0 && f.errorsMeanwhile() != null && f.errorsMeanwhile() > 0
                    && f.failedAfter() != null && f.failedAfter() == 0 && f.recovered();
            case REDIS_RESTART -> f.failed() == 0 && f.backOnRedis();
            case CACHE_FULL -> f.failed() == 0 && f.cacheFill() != null && f.cacheFill().unsaid() == 0
                    && f.cacheFill().evictedAfterMs() != null && f.cacheFill().evicted() > 0;
        };
    }
}
