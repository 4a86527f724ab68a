package dev.ratecache.suite.switches;

import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.spec.StackSpec;
import java.util.List;
import java.util.Optional;

/**
 * One tier of a {@code --tiers} file: its own limit_req zone, for the keys listed, and its own
 * quota beside it if the file gives one.
 *
 * @param quota the tier's {@code quota=} field: empty when the line has none (the tier takes
 *              --quota, if given), {@link #NO_QUOTA} for none even with --quota, else a quota in
 *              --quota's form ({@link Quota#FORM}), checked by the reader
 */
public record LimitTier(String name, int rate, int burst, LimitMode mode, List<String> keys, String quota) {
    /** The tier that unknown keys (and, with {@code --missing-key addr}, keyless requests) fall into. */
    public static final String ANONYMOUS = StackSpec.KeyTier.ANONYMOUS;
    /** The most requests/s a tier may allow: as --front-rate, which is the anonymous tier's. */
    public static final int MAX_RATE = 100_000;
    /** The largest burst a tier may have: as --front-burst. */
    public static final int MAX_BURST = 1_000_000;
    /** A tier's {@code quota=none}: no quota for its keys, whatever --quota says. */
    public static final String NO_QUOTA = "none";

    public LimitTier {
        keys = List.copyOf(keys);
        quota = quota == null ? "" : quota;
    }

    /** A tier with no quota field: it takes --quota, if given. */
    public LimitTier(String name, int rate, int burst, LimitMode mode, List<String> keys) {
        this(name, rate, burst, mode, keys, "");
    }

    /** The name as nginx zone and variable names take it. */
    public String id() {
        return name.replace('-', '_');
    }

    /** Whether the line gives a quota of its own (a quota, or none). */
    public boolean ownQuota() {
        return !quota.isEmpty();
    }

    /**
     * The quota its keys get: its own, else {@code global} (--quota's, already parsed), laid out in
     * time by {@code window} (--quota-window, shared by every tier); empty for none.
     */
    public Optional<Quota> quotaInForce(Optional<Quota> global, Quota.Window window) {
        if (quota.isEmpty()) {
            return global.map(q -> q.withWindow(window));
        }
        return quota.equals(NO_QUOTA) ? Optional.empty() : Optional.of(Quota.parse(quota, window));
    }
}
