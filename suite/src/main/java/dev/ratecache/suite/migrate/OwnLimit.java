package dev.ratecache.suite.migrate;

import dev.ratecache.suite.explain.ConfigSpec;
import dev.ratecache.suite.explain.KeyExpr;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-client limit of a user's own nginx config, as explain reads it (nginx -t, crossplane, nginx's
 * merge rules), in the switches' terms: the one limit_req its places apply, its zone's rate and key, its
 * burst and mode, and the status its place refuses with. A config the switches cannot say (several
 * different limits, a rate that is not whole requests a second, a key other than the address, a header,
 * a cookie or an argument) is refused in one line, saying what to give instead.
 *
 * @param rate   requests a second
 * @param burst  limit_req's burst
 * @param mode   queue, nodelay or delay=N
 * @param key    what the zone counts by
 * @param status limit_req_status at the place
 * @param where  the limit_req's file:line, and how many places apply it
 */
public record OwnLimit(int rate, int burst, LimitMode mode, LimitKey key, int status, String where) {

    /** Why a config's limit cannot be moved as the switches say it: one line. */
    public static final class Unsaid extends Exception {
        Unsaid(String line) {
            super(line);
        }
    }

    /** The one limit {@code config} applies. */
    public static OwnLimit of(ConfigSpec config, String shown) throws Unsaid {
        Map<String, OwnLimit> distinct = new LinkedHashMap<>();
        Map<String, Integer> places = new LinkedHashMap<>();
        for (ConfigSpec.Server server : config.servers()) {
            for (ConfigSpec.Place place : server.places()) {
                if (place.limits().size() > 1) {
                    throw new Unsaid(shown + ": " + place.label() + " (" + place.where() + ") applies "
                            + place.limits().size() + " limit_req at once, which one per-client limit cannot say: give"
                            + " the one you move with --front-rate, --front-burst, --front-mode and --limit-key instead");
                }
                for (ConfigSpec.AppliedLimit limit : place.limits()) {
                    OwnLimit own = of(limit, place.status(), shown);
                    String same = own.rate + " " + own.burst + " " + own.mode + " " + own.key + " " + own.status;
                    distinct.putIfAbsent(same, own);
                    places.merge(same, 1, Integer::sum);
                }
            }
        }
        if (distinct.isEmpty()) {
            throw new Unsaid(shown + " applies no limit_req anywhere: there is no per-client limit to move");
        }
        if (distinct.size() > 1) {
            throw new Unsaid(shown + " applies " + distinct.size() + " different limits ("
                    + String.join("; ", distinct.values().stream().map(OwnLimit::words).toList())
                    + "): migrate moves one; give it with --front-rate, --front-burst, --front-mode and --limit-key instead");
        }
        Map.Entry<String, OwnLimit> only = distinct.entrySet().iterator().next();
        OwnLimit own = only.getValue();
        int n = places.get(only.getKey());
        return new OwnLimit(own.rate, own.burst, own.mode, own.key, own.status,
                own.where + (n == 1 ? "" : ", at " + n + " places"));
    }

    private static OwnLimit of(ConfigSpec.AppliedLimit limit, int status, String shown) throws Unsaid {
        ConfigSpec.LimitZone zone = limit.zone();
        double perSecond = zone.perSecond();
        if (perSecond < 1 || perSecond != Math.rint(perSecond)) {
            throw new Unsaid(shown + ": zone " + zone.name() + " (" + zone.where() + ") has rate=" + zone.rateText()
                    + ", not a whole number of requests a second, which --front-rate takes: give the nearest with"
                    + " --front-rate and --front-burst instead");
        }
        KeyExpr expr = zone.key();
        LimitKey key;
        try {
            key = key(expr, zone, shown);
        } catch (IllegalArgumentException e) {
            throw new Unsaid(shown + ": zone " + zone.name() + " (" + zone.where() + ") counts by " + zone.keyText()
                    + ": " + e.getMessage());
        }
        LimitMode mode = switch (limit.mode()) {
            case QUEUE -> LimitMode.QUEUE;
            case NODELAY -> LimitMode.NODELAY;
            case DELAY -> LimitMode.parse("delay=" + limit.delay());
        };
        return new OwnLimit((int) perSecond, limit.burst(), mode, key, status, "limit_req at " + limit.where());
    }

    private static LimitKey key(KeyExpr expr, ConfigSpec.LimitZone zone, String shown) throws Unsaid {
        LimitKey key;
        if (expr instanceof KeyExpr.Address) {
            key = LimitKey.ADDR;
        } else if (expr instanceof KeyExpr.Header h) {
            key = LimitKey.parse("header:" + h.header());
        } else if (expr instanceof KeyExpr.Cookie c) {
            key = LimitKey.parse("cookie:" + c.cookie());
        } else if (expr instanceof KeyExpr.Arg a) {
            key = LimitKey.parse("arg:" + a.arg());
        } else {
            throw new Unsaid(shown + ": zone " + zone.name() + " (" + zone.where() + ") counts by "
                    + zone.keyText() + ", which --limit-key cannot say (addr, header:NAME, cookie:NAME or arg:NAME):"
                    + " give the nearest with --limit-key instead");
        }
        return key;
    }

    /** "10 r/s burst 20 (nodelay) by addr, refused with 503, limit_req at nginx.conf:12". */
    public String words() {
        return rate + " r/s burst " + burst + " (" + mode + ") by " + key + ", refused with " + status + ", " + where;
    }

    /** {@code switches} with this limit at the front. */
    public StackSwitches applyTo(StackSwitches switches) {
        return switches.frontRate(rate).frontBurst(burst).frontMode(mode).limitKey(key).rejectStatus(status);
    }
}
