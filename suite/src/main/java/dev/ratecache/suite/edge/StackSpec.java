package dev.ratecache.suite.edge;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.nginx.AddressCeiling;
import dev.ratecache.suite.nginx.LimitKey;
import dev.ratecache.suite.nginx.LimitMode;
import dev.ratecache.suite.nginx.LimitScope;
import dev.ratecache.suite.nginx.MissingKey;
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
 * @param missing     with a key other than the address, what happens to a request without a valid one
 * @param ceiling     with a key other than the address, the per-address limit kept beside the key's
 *                    (always nodelay); empty when off or when the key is the address
 * @param allow       networks (CIDR) the per-client limit and the ceiling never count; the back's still does
 * @param retryAfter  seconds, sent with every rejection
 * @param purgeAllow  addresses and CIDR ranges allowed to PURGE a URL from the edge cache
 * @param origins     the origins the back tier spreads requests over, at least one
 * @param edges       front tiers behind a balancer; 1 is no fleet
 * @param readTimeout seconds a tier waits for the next one's response
 */
public record StackSpec(Optional<Limit> front, Optional<Limit> back, Key key, Missing missing, Optional<Limit> ceiling,
        List<String> allow, int rejectStatus, int retryAfter, Cache cache, List<String> purgeAllow, List<URI> origins,
        Listen ports, int edges, int readTimeout) {

    /** The most bytes a valid key has, as nginx's edge checks it (snippets/shared/limit-key.conf). */
    public static final int MAX_KEY_BYTES = 256;

    public StackSpec {
        allow = List.copyOf(allow);
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
    public record Limit(int rate, int burst, Mode mode, int delay) {
        /** The mode as --front-mode and --back-mode take it. */
        String modeFlag() {
            return mode == Mode.DELAY ? "delay=" + delay : mode == Mode.QUEUE ? "queue" : "nodelay";
        }
    }

    public enum Mode {
        /** Held and released at the rate. */
        QUEUE,
        /** Passed at once. */
        NODELAY,
        /** The first {@link Limit#delay} at once, the rest held. */
        DELAY
    }

    /**
     * What the per-client limit counts by: the client's address, or a key it sends in the header,
     * cookie or query argument {@code name}. A valid key is present, at most {@value #MAX_KEY_BYTES}
     * bytes and free of control characters (for a query argument, percent-encoded ones too).
     */
    public record Key(Source source, String name) {
        public static final Key ADDR = new Key(Source.ADDR, "");

        public boolean byAddress() {
            return source == Source.ADDR;
        }

        /**
         * A valid key as a PCRE, which both products' regular expressions are (without UTF-8
         * mode, so it counts bytes): nginx's edge's own check (NginxRenderer.keyPattern).
         */
        public String pattern() {
            String plain = "[^\\x00-\\x1f\\x7f]{1," + MAX_KEY_BYTES + "}";
            return source == Source.ARG ? "^(?!.*%([01][0-9A-Fa-f]|7[Ff]))" + plain + "$" : "^" + plain + "$";
        }

        /** The one line a request without a valid key is refused with, as nginx's edge says it. */
        public String missingBody() {
            return "401 Unauthorized: send a valid API key in " + where() + " (at most " + MAX_KEY_BYTES
                    + " bytes, no control characters)";
        }

        /** The WWW-Authenticate of that 401: the suite's own scheme, naming where the key goes. */
        public String challenge() {
            return "ApiKey " + source.name().toLowerCase(java.util.Locale.ROOT) + "=\"" + name + "\"";
        }

                /** Where the client puts it, for the 401 of a request without one. */
        public String where() {
            return switch (source) {
                case ADDR -> "its address";
                case HEADER -> "the header " + name;
                case COOKIE -> "the cookie " + name;
                case ARG -> "the query argument " + name;
            };
        }
    }

    public enum Source { ADDR, HEADER, COOKIE, ARG }

    /** A request without a valid key: counted by its address, or refused with 401. */
    public enum Missing { ADDR, REJECT }

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
     * @throws Unsupported for --tls, --tiers, --limit-scope misses, --limit-conn and --freshness
     */
    public static StackSpec from(NginxSwitches switches, TierPorts ports) {
        // Flags the spec does not carry yet: dropped without a word, the configs would not do what was asked.
        List<String> notYet = new java.util.ArrayList<>();
        if (switches.tls()) {
            notYet.add("--tls");
        }
        if (switches.tiersFile() != null) {
            notYet.add("--tiers");
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
                key(switches.limitKey()), switches.missingKey() == MissingKey.REJECT ? Missing.REJECT : Missing.ADDR,
                ceiling(switches), switches.allow(), switches.rejectStatus(), switches.retryAfter(),
                new Cache(switches.cache(), bytes(switches.cacheSize()),
                        switches.stale() == StaleMode.PROTECTIVE ? Stale.PROTECTIVE : Stale.RFC),
                switches.purgeAllow(), origins, new Listen(ports.listen(), ports.front(), ports.back()), switches.edges(),
                switches.readTimeout());
    }

    private static Key key(LimitKey key) {
        return switch (key.kind()) {
            case ADDR -> Key.ADDR;
            case HEADER -> new Key(Source.HEADER, key.name());
            case COOKIE -> new Key(Source.COOKIE, key.name());
            case ARG -> new Key(Source.ARG, key.name());
        };
    }

    /** Resolved as nginx's edge resolves it: auto against the tiers in force (here the anonymous one alone). */
    private static Optional<Limit> ceiling(NginxSwitches switches) {
        AddressCeiling c = switches.addressCeilingInForce(List.of());
        return switches.limitKey().byAddress() || c.kind() == AddressCeiling.Kind.OFF ? Optional.empty()
                : Optional.of(new Limit(c.rate(), c.burst(), Mode.NODELAY, 0));
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

    /**
     * For a product that only rejects: "(FLAGS): give NODELAY-FLAGS", the flags that asked a queue
     * or a delay and what to give instead, as its refusal says them.
     */
    public String queueingFlagsAndFix() {
        List<String> flags = new java.util.ArrayList<>();
        front.filter(l -> l.mode() != Mode.NODELAY).ifPresent(l -> flags.add("--front-mode " + l.modeFlag()));
        back.filter(l -> l.mode() != Mode.NODELAY).ifPresent(l -> flags.add("--back-mode " + l.modeFlag()));
        String given = String.join(" ", flags);
        return "(" + given + "): give " + given.replaceAll("(queue|delay=\\d+)", "nodelay");
    }
}
