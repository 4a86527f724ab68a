package dev.ratecache.suite.matrix;

import dev.ratecache.suite.jmeter.JMeter;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the client recorded every request the plan sends: a run that lost samples (a generator
 * that died, a load host that dropped out) would report figures of other traffic.
 */
final class Completeness {
    private Completeness() {}

    /**
     * The samples the plan sends with these properties; 0 when it cannot say (a plan of the user's).
     * Distributed, each load host runs the whole plan: JMeter's own mode, so the samples add up.
     */
    static long expected(Cell cell, Map<String, String> properties, JMeter.Remote remote) {
        return cell.plan().expectedSamples(properties) * (remote == null ? 1 : remote.hosts().size());
    }

    /** What is wrong with {@code recorded} samples against {@code expected}; empty when nothing is. */
    static Optional<String> problem(long recorded, long expected) {
        if (recorded == 0 || (expected > 0 && recorded != expected)) {
            return Optional.of("incomplete: the client recorded " + recorded + " samples"
                    + (expected > 0 ? " of " + expected : ""));
        }
        return Optional.empty();
    }
}
