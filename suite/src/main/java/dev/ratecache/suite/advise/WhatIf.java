package dev.ratecache.suite.advise;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.model.Decision;
import dev.ratecache.model.LimitReq;
import dev.ratecache.model.ZoneStates;
import dev.ratecache.suite.explain.ConfigSpec.AppliedLimit;
import dev.ratecache.suite.explain.ConfigSpec.LimitZone;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import dev.ratecache.suite.explain.Directive;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The model's limit_req decision for every logged request under the user's config: each request
 * found its location (nginx's search, {@link LocationMatch}), its keys evaluated from the log
 * ({@link KeyValues}), and decided by one {@link LimitReq} per limit_req_zone, shared by every
 * location that names it, sized by nginx's slab arithmetic ({@link ZoneStates}), at the time the
 * request reached limit_req.
 *
 * <p>That time: a log line is written when the request ends, so the request reached limit_req at
 * the logged time less its {@code $request_time} (when logged); the requests are run in that order.
 * For requests that started in the same millisecond the log cannot show nginx's order: when it
 * carries nginx's own decisions they break the tie (PASSED before DELAYED before REJECTED, as one
 * key's excess only grows within a millisecond), else the log's order does.
 */
public final class WhatIf {
    /** What the model says of one request. */
    public enum Verdict {
        PASSED, DELAYED, REJECTED,
        /** No limit_req applies (none in force there, a return answers first, or every key is empty). */
        NOT_LIMITED,
        /** The model cannot tell: a key the log cannot give, or a location it cannot find. */
        NOT_PREDICTED;

        /** nginx's {@code $limit_req_status} as this verdict (the *_DRY_RUN forms as theirs; empty: not limited). */
        static Optional<Verdict> ofNginx(String logged) {
            String s = logged.endsWith("_DRY_RUN") ? logged.substring(0, logged.length() - "_DRY_RUN".length()) : logged;
            return switch (s) {
                case "PASSED" -> Optional.of(PASSED);
                case "DELAYED" -> Optional.of(DELAYED);
                case "REJECTED" -> Optional.of(REJECTED);
                case "" -> Optional.of(NOT_LIMITED);
                default -> Optional.empty();
            };
        }
    }

    /**
     * One request's outcome.
     *
     * @param atMs      when it reached limit_req, epoch ms
     * @param location  the location that answered it, as written ("/api/", "= /login"), or "(server)"
     * @param key       its key under the deciding limit (the first limit's when several), "" when none
     * @param zone      the zone whose limit decided (rejected or delayed it longest), "" when none did
     * @param delayMs   how long the model says it waits (dry run: would have waited)
     * @param why       for NOT_LIMITED and NOT_PREDICTED, the reason
     * @param shifted   the ms its time was moved by to agree with nginx (shadow mode only), 0 when not
     */
    public record Outcome(LoggedRequest request, long atMs, String location, String key, String zone, Verdict verdict,
                          long delayMs, String why, int shifted) {
    }

    /**
     * The user's config as one server's requests meet it.
     *
     * @param serverName  the server's first name, for {@code $server_name}
     * @param locations   the server's location search
     * @param placeOf     the limits in force where a location (empty: the server itself) answers
     */
    public record Target(String serverName, LocationMatch locations, java.util.function.Function<Optional<Directive>, Place> placeOf) {
    }

    /** The clocks' boundary (NginxComparison in the tests): how far a logged time may be off limit_req's. */
    static final int[] SHIFTS_MS = {-1, 1, -2, 2};

    private WhatIf() {}

    /** The model's decisions for {@code log}, in the order nginx met the requests. */
    public static List<Outcome> run(Target target, List<LoggedRequest> log) {
        return run(target, log, false);
    }

    /**
     * As {@link #run(Target, List)}; with {@code followNginx}, a request whose decision differs from the one
     * nginx logged is tried again 1 and 2 ms earlier and later: when one of those times gives nginx's decision, the run
     * takes it (and the state it leaves), as nginx's logged wall clock and limit_req's monotonic one may put
     * one instant up to 2 ms apart. Its outcome says by how much it moved.
     */
    public static List<Outcome> run(Target target, List<LoggedRequest> log, boolean followNginx) {
        List<Prepared> prepared = prepare(target, log);
        Map<String, LimitReq> zones = zones(prepared);
        List<Outcome> out = new ArrayList<>(prepared.size());
        for (Prepared p : prepared) {
            out.add(decide(p, zones, followNginx));
        }
        return out;
    }

    /** A request with its place and keys found, before the model runs. */
    private record Prepared(LoggedRequest request, long atMs, String location, Place place, List<String> keys,
                            String unknown) {
    }

    private static long startMs(LoggedRequest r) {
        long end = r.time().toInstant().toEpochMilli();
        return r.requestSeconds().isPresent() ? end - Math.round(r.requestSeconds().getAsDouble() * 1000) : end;
    }

    private static int rank(LoggedRequest r) {
        return WhatIf.Verdict.ofNginx(r.limitStatus()).map(Enum::ordinal).orElse(Verdict.values().length);
    }

    private static List<Prepared> prepare(Target target, List<LoggedRequest> log) {
        List<LoggedRequest> ordered = new ArrayList<>(log);
        ordered.sort(Comparator.comparingLong(WhatIf::startMs).thenComparingInt(WhatIf::rank)
                .thenComparingDouble(r -> r.requestSeconds().orElse(0)));
        KeyValues values = new KeyValues(target.serverName());
        List<Prepared> out = new ArrayList<>(ordered.size());
        Map<String, LocationMatch.Match> matched = new HashMap<>();
        for (LoggedRequest r : ordered) {
            LocationMatch.Match m = matched.computeIfAbsent(r.path(), target.locations()::match);
            if (!m.known()) {
                out.add(new Prepared(r, startMs(r), "?", null, List.of(), "the search for its location reaches "
                        + m.unreadable()));
                continue;
            }
            Place place = target.placeOf().apply(m.location());
            String location = m.location().map(d -> String.join(" ", d.args())).orElse("(server)");
            List<String> keys = new ArrayList<>();
            String unknown = null;
            for (AppliedLimit limit : place.limits()) {
                KeyValues.Value v = values.of(limit.zone().key(), r);
                if (!v.known()) {
                    unknown = "limit_req zone=" + limit.zone().name() + " (" + limit.where() + "): " + v.unknown();
                    break;
                }
                keys.add(v.key());
            }
            out.add(new Prepared(r, startMs(r), location, place, keys, unknown));
        }
        return out;
    }

    /**
     * One {@link LimitReq} per zone the requests meet, holding as many keys as nginx's zone of its size:
     * 4 bytes a key for {@code $binary_remote_addr} (16 once an IPv6 address comes), else the longest key
     * seen, which for most keys lands in the same 128-byte slot.
     */
    private static Map<String, LimitReq> zones(List<Prepared> prepared) {
        Map<String, LimitZone> used = new LinkedHashMap<>();
        Map<String, Integer> longest = new HashMap<>();
        for (Prepared p : prepared) {
            if (p.place() == null || p.unknown() != null) {
                continue;
            }
            for (int i = 0; i < p.keys().size(); i++) {
                LimitZone z = p.place().limits().get(i).zone();
                used.putIfAbsent(z.name(), z);
                String key = p.keys().get(i);
                boolean binary = z.key() instanceof dev.ratecache.suite.explain.KeyExpr.Address a
                        && a.variable().equals("$binary_remote_addr");
                int bytes = binary ? (key.contains(":") ? 16 : 4)
                        : key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                longest.merge(z.name(), bytes, Math::max);
            }
        }
        Map<String, LimitReq> zones = new HashMap<>();
        for (LimitZone z : used.values()) {
            long capacity;
            try {
                capacity = ZoneStates.states(z.sizeBytes(), Math.max(1, longest.getOrDefault(z.name(), 4)), z.name());
            } catch (IllegalArgumentException e) {
                capacity = Long.MAX_VALUE; // under nginx's smallest zone: nginx -t refused it already
            }
            zones.put(z.name(), new LimitReq(dev.ratecache.model.LimitReqSpec.queue(z.rate(), 0), Math.max(1, capacity)));
        }
        return zones;
    }

    private static Outcome decide(Prepared p, Map<String, LimitReq> zones, boolean followNginx) {
        if (p.unknown() != null) {
            return new Outcome(p.request(), p.atMs(), p.location(), "", "", Verdict.NOT_PREDICTED, 0, p.unknown(), 0);
        }
        Place place = p.place();
        if (place.returns() != null) {
            return new Outcome(p.request(), p.atMs(), p.location(), "", "", Verdict.NOT_LIMITED, 0,
                    "answered by return (" + place.returns() + ") before limit_req runs", 0);
        }
        if (place.limits().isEmpty()) {
            return new Outcome(p.request(), p.atMs(), p.location(), "", "", Verdict.NOT_LIMITED, 0,
                    "no limit_req in force there", 0);
        }
        List<LimitReq.Keyed> keyed = keyed(p, zones);
        Optional<Verdict> nginx = followNginx ? Verdict.ofNginx(p.request().limitStatus()) : Optional.empty();
        // The keys' states before the decision, to try it again at a shifted time if nginx decided otherwise.
        List<LimitReq> before = nginx.isPresent() ? keyed.stream().map(k -> k.zone().only(keyedKeys(k))).toList() : null;
        Decision d = LimitReq.decideAll(keyed, p.atMs());
        Outcome o = outcome(p, d, 0);
        if (nginx.isEmpty() || nginx.get() == o.verdict()) {
            return o;
        }
        for (int shift : SHIFTS_MS) {
            List<LimitReq> trial = new ArrayList<>();
            for (int i = 0; i < keyed.size(); i++) {
                trial.add(before.get(i).only(keyedKeys(keyed.get(i))));
            }
            List<LimitReq.Keyed> tried = new ArrayList<>();
            for (int i = 0; i < keyed.size(); i++) {
                tried.add(new LimitReq.Keyed(trial.get(i), keyed.get(i).key(), keyed.get(i).limit()));
            }
            Outcome t = outcome(p, LimitReq.decideAll(tried, p.atMs() + shift), shift);
            if (t.verdict() == nginx.get()) {
                for (int i = 0; i < keyed.size(); i++) {
                    keyed.get(i).zone().takeStates(trial.get(i));
                }
                return t;
            }
        }
        return o;
    }

    private static List<String> keyedKeys(LimitReq.Keyed k) {
        return k.key() == null ? List.of() : List.of(k.key());
    }

    private static List<LimitReq.Keyed> keyed(Prepared p, Map<String, LimitReq> zones) {
        List<LimitReq.Keyed> keyed = new ArrayList<>();
        for (int i = 0; i < p.place().limits().size(); i++) {
            AppliedLimit limit = p.place().limits().get(i);
            String key = p.keys().get(i);
            // nginx counts no request whose key is empty (a map or geo giving "" exempts it).
            keyed.add(new LimitReq.Keyed(zones.get(limit.zone().name()), key.isEmpty() ? null : key,
                    limit.spec(p.place().status())));
        }
        return keyed;
    }

    private static Outcome outcome(Prepared p, Decision d, int shift) {
        if (d.limitIndex() < 0) {
            return new Outcome(p.request(), p.atMs() + shift, p.location(), "", "", Verdict.NOT_LIMITED, 0,
                    "every key of its limits is empty", shift);
        }
        AppliedLimit deciding = p.place().limits().get(d.limitIndex());
        String key = p.keys().get(d.limitIndex());
        Verdict v = switch (d.status()) {
            case PASSED -> Verdict.PASSED;
            case DELAYED -> Verdict.DELAYED;
            case REJECTED -> Verdict.REJECTED;
        };
        return new Outcome(p.request(), p.atMs() + shift, p.location(), key,
                v == Verdict.PASSED ? "" : deciding.zone().name(), v, d.delayMs(), null, shift);
    }
}
