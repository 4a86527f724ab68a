package dev.ratecache.suite.switches;

import dev.ratecache.suite.spec.StackSpec;
import java.util.List;

/** One tier of a {@code --tiers} file: its own limit_req zone, for the keys listed. */
public record LimitTier(String name, int rate, int burst, LimitMode mode, List<String> keys) {
    /** The tier that unknown keys (and, with {@code --missing-key addr}, keyless requests) fall into. */
    public static final String ANONYMOUS = StackSpec.KeyTier.ANONYMOUS;
    /** The most requests/s a tier may allow: as --front-rate, which is the anonymous tier's. */
    public static final int MAX_RATE = 100_000;
    /** The largest burst a tier may have: as --front-burst. */
    public static final int MAX_BURST = 1_000_000;

    public LimitTier {
        keys = List.copyOf(keys);
    }

    /** The name as nginx zone and variable names take it. */
    public String id() {
        return name.replace('-', '_');
    }
}
