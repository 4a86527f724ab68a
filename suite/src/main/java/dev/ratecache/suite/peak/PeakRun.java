package dev.ratecache.suite.peak;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.edge.BareForm;
import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Peak throughput of the tiers' paths, each as a ratio to nginx's own ceiling measured in the
 * same run: the edge cache's HIT path, the MISS path to the origin, and the rejection path, against
 * {@code return 200} of a body of the same size ({@link CeilingServer}); beside the HIT path, each
 * other product's least caching config ({@link Edge#bareForm}) whose binary is installed. Each round
 * measures the ceiling right before the paths it is compared with, so drift on a shared machine
 * cancels out.
 */
public final class PeakRun {
    /**
     * What one run measures: a path of the edge, or another product's cache alone on the HIT path
     * ({@link #cacheHit}), which its adapter brings, so that a new product's row needs no edit here.
     *
     * @param name  the run's name in its wrk files' names (lower case) and in a test's words
     * @param label the table's words
     * @param order where the table lists it: the edge's HIT, then each other product's cache HIT in
     *              their registration order, then the MISS and the rest
     */
    public record Kind(String name, String label, int order) implements Comparable<Kind> {
        public static final Kind CEILING = new Kind("CEILING", "ceiling: return 200", 0);
        public static final Kind HIT = new Kind("HIT", "edge-cache HIT", 1);
        public static final Kind MISS = new Kind("MISS", "MISS to origin", 1000);
        public static final Kind REJECTION = new Kind("REJECTION", "rejection (limit)", 1001);
        // --fleet: the same two paths through the balancer and two edges, the per-client limit split and
        // then shared in Redis, so that the difference is the Redis round trip alone.
        public static final Kind FLEET_SPLIT_MISS = new Kind("FLEET_SPLIT_MISS", "MISS, fleet split", 1002);
        public static final Kind FLEET_SHARED_MISS = new Kind("FLEET_SHARED_MISS", "MISS, fleet shared", 1003);
        public static final Kind FLEET_SPLIT_REJECTION = new Kind("FLEET_SPLIT_REJECTION", "rejection, fleet split", 1004);
        public static final Kind FLEET_SHARED_REJECTION = new Kind("FLEET_SHARED_REJECTION", "rejection, fleet shared",
                1005);
        // --quota: HIT and MISS again on the same one edge with the quota counted in Redis, so that the
        // difference from HIT and MISS above is the quota's Redis call alone.
        public static final Kind QUOTA_HIT = new Kind("QUOTA_HIT", "HIT, quota in Redis", 1006);
        public static final Kind QUOTA_MISS = new Kind("QUOTA_MISS", "MISS, quota in Redis", 1007);

        /** {@code product}'s bare form on the HIT path: "HAProxy cache HIT", named HAPROXY_HIT. */
        public static Kind cacheHit(EdgeProduct product) {
            return new Kind(product.name() + "_HIT", product.displayName() + " cache HIT", 2 + product.ordinal());
        }

        @Override
        public int compareTo(Kind other) {
            return order != other.order ? Integer.compare(order, other.order) : name.compareTo(other.name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The fleet --fleet measures: two edges behind the balancer, enough for the limit to be a fleet's. */
    static final int FLEET_EDGES = 2;

    /**
     * Every path's figures, the body size compared, anything that makes a figure doubtful, and what
     * the quota's edge logged for the requests of its rows (PASSED, REJECTED, FALLBACK...; empty without
     * --quota).
     */
    public record Outcome(int bodyBytes, Map<Kind, Figure<Kind>> figures, List<String> warnings, Map<String, Long> quotaLog) {
        public double ratio(Kind kind) {
            return figures.get(kind).medianRatio();
        }

        /**
         * What Redis adds, one pair a line: a path with Redis against the same path without it, measured
         * in the same run (--fleet: shared against split; --quota: with the quota against none). Empty
         * when neither ran.
         */
        public List<RedisCost> redisCosts() {
            List<RedisCost> costs = new ArrayList<>();
            for (Kind[] pair : new Kind[][] {{Kind.FLEET_SPLIT_MISS, Kind.FLEET_SHARED_MISS},
                    {Kind.FLEET_SPLIT_REJECTION, Kind.FLEET_SHARED_REJECTION}, {Kind.HIT, Kind.QUOTA_HIT},
                    {Kind.MISS, Kind.QUOTA_MISS}}) {
                if (figures.containsKey(pair[0]) && figures.containsKey(pair[1])) {
                    costs.add(new RedisCost(figures.get(pair[0]), figures.get(pair[1])));
                }
            }
            return costs;
        }

        public double cpuRatio(Kind kind) {
            return figures.get(kind).medianCpuRatio();
        }
    }

    /**
     * A path without Redis and the same path with it. The medians of CPU per request differ by what
     * asking Redis costs the edge and Redis together; the ratios by what it costs in requests/s.
     */
    public record RedisCost(Figure<Kind> without, Figure<Kind> with) {
        public double addedCpuMicros() {
            return with.medianCpuMicros() - without.medianCpuMicros();
        }

        public double addedP50() {
            return with.medianP50() - without.medianP50();
        }
    }

    /** The non-binding limit: far above what one machine can send, so the limit is looked up but never rejects. */
    static final int OPEN_RATE = 100_000;
    static final int OPEN_BURST = 1_000_000;
    /**
     * The quota's rows' N: the most --quota takes, which one machine's wrk does not spend in a window
     * (at 100,000 requests/s, a window of 10,000 s). The script does the same work for any N while it
     * admits: two GETs and an INCR in a sliding window, a GET and an INCR in the others.
     */
    public static final long OPEN_QUOTA = 999_999_999;

    /**
     * The switches of the HIT and MISS runs: limits present (if switched on) but never binding; no
     * quota, which only the quota's rows count ({@link #withOpenQuota}).
     */
    public static StackSwitches open(StackSwitches s) {
        if (s.ownFront().isPresent()) {
            // Your config's limits left out: the HIT and MISS paths at the rate the tiers can go.
            return s.copy().frontLimit(false).backRate(OPEN_RATE).backBurst(OPEN_BURST).backMode(LimitMode.NODELAY);
        }
        return s.copy().frontRate(OPEN_RATE).frontBurst(OPEN_BURST).frontMode(LimitMode.NODELAY)
                .backRate(OPEN_RATE).backBurst(OPEN_BURST).backMode(LimitMode.NODELAY)
                .quota(null, Quota.Window.SLIDING);
    }

    /** The switches of the rejection run: a front limit of 1 r/s with a burst of 1, so nearly all is rejected. */
    public static StackSwitches rejecting(StackSwitches s) {
        if (s.ownFront().isPresent()) {
            // Your config's own limits refuse the flood.
            return s.copy().frontLimit(true);
        }
        return s.copy().frontLimit(true).frontRate(1).frontBurst(1).frontMode(LimitMode.QUEUE)
                .quota(null, Quota.Window.SLIDING);
    }

    /** {@code quota}'s window and mode with {@link #OPEN_QUOTA} requests a window: counted, never exhausted. */
    public static Quota openQuota(Quota quota) {
        return new Quota(OPEN_QUOTA, quota.windowSeconds(), quota.window());
    }

    /** The switches of the quota's rows: {@link #open} with the quota of {@link #openQuota}. */
    public static StackSwitches withOpenQuota(StackSwitches s, Quota quota) {
        return open(s).quota(openQuota(quota).flag(), quota.window());
    }

    private final PeakHarness h;
    private final PeakHarness.Tally<Kind> tally = new PeakHarness.Tally<>();

    private PeakRun(PeakHarness h) {
        this.h = h;
    }

    /** Starts the origin, the tiers, the ceiling and the other products' caches, and measures the rounds. */
    public static Outcome run(PeakOptions options, PrintWriter progress) throws IOException, InterruptedException {
        try (PeakHarness h = new PeakHarness(options, progress)) {
            return new PeakRun(h).measure();
        }
    }

    private Outcome measure() throws IOException, InterruptedException {
        PeakOptions options = h.options();
        OriginServer origin = h.startOrigin();
        Stack open = h.started(Stack.around(origin, open(options.switches()), options.ports(), options.dir().resolve("open")));
        URI url = open.frontUri().resolve(options.path());
        int bodyBytes = options.switches().ownFront().isPresent() ? warmYours(url) : PeakHarness.warm(url);
        CeilingServer ceiling = h.started(CeilingServer.start(options.dir().resolve("ceiling"), options.workers(),
                Ports.free(), bodyBytes));
        List<Kind> kinds = new ArrayList<>(List.of(Kind.CEILING, Kind.HIT, Kind.MISS));
        Map<Kind, BareForm.Running> caches = startCaches(open);
        kinds.addAll(caches.keySet());
        QuotaRows quota = options.quota() == null ? null : QuotaRows.start(h, origin);
        if (quota != null) {
            kinds.addAll(List.of(Kind.QUOTA_HIT, Kind.QUOTA_MISS));
        }
        long front = open.frontPid();
        long back = open.backPid();
        h.rounds(round -> {
            measure(Kind.CEILING, ceiling.uri(), null, round, ceiling.pid());
            // With --quota, every other round the quota's HIT and MISS first, so that a machine slowing
            // down within a round does not always fall on the same one of the two compared.
            boolean quotaFirst = quota != null && round % 2 == 0;
            if (quotaFirst) {
                quotaHit(quota, round);
            }
            h.notReachingOrigin("HIT", round, () -> measure(Kind.HIT, url, null, round, front));
            if (quota != null && !quotaFirst) {
                quotaHit(quota, round);
            }
            for (Map.Entry<Kind, BareForm.Running> cache : caches.entrySet()) {
                h.notReachingOrigin(cache.getKey().label(), round, () -> measure(cache.getKey(),
                        cache.getValue().uri().resolve(options.path()), null, round, cache.getValue().pid()));
            }
            if (quotaFirst) {
                measure(Kind.QUOTA_MISS, quota.url(), missScript("quota-miss", round), round, quota.miss());
            }
            measure(Kind.MISS, url, missScript("miss", round), round, front, back);
            if (quota != null && !quotaFirst) {
                measure(Kind.QUOTA_MISS, quota.url(), missScript("quota-miss", round), round, quota.miss());
            }
            tally.ratios(Kind.CEILING, kinds);
        });
        for (BareForm.Running cache : caches.values()) {
            h.stop(cache);
        }
        Map<String, Long> quotaLog = quota == null ? Map.of() : quota.stop(h);
        h.stop(open);
        Stack rejecting = h.started(Stack.around(origin, rejecting(options.switches()), options.ports(),
                options.dir().resolve("rejecting")));
        long rejectingFront = rejecting.frontPid();
        h.rounds(round -> {
            measure(Kind.CEILING, ceiling.uri(), null, round, ceiling.pid());
            measure(Kind.REJECTION, url, null, round, rejectingFront);
            tally.ratios(Kind.CEILING, List.of(Kind.CEILING, Kind.REJECTION));
        });
        h.stop(rejecting);
        if (options.fleet()) {
            measureFleet(ceiling, origin);
        }
        Map<Kind, Figure<Kind>> figures = new TreeMap<>();
        for (Kind kind : tally.keys()) {
            figures.put(kind, tally.figure(kind));
        }
        check(figures, h.warnings());
        return new Outcome(bodyBytes, figures, h.warnings(), quotaLog);
    }

    /**
     * Each other product's bare form ({@link Edge#bareForm}) in front of {@code open}'s back tier,
     * started and warmed, by its row; a product whose binary is not installed is a warning instead.
     * Its threads are nginx's workers ({@code open}'s spec), so that its HIT row is set beside
     * nginx's at the same count.
     */
    private Map<Kind, BareForm.Running> startCaches(Stack open) throws IOException, InterruptedException {
        PeakOptions options = h.options();
        Map<Kind, BareForm.Running> caches = new TreeMap<>();
        for (EdgeProduct product : EdgeProduct.values()) {
            Edge adapter = product.adapter();
            // A product without a cache (Traefik) has a bare form for its proxied path, but no HIT to set here.
            if (product == EdgeProduct.DEFAULT || adapter.bareForm().isEmpty()
                    || !adapter.capabilities().contains(Capability.CACHE)) {
                continue;
            }
            Kind kind = Kind.cacheHit(product);
            Optional<String> missing = adapter.notInstalled();
            if (missing.isPresent()) {
                h.warn(kind.label() + ": not measured, " + missing.get());
                continue;
            }
            BareForm.Running cache = h.started(adapter.bareForm().get().start(open.spec(),
                    options.dir().resolve(product.toString()), Ports.free()));
            // The bare forms add no cache-status header: the origin's counter tells a hit from a miss.
            h.warmedByOrigin(cache.uri().resolve(options.path()));
            caches.put(kind, cache);
        }
        return caches;
    }

    /** One wrk run of {@code kind} on {@code url}; {@code masters} are the processes whose trees serve it. */
    private PeakHarness.Measured<Wrk.Result> measure(Kind kind, URI url, Path script, int round, long... masters)
            throws IOException, InterruptedException {
        h.say("  round %d: %-20s %s%n", round, kind.label(), url);
        return tally.add(kind, h.wrk(url, script, kind.name().toLowerCase(Locale.ROOT) + "-" + round, masters));
    }

    private void quotaHit(QuotaRows quota, int round) throws IOException, InterruptedException {
        h.notReachingOrigin("quota's HIT", round, () -> measure(Kind.QUOTA_HIT, quota.url(), null, round, quota.hit()));
    }

    /**
     * The MISS and rejection paths through {@link #FLEET_EDGES} edges behind the balancer, first with
     * the per-client limit split between the edges, then shared in Redis: the same hops, so the
     * difference between the two is what asking Redis adds. Redis's own CPU counts in the shared rows.
     */
    private void measureFleet(CeilingServer ceiling, OriginServer origin) throws IOException, InterruptedException {
        PeakOptions options = h.options();
        record Path2(FleetLimit limit, Kind miss, Kind rejection) {}
        for (Path2 p : List.of(new Path2(FleetLimit.SPLIT, Kind.FLEET_SPLIT_MISS, Kind.FLEET_SPLIT_REJECTION),
                new Path2(FleetLimit.SHARED, Kind.FLEET_SHARED_MISS, Kind.FLEET_SHARED_REJECTION))) {
            for (boolean rejecting : new boolean[] {false, true}) {
                StackSwitches s = (rejecting ? rejecting(options.switches()) : open(options.switches()))
                        .edges(FLEET_EDGES).fleetLimit(p.limit());
                Kind kind = rejecting ? p.rejection() : p.miss();
                List<Path> edgeLogs;
                try (Stack fleet = Stack.around(origin, s, options.ports(), options.dir()
                        .resolve("fleet-" + p.limit() + (rejecting ? "-rejecting" : "-open")))) {
                    List<Long> masters = new ArrayList<>(fleet.tiers().frontPids());
                    masters.add(fleet.backPid());
                    masters.addAll(fleet.tiers().companionPids());
                    long[] pids = masters.stream().mapToLong(Long::longValue).toArray();
                    edgeLogs = fleet.tiers().frontAccessLogs();
                    h.rounds(round -> {
                        measure(Kind.CEILING, ceiling.uri(), null, round, ceiling.pid());
                        measure(kind, fleet.frontUri().resolve(options.path()), rejecting ? null
                                : missScript("fleet-" + p.limit() + "-miss", round), round, pids);
                        tally.ratios(Kind.CEILING, List.of(Kind.CEILING, kind));
                    });
                }
                // Read once the edges have stopped and written out their buffered logs.
                long fellBack = fallbacks(edgeLogs);
                if (fellBack > 0) {
                    h.warn(kind.label() + ": " + fellBack
                            + " requests fell back to the split limit (Redis failed or was slow): see the edges' error logs");
                }
            }
        }
    }

    /**
     * --quota's front and back tiers, started beside the ones of the HIT and MISS rows (on ports of
     * their own, around the same origin) and measured in the same rounds: the same tiers and hops with
     * the quota counted in Redis for every request, so that the difference is the quota's call alone.
     * Redis's own CPU counts in these rows.
     *
     * @param hit  the processes whose CPU a HIT costs: the front tier's, Redis's
     * @param miss those of a MISS: the back tier's too
     */
    private record QuotaRows(Stack stack, URI url, long[] hit, long[] miss) {
        static QuotaRows start(PeakHarness h, OriginServer origin) throws IOException, InterruptedException {
            PeakOptions options = h.options();
            StackPorts ports = StackPorts.free().origin(options.ports().origin(), options.ports().management())
                    .listen(options.ports().listen());
            Stack stack = h.started(Stack.around(origin, withOpenQuota(options.switches(), options.quota()), ports,
                    options.dir().resolve("quota")));
            URI url = stack.frontUri().resolve(options.path());
            PeakHarness.warm(url);
            List<Long> hit = new ArrayList<>(List.of(stack.frontPid()));
            hit.addAll(stack.tiers().companionPids());
            if (stack.tiers().companionPids().isEmpty()) {
                h.warn("the quota's rows count no Redis CPU: --fleet-redis names a Redis of yours, whose process"
                        + " peak cannot see");
            }
            List<Long> miss = new ArrayList<>(hit);
            miss.add(stack.backPid());
            return new QuotaRows(stack, url, hit.stream().mapToLong(Long::longValue).toArray(),
                    miss.stream().mapToLong(Long::longValue).toArray());
        }

        /**
         * Stops the tiers and Redis; returns what the edge logged as the quota's decision for each of
         * its requests, read once it has written out its buffered log.
         */
        Map<String, Long> stop(PeakHarness h) throws IOException {
            List<Path> logs = stack.tiers().frontAccessLogs();
            h.stop(stack);
            Map<String, Long> logged = quotaLog(logs);
            long fellBack = logged.entrySet().stream().filter(e -> e.getKey().startsWith("FALLBACK"))
                    .mapToLong(Map.Entry::getValue).sum();
            if (fellBack > 0) {
                h.warn("the quota's rows: " + fellBack + " requests fell back to the edge's own count (Redis"
                        + " failed or was slow): see the edge's error log");
            }
            return logged;
        }
    }

    private static final Pattern QUOTA_FIELD = Pattern.compile("\"quota\":\"([A-Z_]+)\"");

    /** What the edges' access logs say the quota did, by decision: PASSED, REJECTED, FALLBACK... */
    static Map<String, Long> quotaLog(List<Path> edgeLogs) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (Path log : edgeLogs) {
            try (var lines = Files.lines(log)) {
                lines.map(QUOTA_FIELD::matcher).filter(Matcher::find)
                        .forEach(q -> counts.merge(q.group(1), 1L, Long::sum));
            }
        }
        return counts;
    }

    /** How many requests the edges' access logs say fell back from the fleet's Redis to their own split limit. */
    static long fallbacks(List<Path> edgeLogs) throws IOException {
        long n = 0;
        for (Path log : edgeLogs) {
            try (var lines = Files.lines(log)) {
                n += lines.filter(l -> l.contains("\"fleet\":\"FALLBACK\"")).count();
            }
        }
        return n;
    }

    /**
     * {@link PeakHarness#warm(URI)} for your own config, which sends no X-Cache-Status: the origin's
     * counter tells a hit, as for HAProxy's cache. Returns the body's size.
     */
    private int warmYours(URI url) throws IOException, InterruptedException {
        if (!h.warmedByOrigin(url)) {
            throw new IOException(url + " is not answered from your config's cache (each request reached the origin):"
                    + " give --url a path your config caches");
        }
        return PeakHarness.HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body().length;
    }

    /** Doubts about the figures, e.g. a HIT run that got rejections: the limits were binding after all. */
    private static void check(Map<Kind, Figure<Kind>> figures, List<String> warnings) {
        List<Kind> rejections = List.of(Kind.REJECTION, Kind.FLEET_SPLIT_REJECTION, Kind.FLEET_SHARED_REJECTION);
        for (Figure<Kind> f : figures.values()) {
            if (!rejections.contains(f.key()) && f.non2xx() > 0) {
                warnings.add(f.key().label() + ": " + f.non2xx() + " of " + f.requests() + " responses were not 2xx/3xx");
            }
        }
        for (Kind kind : rejections) {
            Figure<Kind> rejected = figures.get(kind);
            if (rejected != null && rejected.non2xx() < rejected.requests() * 0.99) {
                warnings.add(kind.label() + ": only " + rejected.non2xx() + " of " + rejected.requests()
                        + " responses were rejections");
            }
        }
        for (Figure<Kind> f : figures.values()) {
            if (f.socketErrors()) {
                warnings.add(f.key().label() + ": wrk counted socket errors (see the wrk/*.out files)");
            }
        }
    }

    /**
     * The MISS script of one run, named for it: each round's URLs its own, since the same stack's cache
     * holds the last round's and a script of the same URLs would measure HITs from round 2 on.
     */
    private Path missScript(String run, int round) throws IOException {
        return missScript(h.options().dir().resolve(run + "-" + round + ".lua"), h.options().path(), run + "-" + round);
    }

    /** A wrk script that gives every request its own query string, so each one misses the edge cache. */
    static Path missScript(Path file, String path, String run) throws IOException {
        String separator = path.contains("?") ? "&" : "?";
        Files.writeString(file, """
                -- Every request a new query string: each misses the edge cache and goes to the origin.
                local threads = 0
                function setup(thread)
                  threads = threads + 1
                  thread:set("id", threads)
                end
                local n = 0
                function request()
                  n = n + 1
                  return wrk.format("GET", "%s%speak-miss=%s-" .. id .. "-" .. n)
                end
                """.formatted(path.replace("\\", "\\\\").replace("\"", "\\\""), separator, run));
        return file;
    }
}
