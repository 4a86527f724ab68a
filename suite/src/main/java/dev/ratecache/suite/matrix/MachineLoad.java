package dev.ratecache.suite.matrix;

import dev.ratecache.proc.MachineCpu;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * How busy the whole machine was over a load generator's run: the generator, the tiers, and
 * anything else on it. A machine with no core to spare measures its own queue, not the tiers.
 */
final class MachineLoad {
    private final Optional<MachineCpu.Reading> before;

    private MachineLoad(Optional<MachineCpu.Reading> before) {
        this.before = before;
    }

    /** Read just before the generator starts. */
    static MachineLoad before() {
        return new MachineLoad(MachineCpu.read());
    }

    /** The busy share of all cores since {@link #before}, in %; null where /proc/stat cannot be read. */
    Double busyPct() {
        Optional<MachineCpu.Reading> now = MachineCpu.read();
        if (before.isEmpty() || now.isEmpty()) {
            return null;
        }
        OptionalDouble pct = now.get().busyPctSince(before.get());
        return pct.isPresent() ? pct.getAsDouble() : null;
    }
}
