package dev.ratecache.suite.ownconfig;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.Freshness;
import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.suite.explain.ConfigSpec.AppliedLimit;
import dev.ratecache.suite.explain.ConfigSpec.CacheSettings;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import dev.ratecache.suite.explain.ConfigSpec.Valid;
import dev.ratecache.suite.explain.KeyExpr;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The model's edge for a user's own config: the limit_req and cache in force where the paths the
 * plans send go, from the same extraction explain makes. The simulation has one edge limit and
 * one cache for every path, so paths that meet different ones, a second limit, limit_conn, a
 * key other than the address, a cache that decides by more than the URI, and whatever explain
 * names as not predicted, are the model's gap, said with the directive's file:line.
 */
public final class OwnFrontModel {
    private final OwnFront own;
    private final List<String> sent;
    /** Where each sent path goes; null where the location cannot be told. Searched once, read by every question. */
    private final List<Place> places;

    /** The model of {@code own} for a cell whose plan sends {@code sent} (its paths; none known: every path of the config's). */
    public OwnFrontModel(OwnFront own, List<String> sent) {
        this.own = own;
        this.sent = List.copyOf(sent);
        this.places = search();
    }

    /** Where each path the cell sends goes, as nginx searches the server's locations; the paths of the config when none are known. */
    private List<Place> places() {
        return places;
    }

    private List<Place> search() {
        if (sent.isEmpty()) {
            return own.planPaths().stream().map(OwnFront.PlanPath::place).toList();
        }
        var target = own.server().target();
        List<Place> places = new java.util.ArrayList<>();
        for (String path : sent) {
            var match = target.locations().match(path);
            places.add(match.known() ? target.placeOf().apply(match.location()) : null);
        }
        return places;
    }

    /** Why the model cannot predict a cell through the config (its limits and cache on as given); empty when it can. */
    public Optional<String> gap(boolean limitsOn, boolean cacheOn) {
        for (int i = 0; i < places().size(); i++) {
            Place p = places().get(i);
            if (p == null) {
                return Optional.of("the location that answers " + sent.get(i) + " cannot be told (a regex Java cannot read)");
            }
            if (p.upstream() == null || p.returns() != null) {
                return Optional.of(p.label() + " at " + p.where() + " answers " + sent.get(i) + " itself, which the model"
                        + " does not: it passes every request it admits upstream");
            }
        }
        for (Place p : places()) {
            if (!p.notPredicted().isEmpty()) {
                var n = p.notPredicted().get(0);
                return Optional.of(n.where() + " " + n.directive() + ": " + n.reason());
            }
        }
        if (limitsOn) {
            for (Place p : places()) {
                if (!p.limits().isEmpty() && p.status() != 429 && p.status() != 503) {
                    return Optional.of((p.statusWhere() == null ? p.where() : p.statusWhere()) + " limit_req_status "
                            + p.status() + ": the figures count 429 and 503 as rejections, so its refusals show under"
                            + " other errors");
                }
            }
            Place first = places().get(0);
            for (Place p : places()) {
                if (!sameLimits(p.limits(), first.limits())) {
                    return Optional.of("the paths the plans send meet different limits (" + first.label() + " and "
                            + p.label() + "); the model takes one edge limit for every path");
                }
                if (!p.conns().isEmpty()) {
                    return Optional.of(p.conns().get(0).where() + " limit_conn: the model does not include limit_conn");
                }
                if (p.limits().size() > 1) {
                    return Optional.of(p.limits().get(1).where() + ": two limit_req apply to " + p.label()
                            + "; the model's run simulates one edge limit");
                }
                for (AppliedLimit l : p.limits()) {
                    KeyExpr key = l.zone().key();
                    if (!(key instanceof KeyExpr.Address || key instanceof KeyExpr.Header
                            || key instanceof KeyExpr.Cookie || key instanceof KeyExpr.Arg)) {
                        return Optional.of(l.zone().where() + ": the zone's key " + l.zone().keyText() + " is not the"
                                + " address or one header, cookie or argument, which the model keys the plans' requests by");
                    }
                }
            }
        }
        if (cacheOn) {
            CacheSettings first = places().get(0).cache();
            for (Place p : places()) {
                CacheSettings c = p.cache();
                if (!Objects.equals(c == null ? null : c.where(), first == null ? null : first.where())) {
                    return Optional.of("the paths the plans send meet different caches (" + places().get(0).label()
                            + " and " + p.label() + "); the model takes one edge cache for every path");
                }
                if (c == null) {
                    continue;
                }
                if (c.minUses() > 1) {
                    return Optional.of(c.where() + ": proxy_cache_min_uses " + c.minUses() + ": the model stores an"
                            + " answer on its first use");
                }
                if (!c.bypass().isEmpty() || !c.noCache().isEmpty()) {
                    return Optional.of(c.where() + ": proxy_cache_bypass or proxy_no_cache: the model does not"
                            + " evaluate them");
                }
                if (!c.key().contains("$request_uri") && !c.key().contains("$uri")) {
                    return Optional.of((c.keyWhere() == null ? c.where() : c.keyWhere()) + ": proxy_cache_key "
                            + c.key() + " is not per URI, which the model's cache is");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean sameLimits(List<AppliedLimit> a, List<AppliedLimit> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            AppliedLimit x = a.get(i);
            AppliedLimit y = b.get(i);
            if (!x.zone().name().equals(y.zone().name()) || x.burst() != y.burst() || x.mode() != y.mode()
                    || x.delay() != y.delay()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The edge limit the plans' requests meet (ask {@link #gap} first): none when no limit applies,
     * when it is a dry run, or when its key is a header, cookie or argument the plans never send
     * (nginx does not count a request whose key is empty).
     */
    public Optional<LimitReqSpec> front() {
        Place p = places().get(0);
        if (p.limits().isEmpty() || p.dryRunWhere() != null) {
            return Optional.empty();
        }
        AppliedLimit l = p.limits().get(0);
        return l.zone().key() instanceof KeyExpr.Address ? Optional.of(l.spec(p.status())) : Optional.empty();
    }

    /** The edge cache the plans' requests meet; none when no cache applies. */
    public Optional<EdgeCacheSpec> cache() {
        CacheSettings c = places().get(0).cache();
        return c == null ? Optional.empty() : Optional.of(c.model());
    }

    /**
     * The freshness the edge gives an answer of {@code endpoint}'s: the origin's Cache-Control
     * ({@code origin}), or with proxy_ignore_headers Cache-Control, proxy_cache_valid's for 200
     * (none: not stored), with no stale permission.
     */
    public Freshness freshness(Freshness origin) {
        CacheSettings c = places().get(0).cache();
        if (c == null || !c.ignoreHeaders().contains("cache-control")) {
            return origin;
        }
        long validSec = c.valid().stream().filter(v -> v.codes().contains("200") || v.codes().contains("any"))
                .mapToLong(Valid::ms).findFirst().orElse(0) / 1000;
        return new Freshness(validSec, 0, 0);
    }
}
