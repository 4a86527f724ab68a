package dev.ratecache.suite.kinds.faults;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellTrait;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.util.Locale;

/**
 * A cell of --matrix faults: what goes wrong at the edge while the traffic flows, and when, in
 * seconds after the front tier's first request (the generator's own start-up, a JVM's on a busy
 * machine, would move the moment out of the traffic). {@link FaultInjector} makes it happen to the
 * cell's own processes, by PID.
 *
 * @param kind      what happens
 * @param atSeconds when, after the first request reached the edge
 * @param newRate   for a reload, the front limit's rate in the config reloaded; 0 otherwise
 */
public record InjectedFault(Kind kind, double atSeconds, int newRate) implements CellTrait {
    /**
     * The stale-refused cell's path: an endpoint the faults kind adds to the suite's origin
     * (the faults kind's origin arguments), /hare's delay with {@code Cache-Control: public, max-age=1} and no
     * stale-while-revalidate or stale-if-error. An endpoint rather than a switch: the matrix's one origin
     * takes its arguments for the whole run, and every other cell keeps the origin's stale permissions.
     */
    public static final String NO_STALE_PATH = "/hare-no-stale";

    /**
     * The cache-full cell's --cache-size: 64 of nginx's 4 KB blocks (a small entry takes one), which the
     * front limit's 40 admissions a second fill in under two seconds of the flood.
     */
    public static final String CACHE_FULL_SIZE = "256k";

    public enum Kind {
        /** The front tier's config rendered again with another front rate, and nginx -s reload. */
        RELOAD,
        /** The front tier's busiest worker killed with SIGKILL: its master starts another. */
        WORKER_KILL,
        /** The suite's origin killed with SIGKILL, and started again at once: the edge answers meanwhile from its cache. */
        ORIGIN_RESTART,
        /**
         * As {@link #ORIGIN_RESTART}, on a path whose answers permit no stale ({@link #NO_STALE_PATH}):
         * the edge must answer an error for an expired entry meanwhile, never the entry.
         */
        STALE_REFUSED,
        /**
         * Not an act but a moment: the front tier's cache, made small for the cell ({@link #CACHE_FULL_SIZE}),
         * reaches its max_size under a flood of distinct URLs, and the cache manager must evict.
         */
        CACHE_FULL,
        /**
         * The run's redis-server (the origin's app cache, --app-cache redis) killed with SIGKILL and started
         * again at once, empty, on its port: the origin answers from its database meanwhile.
         */
        REDIS_RESTART;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    @Override
    public StackSwitches apply(StackSwitches switches) {
        // Only the cell whose cache must fill gets a small one: the user's --cache-size would hold the whole flood.
        return kind == Kind.CACHE_FULL ? switches.cacheSize(CACHE_FULL_SIZE) : switches;
    }

    /**
     * The injector of the fault into the cell's front tier; none for a cell without tiers. A reload's
     * config is the cell's with the fault's front rate, rendered when it fires.
     */
    @Override
    public CellTrait.Beside beside(CellTrait.Run run) throws IOException {
        Stack stack = run.stack();
        if (stack == null) {
            return null;
        }
        StackSpec reloaded = null;
        if (kind == Kind.RELOAD) {
            StackSpec spec = run.switches().frontRate(newRate).spec(run.ports());
            reloaded = stack.tls().map(spec::withTlsFiles).orElse(spec);
        }
        if ((kind == Kind.ORIGIN_RESTART || kind == Kind.STALE_REFUSED) && run.restarts() == null) {
            throw new IllegalStateException("a fault cell that restarts the origin runs only on the suite's own");
        }
        if (kind == Kind.REDIS_RESTART && (run.restarts() == null || !run.cell().appCache())) {
            throw new IllegalStateException("a fault cell that restarts Redis runs only with the suite's own origin's"
                    + " app cache (--app-cache redis)");
        }
        return new FaultInjector(this, stack, reloaded, run.ports().frontStatus(), run.restarts());
    }

    @Override
    public String describe(Cell cell) {
        String when = String.format(Locale.ROOT, "%.1f s after the first request", atSeconds);
        return switch (kind) {
            case RELOAD -> "the front tier reloaded (nginx -s reload) with its limit at " + newRate + " r/s, " + when;
            case WORKER_KILL -> "the front worker holding the most connections killed with SIGKILL, " + when;
            case ORIGIN_RESTART -> "the origin killed with SIGKILL and started again, " + when;
            case STALE_REFUSED -> "the origin killed with SIGKILL and started again, " + when + ", on "
                    + NO_STALE_PATH + ", whose answers permit no stale";
            case REDIS_RESTART -> "the origin's Redis (its app cache) killed with SIGKILL and started again, " + when
                    + ", on " + Matrix.DB_PATH + " past the edge cache";
            case CACHE_FULL -> "the edge cache (max_size " + CACHE_FULL_SIZE + ") filled by a distinct URL per"
                    + " request, and kept within its size by the cache manager";
        };
    }
}
