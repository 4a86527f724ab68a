package dev.ratecache.suite.explain;

import dev.ratecache.model.LimitReq;
import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.LimitReqStatus;
import dev.ratecache.model.ZoneStates;
import dev.ratecache.suite.explain.ConfigSpec.AppliedLimit;
import dev.ratecache.suite.explain.ConfigSpec.CacheSettings;
import dev.ratecache.suite.explain.ConfigSpec.LimitZone;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pitfalls of a config, each with its file:line and the fix: the mistakes the field's reports
 * are about (a key of the proxy's address, r/m rates counted in milliseconds, queues nobody meant,
 * 503 for "slow down", zones that fill, limits multiplied by replicas, cache stampedes and caches
 * that serve one user's answer to another, a dry run left on). Each is found once, at the line it
 * is about, however many places it applies to.
 */
public final class Pitfalls {
    /**
     * A state takes 128 bytes on a 64-bit build for any key up to 48 bytes (the rbtree node to its
     * colour, 32, the state to its key, 48, and the key, in the slab's next power of two): nginx's
     * docs give 64 bytes for 32-bit platforms and 128 for 64-bit ones, so 1m holds about 8,000
     * addresses, not 16,000. {@link ZoneStates} counts them as nginx's slab does.
     */
    static final long STATE_BYTES = 128;
    /** The key's bytes the zone's states are counted for: 4 for a binary IPv4 address, else up to 48 (one 128-byte slot). */
    private static int keyBytes(LimitZone zone) {
        return zone.key() instanceof KeyExpr.Address a && a.variable().equals("$binary_remote_addr") ? 4 : 48;
    }

    /**
     * The user's circumstances, from the command line.
     *
     * @param behindProxy the proxy or balancer in front of this nginx (--behind-proxy), or null
     * @param replicas    how many instances of this config share the traffic (--replicas)
     */
    public record Context(String behindProxy, int replicas) {
        public static final Context NONE = new Context(null, 1);
    }

    private final Map<String, Finding> found = new LinkedHashMap<>();
    private final Context context;

    private Pitfalls(Context context) {
        this.context = context;
    }

    /** Every pitfall of {@code spec}, in the order of the places they were found at. */
    public static List<Finding> of(ConfigSpec spec, Context context) {
        Pitfalls p = new Pitfalls(context);
        for (ConfigSpec.Server server : spec.servers()) {
            for (Place place : server.places()) {
                p.limits(place);
                if (place.cache() != null && place.upstream() != null) {
                    p.cache(place, place.cache());
                }
            }
        }
        return new ArrayList<>(p.found.values());
    }

    private void add(Finding f) {
        found.putIfAbsent(f.kind() + " " + f.where(), f);
    }

    /** The keys {@code zone} holds before nginx removes the least recently used one by force ({@link ZoneStates}). */
    static long states(LimitZone zone) {
        return zone.sizeBytes() < ZoneStates.SMALLEST ? 0 : ZoneStates.states(zone.sizeBytes(), keyBytes(zone), zone.name());
    }

    /** The keys a 1m zone of the same key holds: fewer is a pitfall. */
    private static long oneMegabyte(LimitZone zone) {
        return ZoneStates.states(1024 * 1024, keyBytes(zone), zone.name());
    }

    /**
     * The least gap, in ms, at which a second request from one client passes a fresh state of
     * {@code limit}: found with the model, by nginx's millisecond arithmetic.
     */
    static long leastGapMs(AppliedLimit limit) {
        LimitReqSpec spec = limit.spec(503);
        long low = 0;
        long high = 1;
        while (!passesSecondAfter(spec, high, limit.burst())) {
            high *= 2;
        }
        while (high - low > 1) {
            long mid = (low + high) / 2;
            if (passesSecondAfter(spec, mid, limit.burst())) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return high;
    }

    /** Whether burst+2 requests, burst+1 at once and one more {@code gapMs} later, are all answered. */
    private static boolean passesSecondAfter(LimitReqSpec spec, long gapMs, int burst) {
        LimitReq zone = new LimitReq(spec);
        for (int i = 0; i <= burst; i++) {
            zone.decide("client", 0);
        }
        return zone.decide("client", gapMs).status() != LimitReqStatus.REJECTED;
    }

    private void limits(Place place) {
        for (AppliedLimit limit : place.limits()) {
            LimitZone zone = limit.zone();
            boolean behind = place.forwardsXff() != null || context.behindProxy() != null;
            if (zone.key().dependsOnAddress() && !place.realIp() && behind) {
                String why = context.behindProxy() != null ? "it sits behind " + context.behindProxy() + " (--behind-proxy)"
                        : "the config forwards X-Forwarded-For (" + place.forwardsXff() + "), so a proxy is likely in front";
                add(new Finding("real-ip", zone.where(), "limit_req_zone " + zone.name() + " counts per " + zone.key().words()
                        + ", but " + why + " and no set_real_ip_from or real_ip_header is in force at " + place.label()
                        + ": every client behind the proxy has the proxy's address, and all of them share one bucket",
                        "set_real_ip_from " + (context.behindProxy() != null ? context.behindProxy() : "<the proxy's address>")
                                + "; real_ip_header X-Forwarded-For; so that " + "$binary_remote_addr is the client's"));
            }
            long gap = leastGapMs(limit);
            if (zone.perMinute() || limit.burst() == 0) {
                String rate = zone.rateText();
                String what = (zone.perMinute() ? "rate=" + rate + " is not " + rate.replace("r/m", "") + " requests in any"
                        + " minute: nginx counts in milliseconds, " + Words.number(zone.perSecond()) + " a second, one"
                        + " every " + Words.ms(gap) + "; " : "rate=" + rate + " with ")
                        + (limit.burst() == 0 ? "no burst: a second request within " + Words.ms(gap) + " of the first is"
                        + " refused" : "burst " + limit.burst() + ": " + (limit.burst() + 1) + " requests close together,"
                        + " then one every " + Words.ms(gap));
                add(new Finding("rate-granularity", limit.where(), what, "give a burst for what a client sends at once,"
                        + " e.g. limit_req zone=" + zone.name() + " burst=" + Math.max(10, limit.burst()) + " nodelay;"));
            }
            if (limit.mode() == ConfigSpec.Mode.QUEUE && limit.burst() > 0) {
                ClientFigures.Outcome atOnce = ClientFigures.run(new Place(place.server(), place.location(), place.where(),
                        List.of(limit), place.status(), null, null, List.of(), 503, null, null, null, false, null, List.of()),
                        "burst", 0, 0, limit.burst() + 1);
                add(new Finding("queue", limit.where(), "burst=" + limit.burst() + " without nodelay or delay= queues the"
                        + " requests over the rate: the last of a burst waits " + Words.ms(atOnce.maxDelayMs())
                        + " (burst / rate) before nginx passes it on, holding its connection",
                        "add nodelay to answer at once within the burst, or delay=N to queue only past N"));
            }
            if (place.statusWhere() == null && place.dryRunWhere() == null) {
                add(new Finding("status-503", limit.where(), "refused requests get 503 (limit_req_status is not set), which"
                        + " clients, monitors and retry logic read as the server failing, not as \"slow down\"",
                        "limit_req_status 429;"));
            }
            long states = states(zone);
            if (zone.key().chosenByClient()) {
                add(new Finding("zone-keys", zone.where(), "the key " + zone.key().words() + " is chosen by the client:"
                        + " each new value is a new state, so a client sending a new value with each request is never"
                        + " limited, and fills the zone's " + zone.name() + " about " + Words.count(states) + " states;"
                        + " when it is full nginx drops the least recently used states (other clients' counts), and"
                        + " if it still has no room it refuses the request as if it were over the limit",
                        "key on something the client cannot choose freely (a map of known keys, with \"\" for unknown"
                                + " ones and a limit on the address for those)"));
            } else if (states < oneMegabyte(zone)) {
                add(new Finding("zone-size", zone.where(), "zone " + zone.name() + " holds about " + Words.count(states)
                        + " states (" + Words.bytes(zone.sizeBytes()) + ", " + STATE_BYTES + " bytes a state on a 64-bit"
                        + " build, by nginx's slab arithmetic): past that many clients nginx removes the least recently"
                        + " used state by force, forgetting that client's count, and if it still has no room it refuses"
                        + " the request with " + place.status() + ", as if the client were over its limit",
                        "size the zone for the clients you expect, e.g. zone=" + zone.name() + ":10m (about "
                                + Words.count(ZoneStates.states(10L * 1024 * 1024, keyBytes(zone), zone.name())) + ")"));
            }
            if (context.replicas() > 1) {
                int n = context.replicas();
                String who = zone.key().shared() ? "all clients together get " : "a client whose requests are spread over"
                        + " them gets ";
                add(new Finding("replicas", limit.where(), "across " + n + " instances of this config (--replicas " + n
                        + "), each counts alone: " + who + n + " x "
                        + Words.number(zone.perSecond()) + " = " + Words.number(n * zone.perSecond()) + " r/s and "
                        + n * (limit.burst() + 1) + " requests at once",
                        "divide rate and burst by " + n + ", or send each key to one instance (hash " + zone.keyText()
                                + " consistent; at the balancer)"));
            }
        }
        if (place.dryRunWhere() != null && !place.limits().isEmpty()) {
            add(new Finding("dry-run", place.dryRunWhere(), "limit_req_dry_run on: nothing is refused or delayed; nginx"
                    + " only logs what it would do ($limit_req_status)", "limit_req_dry_run off; once the log shows the"
                    + " limit would hurt no one you mean to serve"));
        }
    }

    private void cache(Place place, CacheSettings cache) {
        boolean updating = cache.useStale().contains("updating");
        if (!cache.lock()) {
            add(new Finding("cache-lock", cache.where(), "no proxy_cache_lock: on a miss every request for the entry goes"
                    + " to the upstream at once until the first answer is stored (a stampede on a cold or purged entry)",
                    "proxy_cache_lock on;"));
        }
        if (!updating) {
            add(new Finding("cache-stale", cache.where(), "no proxy_cache_use_stale updating: when an entry expires every"
                    + " request for it goes to the upstream until one refreshed answer is stored (a stampede on expiry)",
                    "proxy_cache_use_stale updating; proxy_cache_background_update on;"));
        }
        if (cache.lock() && updating) {
            add(new Finding("cache-updating", cache.useStaleWhere(), "proxy_cache_lock with proxy_cache_use_stale updating"
                    + (cache.backgroundUpdate() ? " and proxy_cache_background_update" : "") + ": an entry whose update"
                    + " never finishes can be served stale, as UPDATING, long after it expired (nginx/nginx#342, #880)",
                    "bound the stale time: have the upstream send Cache-Control: stale-while-revalidate=N, which nginx"
                            + " honours, and watch $upstream_cache_status for UPDATING"));
        }
        if (cache.ignoreHeaders().contains("set-cookie")) {
            add(new Finding("cache-set-cookie", cache.ignoreWhere(), "proxy_ignore_headers Set-Cookie: answers that set a"
                    + " cookie (a session) are stored and served to other clients", "drop Set-Cookie from"
                    + " proxy_ignore_headers, or proxy_no_cache $upstream_http_set_cookie;"));
        }
        List<String> uncovered = new ArrayList<>();
        if (!mentions(cache, "$http_authorization")) {
            uncovered.add("Authorization");
        }
        if (!mentions(cache, "$cookie") && !mentions(cache, "$http_cookie")) {
            uncovered.add("Cookie");
        }
        if (!uncovered.isEmpty()) {
            boolean ignoresCacheControl = cache.ignoreHeaders().contains("cache-control");
            add(new Finding("cache-private", cache.where(), "answers to requests with " + String.join(" or ", uncovered)
                    + " are stored under a key without " + (uncovered.size() > 1 ? "them" : "it") + " ("
                    + cache.key() + "), and served to others: one user's answer reaches another"
                    + (ignoresCacheControl ? " (and proxy_ignore_headers Cache-Control ignores even the upstream's"
                    + " private and no-store)" : " unless the upstream sends Cache-Control: private or no-store"),
                    "proxy_cache_bypass " + vars(uncovered) + "; proxy_no_cache " + vars(uncovered) + ";"));
        }
    }

    private static boolean mentions(CacheSettings cache, String variable) {
        return cache.key().contains(variable) || cache.bypass().stream().anyMatch(v -> v.contains(variable))
                || cache.noCache().stream().anyMatch(v -> v.contains(variable));
    }

    private static String vars(List<String> headers) {
        return String.join(" ", headers.stream().map(h -> h.equals("Cookie") ? "$http_cookie" : "$http_authorization")
                .toList());
    }
}
