package dev.ratecache.suite.matrix;

import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.spec.StackSpec;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the fleet's Redis said to a cell's edges under --fleet-limit shared, from their events
 * ({@link EdgeEvent#fleet()}): how many requests asked it, and how many
 * of those fell back to the edge's own split limit because it failed or passed --fleet-redis-timeout.
 * Any cell with the shared limit has these, whichever matrix it is of.
 *
 * @param redis     the Redis the edges asked, HOST:PORT
 * @param asked     requests the edges counted with the shared limit, or tried to
 * @param fallbacks of those, the ones counted by the edge's own split limit instead
 */
public record FleetFallbacks(String redis, long asked, long fallbacks) implements KindFigures {
    /** The fleet values of a request that asked Redis (EXEMPT and NONE never do). */
    private static final Set<String> ASKED = Set.of("PASSED", "DELAYED", "REJECTED", "FALLBACK");

    /**
     * The figures of a cell's edges' events when its stack shares the limit, whichever matrix the
     * cell is of; null when it does not.
     *
     * @param tiers the spec the tiers ran, with the Redis the stack started when --fleet-redis named none
     */
    public static FleetFallbacks of(StackSpec tiers, List<EdgeEvent> edges) {
        if (!tiers.fleetShared()) {
            return null;
        }
        String redis = tiers.fleet().redis().orElse("none");
        long asked = 0;
        long fallbacks = 0;
        for (EdgeEvent e : edges) {
            asked += ASKED.contains(e.fleet()) ? 1 : 0;
            fallbacks += e.fleet().equals("FALLBACK") ? 1 : 0;
        }
        return new FleetFallbacks(redis, asked, fallbacks);
    }

    /**
     * Whether most requests (more than half) fell back: then the promise the user chose did not run,
     * and the cell measured the split limit under the shared one's name.
     */
    public boolean mostFellBack() {
        return fallbacks * 2 > asked;
    }

    /** What the report says under the plan's table (Read with care) and the terminal after the cell. */
    public String warning() {
        return String.format(Locale.ROOT, "SHARED LIMIT NOT RUN: %d of %d requests (%.0f %%) fell back to each edge's"
                + " own split limit because the fleet's Redis at %s was unreachable or slower than"
                + " --fleet-redis-timeout, so these figures are --fleet-limit split's; check that Redis answers there"
                + " (--fleet-redis), or raise --fleet-redis-timeout", fallbacks, asked, 100.0 * fallbacks / asked, redis);
    }
}
