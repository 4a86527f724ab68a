package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.List;

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
     * A figure a trait collects of a run: kept in the measurement, said on the terminal after the
     * cell. Not sealed, as {@link KindFigures} says why.
     */
    interface Figure extends KindFigures {
        String terminalLine();
    }
}
