package dev.ratecache.suite.matrix;

import dev.ratecache.suite.nginx.NginxSwitches;

/**
 * One measurement: a plan through one configuration of the stack.
 *
 * @param name        how reports and --only name it, e.g. {@code stress/server-cache}
 * @param plan        the plan's short name (stress, load, or a user's plan file name)
 * @param direct      JMeter talks to the origin itself: no Nginx, no rate limiting
 * @param frontLimit  the front end's per-client rate limit
 * @param backLimit   the back end's rate limit for the app as a whole
 * @param serverCache the front end's edge cache
 * @param clientCache a cache in the client: JMeter's HTTP Cache Manager per user, or the library's
 * @param library     the client is the suite's own library (client/) with its cache and Retry-After
 *                    handling, driven by its load driver, instead of JMeter
 */
public record Cell(String name, String plan, boolean direct, boolean frontLimit, boolean backLimit,
        boolean serverCache, boolean clientCache, boolean library) {

    public Cell(String name, String plan, boolean direct, boolean frontLimit, boolean backLimit,
            boolean serverCache, boolean clientCache) {
        this(name, plan, direct, frontLimit, backLimit, serverCache, clientCache, false);
    }

    /** The switches for this cell, on top of the ones the user gave for every cell. */
    public NginxSwitches apply(NginxSwitches base) {
        return base.copy().frontLimit(frontLimit).backLimit(backLimit).cache(serverCache);
    }

    /** A folder name for the cell: its name with the slash replaced. */
    public String folder() {
        return name.replace('/', '-');
    }

    /** What the cell measures, in words, for the report. */
    public String describe() {
        if (direct) {
            return "straight to the app server: no Nginx, no rate limiting" + (clientCache ? ", client cache" : "");
        }
        if (library) {
            return "the client library (its cache on, 429/503 retried after Retry-After) instead of JMeter; front limit "
                    + onOff(frontLimit) + ", back limit " + onOff(backLimit) + ", server cache " + onOff(serverCache);
        }
        return "front limit " + onOff(frontLimit) + ", back limit " + onOff(backLimit)
                + ", server cache " + onOff(serverCache) + ", client cache " + onOff(clientCache);
    }

    private static String onOff(boolean on) {
        return on ? "on" : "off";
    }
}
