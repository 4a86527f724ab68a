package dev.ratecache.suite.matrix;

import dev.ratecache.suite.switches.StackSwitches;
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
public record Fault(Kind kind, double atSeconds, int newRate) implements CellTrait {
    public enum Kind {
        /** The front tier's config rendered again with another front rate, and nginx -s reload. */
        RELOAD,
        /** The front tier's busiest worker killed with SIGKILL: its master starts another. */
        WORKER_KILL,
        /** The suite's origin killed with SIGKILL, and started again at once: the edge answers meanwhile from its cache. */
        ORIGIN_RESTART;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    @Override
    public StackSwitches apply(StackSwitches switches) {
        return switches;
    }

    @Override
    public String describe(Cell cell) {
        String when = String.format(Locale.ROOT, "%.1f s after the first request", atSeconds);
        return switch (kind) {
            case RELOAD -> "the front tier reloaded (nginx -s reload) with its limit at " + newRate + " r/s, " + when;
            case WORKER_KILL -> "the front worker holding the most connections killed with SIGKILL, " + when;
            case ORIGIN_RESTART -> "the origin killed with SIGKILL and started again, " + when;
        };
    }
}
