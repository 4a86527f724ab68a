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

    /**
     * Whether every request failed, none answered nor rejected by a limit: an origin that was not
     * there, tiers that could not reach it. Such a cell measured nothing but the failure, and is
     * no completed cell whatever its count of samples.
     */
    static Optional<String> allFailed(dev.ratecache.jtl.JtlSummary summary) {
        if (summary.samples() > 0 && summary.otherErrors() == summary.samples()) {
            return Optional.of("every request failed (" + summary.samples() + " of " + summary.samples()
                    + ", none answered or rejected by a limit): is the origin up and reachable from the tiers?");
        }
        return Optional.empty();
    }
}
