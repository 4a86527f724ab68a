package dev.ratecache.suite.explain;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.Rate;
import java.util.List;
import java.util.Set;

/**
 * What a user's nginx config says about limits and caching, in the model's terms: the zones it
 * defines and, for each server and location, the limits and cache that apply there once nginx's
 * inheritance is done. What the model cannot take is listed with its file:line and the reason.
 *
 * @param zones        every limit_req_zone
 * @param connZones    every limit_conn_zone
 * @param cacheZones   every proxy_cache_path
 * @param servers      every server block of the http level, in order
 * @param notPredicted what no figure can be predicted for, wherever it is
 */
public record ConfigSpec(List<LimitZone> zones, List<ConnZone> connZones, List<CacheZone> cacheZones,
                         List<Server> servers, List<NotPredicted> notPredicted) {

    public ConfigSpec {
        zones = List.copyOf(zones);
        connZones = List.copyOf(connZones);
        cacheZones = List.copyOf(cacheZones);
        servers = List.copyOf(servers);
        notPredicted = List.copyOf(notPredicted);
    }

    /** limit_req_zone KEY zone=NAME:SIZE rate=R; ({@code keyText} as written). */
    public record LimitZone(String name, String keyText, KeyExpr key, long sizeBytes, Rate rate, String rateText,
                            String where) {
        /** The rate as nginx holds it, in requests a second. */
        public double perSecond() {
            return rate.milliPerSecond() / 1000.0;
        }

        /** Whether it is written per minute (rate=Nr/m). */
        public boolean perMinute() {
            return rateText.endsWith("r/m");
        }
    }

    /** limit_conn_zone KEY zone=NAME:SIZE; */
    public record ConnZone(String name, KeyExpr key, long sizeBytes, String where) {
    }

    /** proxy_cache_path PATH ... keys_zone=NAME:SIZE [inactive=T]; */
    public record CacheZone(String name, String path, long sizeBytes, long inactiveMs, String where) {
    }

    /** How a limit_req treats requests over the rate that are within its burst. */
    public enum Mode { QUEUE, NODELAY, DELAY }

    /** limit_req zone=NAME [burst=N] [nodelay | delay=D]; as it applies at one place. */
    public record AppliedLimit(LimitZone zone, int burst, Mode mode, int delay, String where) {
        /** The model's limit, answering rejections with {@code status}. */
        public LimitReqSpec spec(int status) {
            LimitReqSpec spec = switch (mode) {
                case QUEUE -> LimitReqSpec.queue(zone.rate(), burst);
                case NODELAY -> LimitReqSpec.nodelay(zone.rate(), burst);
                case DELAY -> LimitReqSpec.delay(zone.rate(), burst, delay);
            };
            return spec.withRejectStatus(status);
        }

        /** As written: "burst=20 nodelay". */
        public String words() {
            String b = burst == 0 ? "no burst" : "burst " + burst;
            return switch (mode) {
                case QUEUE -> b;
                case NODELAY -> b + " nodelay";
                case DELAY -> b + " delay=" + delay;
            };
        }
    }

    /** limit_conn NAME N; */
    public record AppliedConn(ConnZone zone, int max, String where) {
    }

    /** proxy_cache_valid [CODES] TIME; with nginx's codes when none are given (200 301 302). */
    public record Valid(List<String> codes, long ms, String where) {
    }

    /**
     * The proxy_cache directives in force at one place.
     *
     * @param useStale     proxy_cache_use_stale's words (empty: off)
     * @param ignoreHeaders proxy_ignore_headers' header names
     * @param key          proxy_cache_key (nginx's default $scheme$proxy_host$request_uri)
     * @param bypass       proxy_cache_bypass's values (answers taken from the upstream, not the cache)
     * @param noCache      proxy_no_cache's values (answers not stored)
     */
    public record CacheSettings(CacheZone zone, String where, List<Valid> valid, boolean lock, String lockWhere,
                                long lockTimeoutMs, long lockAgeMs, Set<String> useStale, String useStaleWhere,
                                boolean backgroundUpdate, String backgroundUpdateWhere, int minUses,
                                Set<String> ignoreHeaders, String ignoreWhere, String key, String keyWhere,
                                List<String> bypass, List<String> noCache) {
        public CacheSettings {
            valid = List.copyOf(valid);
            useStale = Set.copyOf(useStale);
            ignoreHeaders = Set.copyOf(ignoreHeaders);
            bypass = List.copyOf(bypass);
            noCache = List.copyOf(noCache);
        }

        /** The model's nginx cache with these directives. */
        public EdgeCacheSpec model() {
            return new EdgeCacheSpec(lock, lockTimeoutMs, lockAgeMs, useStale.contains("updating"), backgroundUpdate,
                    zone.inactiveMs());
        }
    }

    /** A directive no figure can be predicted for. */
    public record NotPredicted(String where, String directive, String reason) {
    }

    /**
     * One server and location, with what applies there.
     *
     * @param location     the location as written ("/api/", "= /login", "~ \.php$"); "(every path)" for a
     *                     server with no location
     * @param limits       the limit_req directives in force (their order is nginx's)
     * @param status       limit_req_status (503 unless set)
     * @param statusWhere  where it is set; null for nginx's default
     * @param dryRunWhere  where limit_req_dry_run on is; null when off
     * @param conns        the limit_conn directives in force
     * @param connStatus   limit_conn_status (503 unless set)
     * @param cache        the cache, or null when proxy_cache is off or not set
     * @param upstream     proxy_pass's argument, or null when the location passes nothing upstream
     * @param returns      where a return answers every request of the location before limit_req runs; null if none
     * @param realIp       set_real_ip_from is in force: the address is the client's, read from a header
     * @param forwardsXff  where proxy_set_header X-Forwarded-For is in force; null when it is not
     */
    public record Place(String server, String location, String where, List<AppliedLimit> limits, int status,
                        String statusWhere, String dryRunWhere, List<AppliedConn> conns, int connStatus,
                        CacheSettings cache, String upstream, String returns, boolean realIp, String forwardsXff,
                        List<NotPredicted> notPredicted) {
        public Place {
            limits = List.copyOf(limits);
            conns = List.copyOf(conns);
            notPredicted = List.copyOf(notPredicted);
        }

        /** "server example.com (nginx.conf:12), location /api/". */
        public String label() {
            return location.equals("(every path)") ? server : server + ", location " + location;
        }
    }

    /** One server block: its names and listens for the reader, and its places. */
    public record Server(String label, String where, List<Place> places) {
        public Server {
            places = List.copyOf(places);
        }
    }

    /** Whether the config limits or caches anything at all. */
    public boolean limitsOrCaches() {
        return servers.stream().flatMap(s -> s.places().stream())
                .anyMatch(p -> !p.limits().isEmpty() || !p.conns().isEmpty() || p.cache() != null);
    }
}
