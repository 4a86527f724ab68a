package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.origin.OriginCounters;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * What a kind of matrix adds to its cells beyond what every cell has (plan, limits, caches,
 * generator, edge): the switches it sets, its words in the cell's description, and what it
 * collects of each run. The runner, the model and the report ask a cell for a trait by its type
 * ({@link Cell#trait}) and a measurement for a figure by its type
 * ({@link CellMeasurement.Breakdowns#figure}), so that a new kind of matrix adds a trait and its
 * figures (in its own package, kinds/), not a slot in the cell, in the measurement and in the runner.
 */
public interface CellTrait {
    /** The switches of a cell with this trait: {@code switches} (a copy of the user's) with the kind's own set. */
    StackSwitches apply(StackSwitches switches);

    /** In words, after the stack's in the cell's description. */
    String describe(Cell cell);

    /**
     * Whether this trait's words say which keys the cell sends, so that its {@link KeyedTraffic}
     * says only the limits it keys (a quota cell's keys are its quota's to describe).
     */
    default boolean describesKeys() {
        return false;
    }

    /**
     * What the kind collects of one run of {@code cell}, for its report; null when nothing.
     *
     * @param samples   every request the run's client recorded
     * @param fallbacks what the fleet's Redis said to the edges, when the cell shares its limit there; null otherwise
     */
    default Figure collect(Cell cell, List<Sample> samples, FleetFallbacks fallbacks) {
        return null;
    }

    /**
     * As {@link #collect(Cell, List, FleetFallbacks)}, for a kind that also reads what the front tier
     * logged of each request ({@code front}: every edge's, null for a cell straight to the origin).
     */
    default Figure collect(Cell cell, List<Sample> samples, FleetFallbacks fallbacks,
            List<dev.ratecache.suite.edge.EdgeEvent> front) {
        return collect(cell, samples, fallbacks);
    }

    /**
     * The kind's own work beside the cell's traffic (a fault at the tiers, slow clients holding the
     * edge's connections), set up before the generator starts; null for a kind with none. The runner
     * calls each of its steps at its moment and knows no kind by name.
     */
    default Beside beside(Run run) throws IOException {
        return null;
    }

    /** One run of a cell, as a kind's work beside its traffic sees it. */
    interface Run {
        Cell cell();

        /** The cell's tiers, started; null for a cell straight to the origin. */
        Stack stack();

        /** The spec the cell's tiers were started with. */
        StackSpec spec();

        /** The cell's switches, a fresh copy at each call, to change for a spec of its own (a reload's). */
        StackSwitches switches() throws IOException;

        StackPorts ports();

        /** The suite's origin and its Redis, for a kind that kills them mid-cell; null when the run is on the user's. */
        Restarts restarts();
    }

    /** The suite's origin and its Redis as a kind may disturb them mid-cell (--matrix faults). */
    interface Restarts {
        /**
         * Kills the origin with SIGKILL and starts it again as it was, on its ports, with its
         * arguments; the kill's moment goes to {@code killed} before the start. Returns once the new
         * one is ready.
         */
        void restartOrigin(LongConsumer killed) throws IOException;

        /** As {@link #restartOrigin}, for the run's redis-server, which comes back empty. */
        void restartRedis(LongConsumer killed) throws IOException;
    }

    /** A kind's work beside a cell's traffic, step by step as the runner calls them. */
    interface Beside extends AutoCloseable {
        /** Before the generator starts: the normal clients then meet what this set up. */
        default void beforeTraffic() throws IOException, InterruptedException {}

        /** The generator's process has started. */
        default void trafficStarted() {}

        /**
         * The generator has ended, nothing closed yet.
         *
         * @param firstStartMs epoch ms of the first request's start; 0 when there was none
         * @param lastEndMs    epoch ms of the last response's end; 0 when there was none
         */
        default void afterTraffic(long firstStartMs, long lastEndMs) throws IOException, InterruptedException {}

        /** Whether the suite's origin was killed and a new one is ready: the runner sees the edge reach it. */
        default boolean restartedOrigin() {
            return false;
        }

        /** What it saw, from the cell's own figures once read; null for nothing. */
        Figure figure(Ran ran);

        /** Stops what it started, whatever happened: after {@link #afterTraffic}, or instead of it. */
        @Override
        void close();
    }

    /**
     * What the runner read of a cell's run, for the figure of a kind's work beside it.
     *
     * @param counters     the suite's origin's counters after the run (a restarted origin's own); null on the user's
     * @param redisLookups hits and misses the run's redis-server counted; null without one, or when it did not answer
     */
    record Ran(List<Sample> samples, OriginCounters counters, Long redisLookups) {}

    /**
     * A figure a trait collects of a run: kept in the measurement, said on the terminal after the
     * cell. Not sealed, as {@link KindFigures} says why.
     */
    interface Figure extends KindFigures {
        String terminalLine();
    }
}
