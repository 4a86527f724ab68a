package dev.ratecache.suite.switches;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which tier a key is in, as the rendered maps decide it: the tier of the {@code --tiers} file that
 * lists it, else {@link LimitTier#ANONYMOUS}. Without a tiers file every key is anonymous, so a
 * replay's or an advice's tables still have one tier to show.
 */
public final class TierMembership {
    private final List<String> names = new ArrayList<>();
    private final Map<String, String> tierOfKey = new HashMap<>();

    private TierMembership(List<LimitTier> tiers) {
        for (LimitTier t : tiers) {
            names.add(t.name());
            t.keys().forEach(k -> tierOfKey.put(k, t.name()));
        }
        if (!names.contains(LimitTier.ANONYMOUS)) {
            names.add(LimitTier.ANONYMOUS);
        }
    }

    /** The tiers of a file, in its order; empty for none. */
    public static TierMembership of(List<LimitTier> tiers) {
        return new TierMembership(tiers);
    }

    public String tierOf(String key) {
        return tierOfKey.getOrDefault(key, LimitTier.ANONYMOUS);
    }

    /** Every tier's name, in the file's order, with anonymous (last when the file does not name it). */
    public List<String> names() {
        return List.copyOf(names);
    }
}
