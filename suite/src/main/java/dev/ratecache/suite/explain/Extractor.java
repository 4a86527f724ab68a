package dev.ratecache.suite.explain;

import dev.ratecache.model.Rate;
import dev.ratecache.suite.explain.ConfigSpec.AppliedConn;
import dev.ratecache.suite.explain.ConfigSpec.AppliedLimit;
import dev.ratecache.suite.explain.ConfigSpec.CacheSettings;
import dev.ratecache.suite.explain.ConfigSpec.CacheZone;
import dev.ratecache.suite.explain.ConfigSpec.ConnZone;
import dev.ratecache.suite.explain.ConfigSpec.LimitZone;
import dev.ratecache.suite.explain.ConfigSpec.Mode;
import dev.ratecache.suite.explain.ConfigSpec.NotPredicted;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import dev.ratecache.suite.explain.ConfigSpec.Server;
import dev.ratecache.suite.explain.ConfigSpec.Valid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The {@link ConfigSpec} of a parsed config: the zones of the http level, and for each server and
 * location what is in force there by nginx's merge rules. For every directive read here nginx's
 * merge_conf functions take a level's own value when it has one and the level above's otherwise;
 * for those that may be given several times (limit_req, limit_conn, proxy_cache_valid,
 * proxy_set_header, proxy_cache_bypass, set_real_ip_from) the level's own list replaces the whole
 * list above: a location with one limit_req of its own inherits none of the server's
 * (ngx_http_limit_req_merge_conf: {@code if (conf->limits.elts == NULL) conf->limits = prev->limits}).
 */
public final class Extractor {
    /** proxy_cache_key's default (ngx_http_proxy_module). */
    static final String DEFAULT_CACHE_KEY = "$scheme$proxy_host$request_uri";
    private static final long DEFAULT_INACTIVE_MS = 10 * 60_000L;
    private static final long DEFAULT_LOCK_MS = 5_000L;

    private final Map<String, LimitZone> zones = new LinkedHashMap<>();
    private final Map<String, ConnZone> connZones = new LinkedHashMap<>();
    private final Map<String, CacheZone> cacheZones = new LinkedHashMap<>();
    private final Map<String, NotPredicted> notPredicted = new LinkedHashMap<>();

    private Extractor() {}

    /** The spec of {@code tree}, the main file's directives with includes spliced in. */
    public static ConfigSpec extract(List<Directive> tree) {
        return new Extractor().run(tree);
    }

    private ConfigSpec run(List<Directive> tree) {
        List<Server> servers = new ArrayList<>();
        for (Directive http : tree.stream().filter(d -> d.name().equals("http")).toList()) {
            Map<String, Directive> definitions = new LinkedHashMap<>();
            for (Directive d : http.children()) {
                if ((d.name().equals("map") || d.name().equals("geo")) && !d.args().isEmpty()) {
                    definitions.put(d.args().get(d.args().size() - 1), d);
                }
            }
            Keys keys = new Keys(definitions);
            for (Directive d : http.children()) {
                switch (d.name()) {
                    case "limit_req_zone" -> limitZone(d, keys);
                    case "limit_conn_zone" -> connZone(d, keys);
                    case "proxy_cache_path" -> cacheZone(d);
                    default -> { }
                }
            }
            for (Directive server : http.all("server")) {
                servers.add(server(http, server));
            }
        }
        servers.forEach(s -> s.places().forEach(p -> p.notPredicted().forEach(n -> notPredicted.putIfAbsent(n.where()
                + " " + n.directive(), n))));
        return new ConfigSpec(new ArrayList<>(zones.values()), new ArrayList<>(connZones.values()),
                new ArrayList<>(cacheZones.values()), servers, new ArrayList<>(notPredicted.values()));
    }

    /** {@code name=value} arguments: the value after the first '='. */
    private static Optional<String> param(Directive d, String name) {
        return d.args().stream().filter(a -> a.startsWith(name + "=")).map(a -> a.substring(name.length() + 1))
                .reduce((a, b) -> b);
    }

    /** {@code NAME:SIZE} of zone= or keys_zone=. */
    private static String[] nameAndSize(String value) {
        int colon = value.lastIndexOf(':');
        return colon < 0 ? new String[] {value, ""} : new String[] {value.substring(0, colon), value.substring(colon + 1)};
    }

    private void limitZone(Directive d, Keys keys) {
        String[] zone = nameAndSize(param(d, "zone").orElse(""));
        String rateText = param(d, "rate").orElse("");
        Optional<Rate> rate = NginxUnits.rate(rateText);
        if (zone[0].isEmpty() || rate.isEmpty()) {
            note(d, "nginx would not read its zone= or rate= (nginx -t says why)");
            return;
        }
        zones.put(zone[0], new LimitZone(zone[0], d.arg(0), keys.read(d.arg(0)), NginxUnits.size(zone[1]).orElse(0), rate.get(),
                rateText, d.where()));
    }

    private void connZone(Directive d, Keys keys) {
        String[] zone = nameAndSize(param(d, "zone").orElse(""));
        if (!zone[0].isEmpty()) {
            connZones.put(zone[0], new ConnZone(zone[0], keys.read(d.arg(0)), NginxUnits.size(zone[1]).orElse(0), d.where()));
        }
    }

    private void cacheZone(Directive d) {
        String[] zone = nameAndSize(param(d, "keys_zone").orElse(""));
        if (!zone[0].isEmpty()) {
            long inactive = param(d, "inactive").flatMap(t -> box(NginxUnits.timeMs(t))).orElse(DEFAULT_INACTIVE_MS);
            cacheZones.put(zone[0], new CacheZone(zone[0], d.arg(0), NginxUnits.size(zone[1]).orElse(0), inactive, d.where()));
        }
    }

    private static Optional<Long> box(OptionalLong value) {
        return value.isPresent() ? Optional.of(value.getAsLong()) : Optional.empty();
    }

    private void note(Directive d, String reason) {
        notPredicted.putIfAbsent(d.where() + " " + d.name(), new NotPredicted(d.where(), d.text(), reason));
    }

    private Server server(Directive http, Directive server) {
        List<String> names = server.all("server_name").stream().flatMap(d -> d.args().stream()).toList();
        List<String> listens = server.all("listen").stream().map(d -> d.arg(0)).toList();
        String label = "server " + (names.isEmpty() || names.equals(List.of("")) ? "(no server_name)" : String.join(" ", names))
                + (listens.isEmpty() ? "" : " (listen " + String.join(", ", listens) + ")");
        String shortLabel = "server " + (names.isEmpty() || names.equals(List.of("")) ? "(no server_name)" : names.get(0));
        List<Place> places = new ArrayList<>();
        List<Directive> chain = List.of(http, server);
        if (server.all("location").isEmpty()) {
            places.add(place(shortLabel, "(every path)", server.where(), chain));
        }
        locations(shortLabel, server, chain, places);
        return new Server(label + " at " + server.where(), server.where(), places);
    }

    private void locations(String server, Directive parent, List<Directive> chain, List<Place> places) {
        for (Directive location : parent.all("location")) {
            List<Directive> inner = new ArrayList<>(chain);
            inner.add(location);
            places.add(place(server, String.join(" ", location.args()), location.where(), inner));
            locations(server, location, inner, places);
        }
    }

    /** The directives called {@code name} of the innermost level of {@code chain} that has any. */
    private static List<Directive> effective(List<Directive> chain, String name) {
        for (int i = chain.size() - 1; i >= 0; i--) {
            List<Directive> own = chain.get(i).all(name);
            if (!own.isEmpty()) {
                return own;
            }
        }
        return List.of();
    }

    private static Optional<Directive> effectiveLast(List<Directive> chain, String name) {
        List<Directive> found = effective(chain, name);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
    }

    private Place place(String server, String location, String where, List<Directive> chain) {
        List<NotPredicted> unmodelled = new ArrayList<>();
        for (int level = 0; level < chain.size(); level++) {
            for (Directive d : chain.get(level).children()) {
                if (isCode(d.name())) {
                    unmodelled.add(new NotPredicted(d.where(), d.text(), "Lua or njs code may answer, limit or change"
                            + " a request itself, which the model does not run"));
                }
                if (d.name().equals("if") && level > 0) {
                    unmodelled.add(new NotPredicted(d.where(), d.text(), "an if may change what a request gets (its"
                            + " own return, rewrite, set or proxy_pass); the figures are for requests it does not match"));
                    for (Directive inside : d.children()) {
                        if (inside.name().startsWith("limit_") || inside.name().startsWith("proxy_cache")) {
                            unmodelled.add(new NotPredicted(inside.where(), inside.text(), "inside if: nginx takes"
                                    + " " + inside.name() + " in an if only where the request matches it, which the model"
                                    + " cannot tell"));
                        }
                    }
                }
            }
        }
        int status = effectiveLast(chain, "limit_req_status").map(d -> (int) NginxUnits.digits(d.arg(0)).orElse(503))
                .orElse(503);
        String statusWhere = effectiveLast(chain, "limit_req_status").map(Directive::where).orElse(null);
        String dryRun = effectiveLast(chain, "limit_req_dry_run").filter(d -> d.arg(0).equals("on"))
                .map(Directive::where).orElse(null);
        List<AppliedLimit> limits = new ArrayList<>();
        for (Directive d : effective(chain, "limit_req")) {
            String zoneName = param(d, "zone").orElse("");
            LimitZone zone = zones.get(zoneName);
            if (zone == null) {
                unmodelled.add(new NotPredicted(d.where(), d.text(), "no limit_req_zone " + zoneName + " that the model can read"));
                continue;
            }
            if (!zone.key().evaluable()) {
                unmodelled.add(new NotPredicted(d.where(), d.text(), "its zone's key (" + zone.where() + ") uses "
                        + String.join(", ", zone.key().unknowns()) + ", which the model cannot evaluate (it knows the"
                        + " address, headers, cookies, arguments, and maps or geos of them)"));
            }
            int burst = (int) param(d, "burst").map(b -> NginxUnits.digits(b).orElse(0)).orElse(0L).longValue();
            Mode mode = d.args().contains("nodelay") ? Mode.NODELAY : param(d, "delay").isPresent() ? Mode.DELAY : Mode.QUEUE;
            int delay = (int) param(d, "delay").map(b -> NginxUnits.digits(b).orElse(0)).orElse(0L).longValue();
            limits.add(new AppliedLimit(zone, burst, mode, delay, d.where()));
        }
        List<AppliedConn> conns = new ArrayList<>();
        for (Directive d : effective(chain, "limit_conn")) {
            ConnZone zone = connZones.get(d.arg(0));
            if (zone != null) {
                conns.add(new AppliedConn(zone, (int) NginxUnits.digits(d.arg(1)).orElse(0), d.where()));
            }
        }
        int connStatus = effectiveLast(chain, "limit_conn_status").map(d -> (int) NginxUnits.digits(d.arg(0)).orElse(503))
                .orElse(503);
        Directive innermost = chain.get(chain.size() - 1);
        String upstream = innermost.name().equals("location") ? innermost.last("proxy_pass").map(d -> d.arg(0)).orElse(null)
                : null;
        String returns = null;
        for (int level = 1; level < chain.size() && returns == null; level++) {
            returns = chain.get(level).last("return").map(Directive::where).orElse(null);
        }
        boolean realIp = !effective(chain, "set_real_ip_from").isEmpty();
        String xff = effective(chain, "proxy_set_header").stream()
                .filter(d -> d.arg(0).equalsIgnoreCase("X-Forwarded-For")).map(Directive::where).findFirst().orElse(null);
        CacheSettings cache = cache(chain, unmodelled);
        return new Place(server, location, where, limits, status, statusWhere, dryRun, conns, connStatus, cache, upstream,
                returns, realIp, xff, unmodelled);
    }

    /**
     * Directives that run Lua (lua-nginx-module), njs or Perl code on each request: code the model
     * does not run. Those that only load code or define a variable (js_import, js_set, set_by_lua,
     * init_by_lua...) are not listed: a variable matters only where a key uses it, and such a key is
     * named as one the model cannot evaluate.
     */
    static boolean isCode(String name) {
        boolean lua = name.contains("_by_lua") && !name.startsWith("init") && !name.startsWith("set_by_lua")
                && !name.startsWith("log_by_lua");
        boolean njs = name.equals("js_content") || name.equals("js_access") || name.equals("js_header_filter")
                || name.equals("js_body_filter");
        return lua || njs || name.equals("perl");
    }

    private CacheSettings cache(List<Directive> chain, List<NotPredicted> unmodelled) {
        Optional<Directive> proxyCache = effectiveLast(chain, "proxy_cache");
        if (proxyCache.isEmpty() || proxyCache.get().arg(0).equals("off")) {
            return null;
        }
        CacheZone zone = cacheZones.get(proxyCache.get().arg(0));
        if (zone == null) {
            unmodelled.add(new NotPredicted(proxyCache.get().where(), proxyCache.get().text(), "no proxy_cache_path with"
                    + " keys_zone=" + proxyCache.get().arg(0) + " (a zone named by a variable cannot be told)"));
            return null;
        }
        List<Valid> valid = new ArrayList<>();
        for (Directive d : effective(chain, "proxy_cache_valid")) {
            List<String> codes = d.args().subList(0, Math.max(0, d.args().size() - 1));
            long ms = NginxUnits.timeMs(d.arg(d.args().size() - 1)).orElse(0);
            // ngx_http_file_cache_valid_set_slot: a time alone caches 200, 301 and 302.
            valid.add(new Valid(codes.isEmpty() ? List.of("200", "301", "302") : codes, ms, d.where()));
        }
        Optional<Directive> lock = effectiveLast(chain, "proxy_cache_lock");
        Optional<Directive> useStale = effectiveLast(chain, "proxy_cache_use_stale");
        Optional<Directive> background = effectiveLast(chain, "proxy_cache_background_update");
        Optional<Directive> ignore = effectiveLast(chain, "proxy_ignore_headers");
        Optional<Directive> key = effectiveLast(chain, "proxy_cache_key");
        Set<String> stale = new LinkedHashSet<>(useStale.map(Directive::args).orElse(List.of()));
        stale.remove("off");
        Set<String> ignored = new LinkedHashSet<>();
        ignore.ifPresent(d -> d.args().forEach(a -> ignored.add(a.toLowerCase(Locale.ROOT))));
        return new CacheSettings(zone, proxyCache.get().where(), valid,
                lock.map(d -> d.arg(0).equals("on")).orElse(false), lock.map(Directive::where).orElse(null),
                effectiveLast(chain, "proxy_cache_lock_timeout").flatMap(d -> box(NginxUnits.timeMs(d.arg(0))))
                        .orElse(DEFAULT_LOCK_MS),
                effectiveLast(chain, "proxy_cache_lock_age").flatMap(d -> box(NginxUnits.timeMs(d.arg(0))))
                        .orElse(DEFAULT_LOCK_MS),
                stale, useStale.map(Directive::where).orElse(null),
                background.map(d -> d.arg(0).equals("on")).orElse(false), background.map(Directive::where).orElse(null),
                (int) effectiveLast(chain, "proxy_cache_min_uses").map(d -> NginxUnits.digits(d.arg(0)).orElse(1))
                        .orElse(1L).longValue(),
                ignored, ignore.map(Directive::where).orElse(null),
                key.map(d -> d.arg(0)).orElse(DEFAULT_CACHE_KEY), key.map(Directive::where).orElse(null),
                effective(chain, "proxy_cache_bypass").stream().flatMap(d -> d.args().stream()).toList(),
                effective(chain, "proxy_no_cache").stream().flatMap(d -> d.args().stream()).toList());
    }
}
