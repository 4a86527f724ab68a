package dev.ratecache.suite.spec;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a stack is, in no product's words: the two tiers' limits and keys, the edge cache, TLS, the
 * fleet of edges, the origins and where everything listens. Each edge adapter renders it into its
 * own product's config, and refuses what its product cannot do. Immutable; the command line's
 * flags fill it ({@code StackSwitches.spec}), once they have checked it ({@code problems()}).
 *
 * @param front       the per-client limit at the front tier; empty when off
 * @param back        the limit for the whole origin at the back tier; empty when off
 * @param key         what the per-client limit counts by
 * @param missing     with a key other than the address, what happens to a request without a valid one
 * @param ceiling     with a key other than the address, the per-address limit kept beside the key's
 *                    (always nodelay), resolved against the tiers; empty when off or when the key is the address
 * @param tiers       tiers of keys, each its own limit, as a tiers file lists them; empty without one
 * @param allow       networks (CIDR) the per-client limit and the ceiling never count; the back's still does
 * @param scope       which requests cost per-client quota: all at the edge, or only the edge cache's misses at the back
 * @param limitConn   connections at once per client address at the front; 0 is no such limit
 * @param retryAfter  seconds, sent with every rejection
 * @param purgeAllow  addresses and CIDR ranges allowed to PURGE a URL from the edge cache
 * @param origins     the origins the back tier spreads requests over, at least one
 * @param ownOrigin   whether that is the suite's own origin, started with the stack, rather than the user's (--origin)
 * @param balance     how the back tier spreads them
 * @param ports       where the tiers listen: the front on {@code ports.listen()}, the rest on the loopback
 * @param fleet       the front tiers behind a balancer, and how the per-client limit holds across them
 * @param tls         TLS at the tier clients connect to; empty for plain HTTP
 * @param connections kept-alive connections between tiers, and how long each side waits
 * @param tuning      knobs of one product that the others have no word for
 * @param said        the flags that asked for this stack, for a rendered config's stamp
 * @param quota       the quota per client (--quota), which a tier without its own takes; empty without it
 * @param ownFront    the user's own nginx config in the front tier's place (--nginx-conf); then {@code front}
 *                    and {@code cache} say only whether its limits and its cache stay in the copy that runs
 */
public record StackSpec(Optional<Limit> front, Optional<Limit> back, Key key, Missing missing, Optional<Limit> ceiling,
        List<KeyTier> tiers, List<String> allow, LimitScope scope, int limitConn, int rejectStatus, int retryAfter,
        Cache cache, List<String> purgeAllow, List<URI> origins, boolean ownOrigin, Balance balance, TierPorts ports, Fleet fleet,
        Optional<Tls> tls, Connections connections, Tuning tuning, Said said, Optional<Quota> quota,
        Optional<UserFront> ownFront) {

    /** The most bytes a valid key has, as nginx's edge checks it (snippets/shared/limit-key.conf). */
    public static final int MAX_KEY_BYTES = 256;

    public StackSpec {
        tiers = List.copyOf(tiers);
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
        public String modeFlag() {
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
     * @param size             its size as given: digits with an optional k, m or g
     * @param stale            when it may serve an expired entry
     * @param backgroundUpdate whether an expired entry that may be served stale is refreshed in the
     *                         background while the client gets the stale one
     * @param age              whether an answer from the cache carries Age (RFC 9111 section 5.1)
     * @param freshness        seconds fresh per path, overriding the origin's Cache-Control at the edge
     */
    public record Cache(boolean on, String size, Stale stale, boolean backgroundUpdate, boolean age,
            Map<String, Integer> freshness) {
        public Cache {
            freshness = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(freshness));
        }

        /** Its size in bytes. */
        public long bytes() {
            return StackSpec.bytes(size);
        }
    }

    public enum Stale {
        /** Only as the origin's stale-while-revalidate and stale-if-error allow. */
        RFC,
        /** Whenever the origin fails or an entry is being refreshed, whatever the origin allowed. */
        PROTECTIVE
    }

    /**
     * One tier of keys: its own limit, for the keys listed, and the quota in force for them.
     *
     * @param quota the tier's own quota (a tiers file's {@code quota=}) or else the stack's
     *              ({@link StackSpec#quota()}, --quota); empty for none
     */
    public record KeyTier(String name, Limit limit, List<String> keys, Optional<Quota> quota) {
        /** The tier of a key no tier lists, at the front's limit unless a tier of this name sets another. */
        public static final String ANONYMOUS = "anonymous";

        public KeyTier {
            keys = List.copyOf(keys);
        }

        /** A tier without a quota. */
        public KeyTier(String name, Limit limit, List<String> keys) {
            this(name, limit, keys, Optional.empty());
        }
    }

    /**
     * The front tiers: {@code edges} of them behind a balancer that spreads clients by
     * {@code spread}, the per-client limit held across them by {@code limit}; 1 is no fleet.
     *
     * @param redis          with {@link FleetLimit#SHARED}, the Redis the edges share as HOST:PORT;
     *                       empty for the one the stack starts
     * @param redisTimeoutMs how long an edge waits for that Redis before it limits alone
     */
    public record Fleet(int edges, EdgeBalance spread, FleetLimit limit, Optional<String> redis, int redisTimeoutMs) {
        public static final Fleet NONE = new Fleet(1, EdgeBalance.ROUND_ROBIN, FleetLimit.PER_EDGE, Optional.empty(), 50);
    }

    /**
     * TLS at the tier clients connect to.
     *
     * @param files    certificate, key and trust; empty until the stack makes a throwaway CA for it
     * @param httpPort a plain-HTTP port that redirects to HTTPS; 0 for none
     */
    public record Tls(Optional<TlsFiles> files, boolean http2, boolean hsts, int httpPort) {}

    /**
     * @param keepalive   idle connections each tier keeps open to the next
     * @param readTimeout seconds a tier waits for the next one's response
     * @param clientTimeout seconds the front waits for a client's request
     */
    public record Connections(int keepalive, int readTimeout, int clientTimeout) {}

    /**
     * Knobs of one product that the others have no word for: nginx's worker processes per tier
     * (a number or auto) and what counts its Age (auto already resolved).
     */
    public record Tuning(String workers, AgeSource ageSource) {}

    /**
     * How the user asked for this stack: the switches in words, and the flags that give it again,
     * those at their defaults left out.
     */
    public record Said(String words, List<String> flags) {
        public Said {
            flags = List.copyOf(flags);
        }
    }

    /** A --cache-size value (digits with an optional k, m or g, already checked) in bytes. */
    public static long bytes(String size) {
        char unit = size.charAt(size.length() - 1);
        int shift = switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        return Long.parseLong(shift == 0 ? size : size.substring(0, size.length() - 1)) << shift;
    }

    /** The front tiers behind the balancer; 1 is no fleet. */
    public int edges() {
        return fleet.edges();
    }

    /** Seconds a tier waits for the next one's response. */
    public int readTimeout() {
        return connections.readTimeout();
    }

    /** Whether the edges share each client's bucket in Redis: a fleet holding the limit with {@link FleetLimit#SHARED}. */
    public boolean fleetShared() {
        return fleet.edges() > 1 && front.isPresent() && fleet.limit() == FleetLimit.SHARED;
    }

    /** Whether any client has a quota: --quota's, or a tier's own. */
    public boolean hasQuota() {
        return quota.isPresent() || tiers.stream().anyMatch(t -> t.quota().isPresent());
    }

    /** Whether the edges need a Redis: to share each client's bucket, or to count its quota. */
    public boolean needsRedis() {
        return fleetShared() || hasQuota();
    }

    /** Whether TLS waits for the throwaway CA the stack makes: asked for with no certificate given. */
    public boolean needsThrowawayTls() {
        return tls.isPresent() && tls.get().files().isEmpty();
    }

    /** This spec with {@code files} as its TLS certificate, key and trust. */
    public StackSpec withTlsFiles(TlsFiles files) {
        Tls t = tls.orElseThrow(() -> new IllegalStateException("the stack has no TLS"));
        return new StackSpec(front, back, key, missing, ceiling, tiers, allow, scope, limitConn, rejectStatus, retryAfter,
                cache, purgeAllow, origins, ownOrigin, balance, ports, fleet,
                Optional.of(new Tls(Optional.of(files), t.http2(), t.hsts(), t.httpPort())), connections, tuning, said, quota, ownFront);
    }

    /** This spec with its tiers on {@code ports}. */
    public StackSpec withPorts(TierPorts ports) {
        return new StackSpec(front, back, key, missing, ceiling, tiers, allow, scope, limitConn, rejectStatus, retryAfter,
                cache, purgeAllow, origins, ownOrigin, balance, ports, fleet, tls, connections, tuning, said, quota, ownFront);
    }

    /** This spec with the edges sharing the Redis at {@code hostPort}. */
    public StackSpec withFleetRedis(String hostPort) {
        return new StackSpec(front, back, key, missing, ceiling, tiers, allow, scope, limitConn, rejectStatus, retryAfter,
                cache, purgeAllow, origins, ownOrigin, balance, ports, new Fleet(fleet.edges(), fleet.spread(), fleet.limit(),
                        Optional.of(hostPort), fleet.redisTimeoutMs()), tls, connections, tuning, said, quota, ownFront);
    }

    /**
     * The flags of this spec that only nginx's adapter renders so far, as a user gave them; a
     * product's refusal names them (see {@link #notRenderedBy}).
     */
    public List<String> nginxOnlyFlags() {
        List<String> flags = new java.util.ArrayList<>();
        tls.ifPresent(t -> flags.add("--tls"));
        if (!tiers.isEmpty()) {
            flags.add("--tiers");
        }
        if (scope == LimitScope.MISSES) {
            flags.add("--limit-scope misses");
        }
        if (limitConn > 0) {
            flags.add("--limit-conn");
        }
        if (!cache.freshness().isEmpty()) {
            flags.add("--freshness");
        }
        return flags;
    }

    /**
     * The one line {@code product}'s adapter refuses this spec's {@link #nginxOnlyFlags} with, all of
     * them together but those it {@code renders} (as the flags are named there); empty when none is left.
     */
    public Optional<String> notRenderedBy(String product, java.util.Set<String> renders) {
        List<String> flags = new java.util.ArrayList<>(nginxOnlyFlags());
        flags.removeAll(renders);
        if (flags.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(String.join(", ", flags) + (flags.size() == 1 ? " is" : " are") + " not in " + product
                + "'s adapter yet: drop " + (flags.size() == 1 ? "it" : "them") + ", or use --edge nginx");
    }

    /** Whether a limit of this spec holds requests back instead of rejecting them: its mode is queue or delay. */
    public boolean queues() {
        return Stream.of(front, back).flatMap(Optional::stream).anyMatch(l -> l.mode() != Mode.NODELAY);
    }

    /** The tiers of keys whose limit queues or delays, each as "NAME MODE", for a product that only rejects to name. */
    public List<String> queueingTiers() {
        return tiers.stream().filter(t -> t.limit().mode() != Mode.NODELAY)
                .map(t -> t.name() + " " + t.limit().modeFlag()).toList();
    }

    /**
     * What a valid key no tier lists is limited at: the anonymous tier's limit when the tiers file
     * has a line of that name, else the front's; empty with the front's limit off.
     */
    public Optional<Limit> anonymousLimit() {
        return front.map(f -> tiers.stream().filter(t -> t.name().equals(KeyTier.ANONYMOUS)).map(KeyTier::limit)
                .findFirst().orElse(f));
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
