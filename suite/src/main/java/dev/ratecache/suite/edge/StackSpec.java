package dev.ratecache.suite.edge;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.nginx.LimitMode;
import dev.ratecache.suite.nginx.LimitScope;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.nginx.StaleMode;
import dev.ratecache.suite.nginx.TierPorts;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a stack is, in no product's words: the two tiers' limits, the edge cache and where
 * everything listens. Each {@link Edge} renders it into its own product's config, and refuses
 * what its product cannot do. Immutable; {@link #from} fills it from today's flags.
 *
 * @param front       the per-client limit at the front tier; empty when off
 * @param back        the limit for the whole origin at the back tier; empty when off
 * @param key         what the per-client limit counts by
 * @param retryAfter  seconds, sent with every rejection
 * @param purgeAllow  addresses and CIDR ranges allowed to PURGE a URL from the edge cache
 * @param origins     the origins the back tier spreads requests over, at least one
 * @param edges       front tiers behind a balancer; 1 is no fleet
 * @param readTimeout seconds a tier waits for the next one's response
 */
public record StackSpec(Optional<Limit> front, Optional<Limit> back, Key key, int rejectStatus, int retryAfter,
        Cache cache, List<String> purgeAllow, List<URI> origins, Listen ports, int edges, int readTimeout) {

    public StackSpec {
        purgeAllow = List.copyOf(purgeAllow);
        origins = List.copyOf(origins);
        if (origins.isEmpty()) {
            throw new IllegalArgumentException("a stack needs at least one origin");
        }
    }

    /**
     * A rate limit: {@code rate} requests a second, {@code burst} more at once, and what happens to
     * requests inside the burst.
     *
     * @param delay with {@link Mode#DELAY}, how many of the burst pass at once; 0 otherwise
     */
    public record Limit(int rate, int burst, Mode mode, int delay) {}

    public enum Mode {
        /** Held and released at the rate. */
        QUEUE,
        /** Passed at once. */
        NODELAY,
        /** The first {@link Limit#delay} at once, the rest held. */
        DELAY
    }

    /** What the per-client limit counts by. Only the client's address for now: {@link #from} refuses the others. */
    public enum Key { ADDR }

    /**
     * The front tier's cache.
     *
     * @param bytes its size
     * @param stale when it may serve an expired entry
     */
    public record Cache(boolean on, long bytes, Stale stale) {}

    public enum Stale {
        /** Only as the origin's stale-while-revalidate and stale-if-error allow. */
        RFC,
        /** Whenever the origin fails or an entry is being refreshed, whatever the origin allowed. */
        PROTECTIVE
    }

    /** Where the tiers listen: the front on {@code listen}, the back on the loopback. */
    public record Listen(String listen, int front, int back) {}

    /** A flag the spec cannot describe yet, said in one line that names the flag and what to give instead. */
    public static final class Unsupported extends IllegalArgumentException {
        Unsupported(String message) {
            super(message);
        }
    }

    /**
     * The spec of the stack {@code switches} and {@code ports} describe, for any edge. Reads the
     * switches' getters only; the switches were checked by their own {@code problems()}.
     *
     * @throws Unsupported for a per-client key other than the address
     */
    public static StackSpec from(NginxSwitches switches, TierPorts ports) {
        if (!switches.limitKey().byAddress()) {
            throw new Unsupported("--limit-key " + switches.limitKey() + " is not in the edge stack spec yet: it counts"
                    + " clients by address only, so give --limit-key addr");
        }
        // Flags the spec does not carry yet: dropped without a word, the configs would not do what was asked.
        List<String> notYet = new java.util.ArrayList<>();
        if (switches.tls()) {
            notYet.add("--tls");
        }
        if (!switches.allow().isEmpty()) {
            notYet.add("--allow");
        }
        if (switches.limitScope() == LimitScope.MISSES) {
            notYet.add("--limit-scope misses");
        }
        if (switches.limitConn() > 0) {
            notYet.add("--limit-conn");
        }
        if (!switches.freshness().isEmpty()) {
            notYet.add("--freshness");
        }
        if (!notYet.isEmpty()) {
            throw new Unsupported(String.join(", ", notYet) + (notYet.size() == 1 ? " is" : " are")
                    + " not in the edge stack spec yet: drop " + (notYet.size() == 1 ? "it" : "them")
                    + ", or use --edge nginx");
        }
        List<URI> origins = switches.origins().isEmpty()
                ? List.of(URI.create("http://" + Ports.LOOPBACK + ":" + ports.origin()))
                : switches.origins();
        return new StackSpec(
                switches.frontLimit() ? Optional.of(limit(switches.frontRate(), switches.frontBurst(), switches.frontMode()))
                        : Optional.empty(),
                switches.backLimit() ? Optional.of(limit(switches.backRate(), switches.backBurst(), switches.backMode()))
                        : Optional.empty(),
                Key.ADDR, switches.rejectStatus(), switches.retryAfter(),
                new Cache(switches.cache(), bytes(switches.cacheSize()),
                        switches.stale() == StaleMode.PROTECTIVE ? Stale.PROTECTIVE : Stale.RFC),
                switches.purgeAllow(), origins, new Listen(ports.listen(), ports.front(), ports.back()), switches.edges(),
                switches.readTimeout());
    }

    private static Limit limit(int rate, int burst, LimitMode mode) {
        return switch (mode.kind()) {
            case QUEUE -> new Limit(rate, burst, Mode.QUEUE, 0);
            case NODELAY -> new Limit(rate, burst, Mode.NODELAY, 0);
            case DELAY -> new Limit(rate, burst, Mode.DELAY, mode.delay());
        };
    }

    /** A --cache-size value (digits with an optional k, m or g, already checked) in bytes. */
    static long bytes(String size) {
        char unit = size.charAt(size.length() - 1);
        int shift = switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        return Long.parseLong(shift == 0 ? size : size.substring(0, size.length() - 1)) << shift;
    }

    /** Whether a limit of this spec holds requests back instead of rejecting them: its mode is queue or delay. */
    public boolean queues() {
        return Stream.of(front, back).flatMap(Optional::stream).anyMatch(l -> l.mode() != Mode.NODELAY);
    }
}
