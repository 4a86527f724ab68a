package dev.ratecache.suite.peak;

import dev.ratecache.proc.Ports;
import dev.ratecache.proc.ProcCpu;
import dev.ratecache.stats.Median;
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
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Peak throughput of the tiers' paths, each as a ratio to nginx's own ceiling measured in the
 * same run: the edge cache's HIT path, the MISS path to the origin, and the rejection path, against
 * {@code return 200} of a body of the same size ({@link CeilingServer}). Each round measures the
 * ceiling right before the paths it is compared with, so drift on a shared machine cancels out.
 */
public final class PeakRun {
    /** What one run measures. */
    public enum Kind {
        CEILING("ceiling: return 200"),
        HIT("edge-cache HIT"),
        HAPROXY_HIT("HAProxy cache HIT"),
        MISS("MISS to origin"),
        REJECTION("rejection (limit)"),
        // --fleet: the same two paths through the balancer and two edges, the per-client limit split and
        // then shared in Redis, so that the difference is the Redis round trip alone.
        FLEET_SPLIT_MISS("MISS, fleet split"),
        FLEET_SHARED_MISS("MISS, fleet shared"),
        FLEET_SPLIT_REJECTION("rejection, fleet split"),
        FLEET_SHARED_REJECTION("rejection, fleet shared"),
        // --quota: HIT and MISS again on the same one edge with the quota counted in Redis, so that the
        // difference from HIT and MISS above is the quota's Redis call alone.
        QUOTA_HIT("HIT, quota in Redis"),
        QUOTA_MISS("MISS, quota in Redis");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * @param switches the tiers' switches; the limits are made non-binding for HIT and MISS, and
     *                 binding (1 r/s, no burst) for the rejection path
     * @param origin   the suite's own origin's extra arguments, or null to use the switches' --origin
     * @param workers  the switches' worker setting, which the ceiling copies
     * @param path     the URL path to warm and hit
     * @param quota    --quota's window and mode, whose cost the quota's rows measure with {@link #OPEN_QUOTA}
     *                 requests a window; null for no quota rows
     */
    public record Options(StackSwitches switches, String workers, StackPorts ports, Wrk.Load load, int rounds,
            String path, List<String> origin, int originThreads, Path dir, boolean fleet, Quota quota) {}

    /** The fleet --fleet measures: two edges behind the balancer, enough for the limit to be a fleet's. */
    static final int FLEET_EDGES = 2;

    /**
     * A path's figures over the rounds: each round's wrk result, its ratio to that round's ceiling,
     * and the CPU nginx spent per request (microseconds; both tiers for MISS), which a busy machine
     * disturbs far less than requests/s.
     */
    public record Figure(Kind kind, List<Wrk.Result> runs, List<Double> ratios, List<Double> cpuMicros,
            List<Double> cpuRatios) {
        public double medianRequestsPerSecond() { return Median.of(runs.stream().map(Wrk.Result::requestsPerSecond).toList()); }
        public double medianRatio() { return Median.of(ratios); }
        public double minRatio() { return ratios.stream().min(Comparator.naturalOrder()).orElse(Double.NaN); }
        public double maxRatio() { return ratios.stream().max(Comparator.naturalOrder()).orElse(Double.NaN); }
        public double medianP50() { return Median.of(runs.stream().map(Wrk.Result::latencyP50).toList()); }
        public double medianP99() { return Median.of(runs.stream().map(Wrk.Result::latencyP99).toList()); }
        public double medianCpuMicros() { return Median.of(cpuMicros); }
        /** The ceiling's CPU per request over this path's, per round: the ratio if nginx's CPU were all that limits. */
        public double medianCpuRatio() { return Median.of(cpuRatios); }
        public long non2xx() { return runs.stream().mapToLong(Wrk.Result::non2xx).sum(); }
        public long requests() { return runs.stream().mapToLong(Wrk.Result::requests).sum(); }
    }

    /**
     * Every path's figures, the body size compared, anything that makes a figure doubtful, and what
     * the quota's edge logged for the requests of its rows (PASSED, REJECTED, FALLBACK...; empty without
     * --quota).
     */
    public record Outcome(int bodyBytes, Map<Kind, Figure> figures, List<String> warnings, Map<String, Long> quotaLog) {
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
    public record RedisCost(Figure without, Figure with) {
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

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Options options;
    private final PrintWriter progress;

    public PeakRun(Options options, PrintWriter progress) {
        this.options = options;
        this.progress = progress;
    }

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

    public Outcome run() throws IOException, InterruptedException {
        Files.createDirectories(options.dir());
        Map<Kind, List<Wrk.Result>> runs = new EnumMap<>(Kind.class);
        Map<Kind, List<Double>> ratios = new EnumMap<>(Kind.class);
        Map<Kind, List<Double>> cpu = new EnumMap<>(Kind.class);
        Map<Kind, List<Double>> cpuRatios = new EnumMap<>(Kind.class);
        List<String> warnings = new ArrayList<>();
        Wrk wrk = new Wrk(options.load());
        Path wrkDir = options.dir().resolve("wrk");
        OriginServer origin = null;
        CeilingServer ceiling = null;
        BareHaproxyCache haproxy = null;
        Stack stack = null;
        QuotaRows quota = null;
        Map<String, Long> quotaLog = Map.of();
        try {
            origin = startOrigin(options.origin(), options.ports(), options.originThreads(), options.dir(), progress);
            stack = Stack.around(origin, open(options.switches()), options.ports(), options.dir().resolve("open"));
            URI url = stack.frontUri().resolve(options.path());
            int bodyBytes = options.switches().ownFront().isPresent() ? warmYours(url, origin) : warm(url);
            ceiling = CeilingServer.start(options.dir().resolve("ceiling"), options.workers(), Ports.free(), bodyBytes);
            URI haproxyUrl = null;
            if (BareHaproxyCache.installed()) {
                haproxy = BareHaproxyCache.start(options.dir().resolve("haproxy"), threads(options.workers()), Ports.free(),
                        options.ports().back());
                haproxyUrl = haproxy.uri().resolve(options.path());
                // HAProxy adds no cache-status header: the origin's counter tells a hit from a miss.
                warmedByOrigin(haproxyUrl, origin);
            } else {
                warnings.add("HAProxy cache HIT: not measured, haproxy is not installed (" + BareHaproxyCache.binary()
                        + "; sudo apt-get install -y haproxy, or run ./run-tests.sh peak)");
            }
            if (options.quota() != null) {
                quota = QuotaRows.start(origin, options, warnings);
            }
            Measurer m = new Measurer(wrk, wrkDir, runs, cpu);
            long front = stack.frontEnd().pid();
            long back = stack.backEnd().pid();
            for (int round = 1; round <= options.rounds(); round++) {
                m.measure(Kind.CEILING, ceiling.uri(), null, round, ceiling.pid());
                // With --quota, every other round the quota's HIT and MISS first, so that a machine slowing
                // down within a round does not always fall on the same one of the two compared.
                boolean quotaFirst = quota != null && round % 2 == 0;
                if (quotaFirst) {
                    quota.hit(m, round, origin, warnings);
                }
                long originBefore = originRequests(origin);
                m.measure(Kind.HIT, url, null, round, front);
                long reachedOrigin = originRequests(origin) - originBefore;
                if (reachedOrigin > 0) {
                    warnings.add("round " + round + ": " + reachedOrigin + " requests of the HIT run reached the origin");
                }
                if (quota != null && !quotaFirst) {
                    quota.hit(m, round, origin, warnings);
                }
                if (haproxy != null) {
                    originBefore = originRequests(origin);
                    m.measure(Kind.HAPROXY_HIT, haproxyUrl, null, round, haproxy.pid());
                    reachedOrigin = originRequests(origin) - originBefore;
                    if (reachedOrigin > 0) {
                        warnings.add("round " + round + ": " + reachedOrigin
                                + " requests of the HAProxy run reached the origin");
                    }
                    m.ratios(ratios, cpuRatios, Kind.HAPROXY_HIT);
                }
                if (quotaFirst) {
                    m.measure(Kind.QUOTA_MISS, quota.url(), missScript("quota-miss", round), round, quota.miss());
                }
                m.measure(Kind.MISS, url, missScript("miss", round), round, front, back);
                if (quota != null && !quotaFirst) {
                    m.measure(Kind.QUOTA_MISS, quota.url(), missScript("quota-miss", round), round, quota.miss());
                }
                m.ratios(ratios, cpuRatios, Kind.HIT, Kind.MISS);
                if (quota != null) {
                    m.ratios(ratios, cpuRatios, Kind.QUOTA_HIT, Kind.QUOTA_MISS);
                }
            }
            if (haproxy != null) {
                haproxy.close();
                haproxy = null;
            }
            if (quota != null) {
                quotaLog = quota.stop(warnings);
                quota = null;
            }
            stack.close();
            stack = Stack.around(origin, rejecting(options.switches()), options.ports(),
                    options.dir().resolve("rejecting"));
            front = stack.frontEnd().pid();
            for (int round = 1; round <= options.rounds(); round++) {
                m.measure(Kind.CEILING, ceiling.uri(), null, round, ceiling.pid());
                m.measure(Kind.REJECTION, url, null, round, front);
                m.ratios(ratios, cpuRatios, Kind.REJECTION);
            }
            stack.close();
            stack = null;
            if (options.fleet()) {
                measureFleet(m, ceiling, origin, ratios, cpuRatios, warnings);
            }
            Map<Kind, Figure> figures = new EnumMap<>(Kind.class);
            for (Kind kind : runs.keySet()) {
                figures.put(kind, new Figure(kind, runs.get(kind), ratios.get(kind), cpu.get(kind), cpuRatios.get(kind)));
            }
            check(figures, warnings);
            return new Outcome(bodyBytes, figures, warnings, quotaLog);
        } finally {
            for (AutoCloseable c : new AutoCloseable[] {haproxy, quota == null ? null : quota.stack(), stack, ceiling,
                    origin}) {
                if (c != null) {
                    try {
                        c.close();
                    } catch (Exception ignored) {
                        // Stopping the rest matters more than this one's error.
                    }
                }
            }
        }
    }

    /**
     * The MISS and rejection paths through {@link #FLEET_EDGES} edges behind the balancer, first with
     * the per-client limit split between the edges, then shared in Redis: the same hops, so the
     * difference between the two is what asking Redis adds. Redis's own CPU counts in the shared rows.
     */
    private void measureFleet(Measurer m, CeilingServer ceiling, OriginServer origin, Map<Kind, List<Double>> ratios,
            Map<Kind, List<Double>> cpuRatios, List<String> warnings) throws IOException, InterruptedException {
        record Path2(FleetLimit limit, Kind miss, Kind rejection) {}
        for (Path2 p : List.of(new Path2(FleetLimit.SPLIT, Kind.FLEET_SPLIT_MISS, Kind.FLEET_SPLIT_REJECTION),
                new Path2(FleetLimit.SHARED, Kind.FLEET_SHARED_MISS, Kind.FLEET_SHARED_REJECTION))) {
            for (boolean rejecting : new boolean[] {false, true}) {
                StackSwitches s = (rejecting ? rejecting(options.switches()) : open(options.switches()))
                        .edges(FLEET_EDGES).fleetLimit(p.limit());
                List<Path> edgeLogs;
                try (Stack fleet = Stack.around(origin, s, options.ports(), options.dir()
                        .resolve("fleet-" + p.limit() + (rejecting ? "-rejecting" : "-open")))) {
                    List<Long> masters = new ArrayList<>();
                    fleet.balancer().ifPresent(b -> masters.add(b.pid()));
                    fleet.fronts().forEach(f -> masters.add(f.pid()));
                    masters.add(fleet.backEnd().pid());
                    fleet.fleetRedis().ifPresent(r -> masters.add(r.pid()));
                    long[] pids = masters.stream().mapToLong(Long::longValue).toArray();
                    edgeLogs = fleet.frontAccessLogs();
                    for (int round = 1; round <= options.rounds(); round++) {
                        m.measure(Kind.CEILING, ceiling.uri(), null, round, ceiling.pid());
                        Kind kind = rejecting ? p.rejection() : p.miss();
                        m.measure(kind, fleet.frontUri().resolve(options.path()), rejecting ? null
                                : missScript("fleet-" + p.limit() + "-miss", round), round, pids);
                        m.ratios(ratios, cpuRatios, kind);
                    }
                }
                // Read once the edges have stopped and written out their buffered logs.
                long fellBack = fallbacks(edgeLogs);
                if (fellBack > 0) {
                    warnings.add((rejecting ? p.rejection() : p.miss()).label() + ": " + fellBack
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
        static QuotaRows start(OriginServer origin, Options options, List<String> warnings)
                throws IOException, InterruptedException {
            StackPorts ports = StackPorts.free().origin(options.ports().origin(), options.ports().management())
                    .listen(options.ports().listen());
            Stack stack = Stack.around(origin, withOpenQuota(options.switches(), options.quota()), ports,
                    options.dir().resolve("quota"));
            try {
                URI url = stack.frontUri().resolve(options.path());
                warm(url);
                List<Long> hit = new ArrayList<>(List.of(stack.frontEnd().pid()));
                stack.fleetRedis().ifPresentOrElse(r -> hit.add(r.pid()), () -> warnings.add("the quota's rows count"
                        + " no Redis CPU: --fleet-redis names a Redis of yours, whose process peak cannot see"));
                List<Long> miss = new ArrayList<>(hit);
                miss.add(stack.backEnd().pid());
                return new QuotaRows(stack, url, hit.stream().mapToLong(Long::longValue).toArray(),
                        miss.stream().mapToLong(Long::longValue).toArray());
            } catch (IOException | RuntimeException e) {
                stack.close();
                throw e;
            }
        }

        void hit(Measurer m, int round, OriginServer origin, List<String> warnings)
                throws IOException, InterruptedException {
            long before = originRequests(origin);
            m.measure(Kind.QUOTA_HIT, url, null, round, hit);
            long reached = originRequests(origin) - before;
            if (reached > 0) {
                warnings.add("round " + round + ": " + reached + " requests of the quota's HIT run reached the origin");
            }
        }

        /**
         * Stops the tiers and Redis; returns what the edge logged as the quota's decision for each of
         * its requests, read once it has written out its buffered log.
         */
        Map<String, Long> stop(List<String> warnings) throws IOException {
            List<Path> logs = stack.frontAccessLogs();
            stack.close();
            Map<String, Long> logged = quotaLog(logs);
            long fellBack = logged.entrySet().stream().filter(e -> e.getKey().startsWith("FALLBACK"))
                    .mapToLong(Map.Entry::getValue).sum();
            if (fellBack > 0) {
                warnings.add("the quota's rows: " + fellBack + " requests fell back to the edge's own count (Redis"
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

    /** The suite's own origin with {@code args} (its log in {@code dir}); null, and none started, for the user's origin. */
    static OriginServer startOrigin(List<String> args, StackPorts ports, int threads, Path dir, PrintWriter progress)
            throws IOException {
        if (args == null) {
            return null;
        }
        progress.println("starting the suite's origin");
        progress.flush();
        return OriginServer.start(ports.origin(), ports.management(), threads, dir.resolve("origin.log"), args);
    }

    /** nginx's worker count as HAProxy's threads; null for "auto", which is HAProxy's own default. */
    static Integer threads(String workers) {
        return workers.matches("[0-9]+") ? Integer.valueOf(workers) : null;
    }

    /**
     * Requests {@code url} until a request no longer reaches the origin, as the suite's origin counts
     * (or three times for an origin of the user's, which counts nothing here); false when five did not
     * get there. For a cache that says nothing of hits and misses.
     */
    /**
     * {@link #warm(URI)} for your own config, which sends no X-Cache-Status: the origin's counter tells
     * a hit, as for HAProxy's cache. Returns the body's size.
     */
    private static int warmYours(URI url, OriginServer origin) throws IOException, InterruptedException {
        if (!warmedByOrigin(url, origin)) {
            throw new IOException(url + " is not answered from your config's cache (each request reached the origin):"
                    + " give --url a path your config caches");
        }
        return HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body().length;
    }

    static boolean warmedByOrigin(URI url, OriginServer origin) throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 5; attempt++) {
            long before = originRequests(origin);
            HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IOException(url + " answered " + response.statusCode());
            }
            if (attempt > 0 && (origin == null ? attempt >= 2 : originRequests(origin) == before)) {
                return true;
            }
        }
        return false;
    }

    /** Runs wrk on one path after another, keeping each result and the CPU nginx spent per request. */
    private final class Measurer {
        private final Wrk wrk;
        private final Path dir;
        private final Map<Kind, List<Wrk.Result>> runs;
        private final Map<Kind, List<Double>> cpu;

        Measurer(Wrk wrk, Path dir, Map<Kind, List<Wrk.Result>> runs, Map<Kind, List<Double>> cpu) {
            this.wrk = wrk;
            this.dir = dir;
            this.runs = runs;
            this.cpu = cpu;
        }

        /** One wrk run on {@code url}; {@code masters} are the nginx masters whose process trees serve it. */
        void measure(Kind kind, URI url, Path script, int round, long... masters) throws IOException, InterruptedException {
            progress.printf("  round %d: %-20s %s%n", round, kind.label(), url);
            progress.flush();
            double cpuBefore = treeSeconds(masters);
            Wrk.Result result = wrk.run(url, script, dir, kind.name().toLowerCase(java.util.Locale.ROOT) + "-" + round);
            double cpuSeconds = treeSeconds(masters) - cpuBefore;
            runs.computeIfAbsent(kind, k -> new ArrayList<>()).add(result);
            cpu.computeIfAbsent(kind, k -> new ArrayList<>())
                    .add(result.requests() == 0 ? Double.NaN : cpuSeconds * 1e6 / result.requests());
        }

        /** Each path's last result over the ceiling's last: requests/s, and CPU per request the other way round. */
        void ratios(Map<Kind, List<Double>> ratios, Map<Kind, List<Double>> cpuRatios, Kind... kinds) {
            double top = last(runs.get(Kind.CEILING)).requestsPerSecond();
            double topCpu = last(cpu.get(Kind.CEILING));
            ratios.computeIfAbsent(Kind.CEILING, k -> new ArrayList<>()).add(1.0);
            cpuRatios.computeIfAbsent(Kind.CEILING, k -> new ArrayList<>()).add(1.0);
            for (Kind kind : kinds) {
                ratios.computeIfAbsent(kind, k -> new ArrayList<>())
                        .add(top > 0 ? last(runs.get(kind)).requestsPerSecond() / top : 0);
                cpuRatios.computeIfAbsent(kind, k -> new ArrayList<>()).add(topCpu / last(cpu.get(kind)));
            }
        }
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }

    private static double treeSeconds(long... masters) {
        double total = 0;
        for (long pid : masters) {
            total += ProcCpu.treeSeconds(pid);
        }
        return total;
    }

    /** Doubts about the figures, e.g. a HIT run that got rejections: the limits were binding after all. */
    private static void check(Map<Kind, Figure> figures, List<String> warnings) {
        for (Kind kind : List.of(Kind.CEILING, Kind.HIT, Kind.HAPROXY_HIT, Kind.MISS, Kind.FLEET_SPLIT_MISS,
                Kind.FLEET_SHARED_MISS, Kind.QUOTA_HIT, Kind.QUOTA_MISS)) {
            Figure f = figures.get(kind);
            if (f != null && f.non2xx() > 0) {
                warnings.add(kind.label() + ": " + f.non2xx() + " of " + f.requests() + " responses were not 2xx/3xx");
            }
        }
        for (Kind kind : List.of(Kind.REJECTION, Kind.FLEET_SPLIT_REJECTION, Kind.FLEET_SHARED_REJECTION)) {
            Figure rejected = figures.get(kind);
            if (rejected != null && rejected.non2xx() < rejected.requests() * 0.99) {
                warnings.add(kind.label() + ": only " + rejected.non2xx() + " of " + rejected.requests()
                        + " responses were rejections");
            }
        }
        for (Figure f : figures.values()) {
            if (f.runs().stream().anyMatch(r -> r.socketErrors() > 0)) {
                warnings.add(f.kind().label() + ": wrk counted socket errors (see the wrk/*.out files)");
            }
        }
    }

    /**
     * Requests {@code url} until the edge answers it from the cache; returns the body's size. Fails
     * when the edge does not cache it (a URL that is not cacheable, or the cache switched off).
     */
    public static int warm(URI url) throws IOException, InterruptedException {
        return warm(url, HTTP);
    }

    /** {@link #warm(URI)} with {@code client}, e.g. one that trusts the run's throwaway CA. */
    public static int warm(URI url, HttpClient client) throws IOException, InterruptedException {
        String status = "";
        for (int attempt = 0; attempt < 5; attempt++) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            status = response.statusCode() + ", X-Cache-Status " + response.headers().firstValue("X-Cache-Status").orElse("none");
            if (response.statusCode() == 200 && response.headers().firstValue("X-Cache-Status").orElse("").equals("HIT")) {
                return response.body().length;
            }
        }
        throw new IOException(url + " is not answered from the edge cache (last answer: " + status
                + "): give --url a path whose responses are cacheable");
    }

    /**
     * The MISS script of one run, named for it: each round's URLs its own, since the same stack's cache
     * holds the last round's and a script of the same URLs would measure HITs from round 2 on.
     */
    private Path missScript(String run, int round) throws IOException {
        return missScript(options.dir().resolve(run + "-" + round + ".lua"), options.path(), run + "-" + round);
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

    static long originRequests(OriginServer origin) {
        if (origin == null) {
            return 0;
        }
        try {
            return origin.counters().total().requests();
        } catch (IOException e) {
            return 0;
        }
    }
}
