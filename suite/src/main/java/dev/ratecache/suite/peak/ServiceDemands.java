package dev.ratecache.suite.peak;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.proc.Poll;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.PostgresServer;
import dev.ratecache.proc.ProcCpu;
import dev.ratecache.suite.origin.OriginDatabase;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The service demands of {@code ./run-tests.sh peak --demands}: the CPU each request class costs
 * each component, in microseconds a request, from {@code /proc} per process over a steady wrk run
 * (Denning and Buzen's D = B / C: busy time over completions). The model turns them into the
 * throughput of a closed loop and the utilisation of an open load ({@code dev.ratecache.model}).
 * Written to {@code demands.json} with the machine's description, since a demand holds for the
 * machine it was measured on.
 */
public final class ServiceDemands {

    /** What a request does at the tiers: each class a path through them. */
    public enum RequestClass {
        HIT("answered from the front's cache"),
        MISS("through both tiers to the origin, a new URL each"),
        BYPASS("through both tiers to the origin past the cache (an Authorization header)"),
        REJECTION("refused 429 by the front's per-client limit"),
        TLS_HIT("a HIT over TLS, on a kept-alive connection (wrk over https)"),
        TLS_HANDSHAKE("a new connection with a full TLS handshake, and one HIT on it (openssl s_time -new, one"
                + " connection at a time): per connection"),
        H2_HIT("a HIT over HTTP/2 and TLS, multiplexed (h2load)"),
        QUOTA_HIT("a HIT whose client is also counted against a quota in Redis, one call a request (a sliding"
                + " window of a minute whose limit no run reaches)"),
        DATABASE("through both tiers past the cache to the origin, which reads an item from PostgreSQL (GET "
                + "/items/1 with an Authorization header)");

        private final String meaning;

        RequestClass(String meaning) {
            this.meaning = meaning;
        }

        public String meaning() {
            return meaning;
        }
    }

    /**
     * Whose CPU: each tier's processes, the origin's JVM, the Redis and the PostgreSQL a class reaches
     * (counted only in the classes whose tiers have one), and the load generator itself.
     */
    public enum Component {
        FRONT("front"), BACK("back"), ORIGIN("origin"), REDIS("Redis"), POSTGRESQL("PostgreSQL"),
        LOAD_GENERATOR("load generator");

        private final String label;

        Component(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * One class's demand at every component it has, round by round, in microseconds a request: Redis
     * and PostgreSQL only where the class's tiers ran one.
     */
    public record ClassDemands(Map<Component, Spread> byComponent, Spread requestsPerSecond) {
        /** The component's median demand; 0 for a Redis or PostgreSQL the class never reached. */
        public double median(Component c) {
            Spread d = byComponent.get(c);
            return d == null ? 0 : d.median();
        }

        /** The demand on the machine's CPU as a whole: every component's median added. */
        public double total() {
            return byComponent.values().stream().mapToDouble(Spread::median).sum();
        }
    }

    /**
     * The run's demands, the machine measured on, and anything that makes a figure doubtful.
     *
     * @param notMeasured a class no run of which measured anything, and why (the product crashed under it)
     * @param product     whose tiers
     * @param connections wrk's connections in every run: the closed loop's population
     */
    public record Outcome(EdgeProduct product, Map<String, String> machine, int connections,
            Map<RequestClass, ClassDemands> demands, Map<RequestClass, String> notMeasured, List<String> warnings) {
        public ClassDemands of(RequestClass c) {
            return demands.get(c);
        }
    }

    private ServiceDemands() {
    }

    /**
     * Starts the origin and the product's two tiers (limits present, not binding) and measures each of
     * its classes --rounds times, then the rejection path through tiers whose front limit is 1 r/s. A
     * product without a cache (Traefik) has no HIT or BYPASS: its every request is a MISS.
     */
    public static Outcome run(PeakOptions options, Map<String, String> machine, PrintWriter progress)
            throws IOException, InterruptedException {
        Edge product = options.product().adapter();
        boolean cache = product.capabilities().contains(Capability.CACHE);
        Tally tally = new Tally();
        List<String> warnings;
        try (PeakHarness h = new PeakHarness(options, progress)) {
            OriginServer origin = h.startOrigin();
            h.say("starting %s's tiers%n", options.product().displayName());
            Tiers open = new Tiers(h, product, PeakRun.open(options.switches()).spec(options.ports()),
                    options.dir().resolve("open"), cache);
            Wrk wrk = new Wrk(options.load());
            Path bypass = bypassScript(options.dir().resolve("bypass.lua"));
            List<RequestClass> classes = cache ? List.of(RequestClass.HIT, RequestClass.BYPASS, RequestClass.MISS)
                    : List.of(RequestClass.MISS);
            withWarmUp(h, round -> {
                Path miss = PeakRun.missScript(options.dir().resolve("miss-" + round + ".lua"), options.path(),
                        "demands-" + round);
                for (RequestClass c : classes) {
                    Path script = c == RequestClass.MISS ? miss : c == RequestClass.BYPASS ? bypass : null;
                    h.say("  %s: %-10s %s%n", label(round), c, open.url(options.path()));
                    once(h, wrk, c, script, round, open, origin, tally);
                }
            });
            open.stop();
            Tiers rejecting = new Tiers(h, product, PeakRun.rejecting(options.switches()).spec(options.ports()),
                    options.dir().resolve("rejecting"), false);
            h.rounds(round -> {
                h.say("  round %d: %-10s %s%n", round, RequestClass.REJECTION, rejecting.url(options.path()));
                once(h, wrk, RequestClass.REJECTION, null, round, rejecting, origin, tally);
            });
            rejecting.stop();
            tls(h, product, cache, wrk, origin, tally);
            quota(h, product, cache, wrk, origin, tally);
            database(h, product, wrk, bypass, tally);
            warnings = h.warnings();
        }
        Map<RequestClass, ClassDemands> demands = new EnumMap<>(RequestClass.class);
        for (Map.Entry<RequestClass, List<Map<Component, Double>>> c : tally.rounds().entrySet()) {
            Map<Component, Spread> byComponent = new EnumMap<>(Component.class);
            for (Component component : Component.values()) {
                // Redis and PostgreSQL are counted in the classes whose tiers have one, in every round of them.
                if (c.getValue().stream().allMatch(r -> r.containsKey(component))) {
                    byComponent.put(component, new Spread(c.getValue().stream().map(r -> r.get(component)).toList()));
                }
            }
            demands.put(c.getKey(), new ClassDemands(byComponent, new Spread(tally.rates().get(c.getKey()))));
        }
        tally.lost().keySet().removeAll(demands.keySet());
        return new Outcome(options.product(), machine, options.load().connections(), demands, tally.lost(), warnings);
    }

    /** What the runs measured: each class's demands and rates round by round, and the classes lost and why. */
    private record Tally(Map<RequestClass, List<Map<Component, Double>>> rounds, Map<RequestClass, List<Double>> rates,
            Map<RequestClass, String> lost) {
        Tally() {
            this(new EnumMap<>(RequestClass.class), new EnumMap<>(RequestClass.class), new EnumMap<>(RequestClass.class));
        }
    }

    /**
     * Round 0, a warm-up that {@link #once} does not count (the origin's JVM compiles its paths in the
     * first seconds of load, which would count as the first round's demand), then --rounds rounds.
     */
    private static void withWarmUp(PeakHarness h, PeakHarness.Round body) throws IOException, InterruptedException {
        body.measure(0);
        h.rounds(body);
    }

    private static String label(int round) {
        return round == 0 ? "warm-up" : "round " + round;
    }

    /** The classes the front's cache answers: none of their requests should reach the origin after the warm-up. */
    static final java.util.Set<RequestClass> HITS = java.util.EnumSet.of(RequestClass.HIT, RequestClass.TLS_HIT,
            RequestClass.TLS_HANDSHAKE, RequestClass.H2_HIT);

    /** The classes over TLS, each a client of its own; measured where the product caches and takes --tls. */
    static final List<RequestClass> OVER_TLS = List.of(RequestClass.TLS_HIT, RequestClass.TLS_HANDSHAKE,
            RequestClass.H2_HIT);

    /**
     * The TLS classes through tiers with --tls (HTTP/2 on), a warm-up round first (whose HITs also fill
     * the cache: s_time asks without a Host header, another key). A product that refuses the TLS spec, or
     * has no cache for these HITs, says why in place of their figures.
     */
    private static void tls(PeakHarness h, Edge product, boolean cache, Wrk wrk, OriginServer origin, Tally tally)
            throws IOException, InterruptedException {
        PeakOptions options = h.options();
        // A throwaway CA for the address the clients reach the front on, as up --tls makes one.
        StackSpec spec = dev.ratecache.suite.stack.Stack.withTls(PeakRun.open(
                options.switches()).tls(true).http2(true).spec(options.ports()), options.dir());
        String refused = !cache ? options.product().displayName() + " has no cache, so no HIT over TLS"
                : product.refusal(spec).map(r -> options.product().displayName() + " refuses --tls: " + r).orElse(null);
        if (refused != null) {
            OVER_TLS.forEach(c -> tally.lost().put(c, refused));
            return;
        }
        Tiers tls = new Tiers(h, product, spec, options.dir().resolve("tls"), false);
        List<RequestClass> classes = new ArrayList<>(OVER_TLS);
        try {
            // s_time asks HTTP/1.0 without a Host header: the front must answer that from its cache too.
            TlsPeak.warmHostless(tls.url(options.path()), options.path(), spec.tls().flatMap(
                    StackSpec.Tls::files).orElseThrow().sslContext());
        } catch (IOException e) {
            classes.remove(RequestClass.TLS_HANDSHAKE);
            tally.lost().put(RequestClass.TLS_HANDSHAKE, options.product().displayName() + "'s front: " + e.getMessage());
        }
        H2load h2load = new H2load(H2load.connectionsFor(options.load().connections(), options.streams()),
                options.streams());
        withWarmUp(h, round -> {
            for (RequestClass c : classes) {
                h.say("  %s: %-13s %s%n", label(round), c, tls.url(options.path()));
                Client client = switch (c) {
                    case TLS_HANDSHAKE -> (url, name) -> {
                        Counted<STime.Result> run = STime.runCounted(url.getHost(), url.getPort(), url.getRawPath(),
                                STime.Handshake.FULL, options.load().duration(), options.dir().resolve("clients"), name);
                        return new Counted<>(new Completed(run.result().connections(),
                                run.result().connectionsPerSecond(), 0), run.cpuSeconds());
                    };
                    case H2_HIT -> (url, name) -> {
                        Counted<H2load.Result> run = h2load.runCounted(url, options.load().duration(),
                                options.dir().resolve("clients"), name);
                        H2load.Result r = run.result();
                        return new Counted<>(new Completed(r.succeeded(), r.requestsPerSecond(),
                                r.requests() == 0 ? 0 : (double) r.failed() / r.requests()), run.cpuSeconds());
                    };
                    default -> wrkClient(wrk, null, options.dir().resolve("wrk"));
                };
                once(h, client, c, round, tls, origin, options.path(), tally);
            }
        });
        tls.stop();
    }

    /**
     * QUOTA_HIT: the HIT path again through tiers whose front also counts each client's requests in
     * Redis (a sliding window of a minute, with a limit no run reaches), so that
     * Redis's CPU per request is measured beside the front's. Where the product has no quota, or its
     * Redis is the user's own (whose process peak cannot see), it says so in place of the figures.
     */
    private static void quota(PeakHarness h, Edge product, boolean cache, Wrk wrk, OriginServer origin, Tally tally)
            throws IOException, InterruptedException {
        PeakOptions options = h.options();
        String name = options.product().displayName();
        if (!cache || !product.capabilities().contains(Capability.QUOTA)) {
            tally.lost().put(RequestClass.QUOTA_HIT, name + (cache ? " has no quota in Redis" : " has no cache, so no HIT"));
            return;
        }
        Quota quota = new Quota(1, 60, Quota.Window.SLIDING);
        Tiers tiers = new Tiers(h, product, PeakRun.withOpenQuota(options.switches(), quota).spec(options.ports()),
                options.dir().resolve("quota"), true);
        if (tiers.running().companionPids().isEmpty()) {
            tally.lost().put(RequestClass.QUOTA_HIT, "the quota's Redis is not the suite's (--fleet-redis): its CPU cannot be read");
            tiers.stop();
            return;
        }
        withWarmUp(h, round -> {
            h.say("  %s: %-10s %s%n", label(round), RequestClass.QUOTA_HIT, tiers.url(options.path()));
            once(h, wrk, RequestClass.QUOTA_HIT, null, round, tiers, origin, tally);
        });
        tiers.stop();
    }

    /** The item every DATABASE request reads: one the origin seeds at start. */
    static final String ITEM = "/items/1";

    /**
     * DATABASE: requests past the cache (an Authorization header) to an origin of the suite's own
     * that reads {@link #ITEM} from PostgreSQL (started here, on a free port), through the product's
     * tiers in front of it. Where PostgreSQL is not installed, or the origin is the user's own, it
     * says so in place of the figures.
     */
    private static void database(PeakHarness h, Edge product, Wrk wrk, Path bypass, Tally tally)
            throws IOException, InterruptedException {
        PeakOptions options = h.options();
        java.util.Optional<String> notInstalled = PostgresServer.notInstalled();
        if (options.origin() == null || notInstalled.isPresent()) {
            tally.lost().put(RequestClass.DATABASE, options.origin() == null
                    ? "the origin is the user's own (--origin): its database is not the suite's"
                    : notInstalled.get());
            return;
        }
        h.say("starting PostgreSQL and an origin that reads from it%n");
        PostgresServer postgres = h.started(PostgresServer.start(options.dir().resolve("postgres"), Ports.free()));
        List<String> args = new ArrayList<>(options.origin());
        OriginDatabase pool = OriginDatabase.defaults();
        args.addAll(new OriginDatabase(OriginDatabase.Kind.POSTGRES, pool.poolSize(), pool.acquireTimeout(), false)
                .originArgs());
        args.addAll(postgres.originArgs());
        OriginServer dbOrigin = h.started(OriginServer.start(Ports.free(), Ports.free(), options.originThreads(),
                options.dir().resolve("origin-postgres.log"), args));
        StackSwitches switches = PeakRun.open(options.switches())
                .origins(List.of(URI.create("http://" + Ports.LOOPBACK + ":" + dbOrigin.port())));
        Tiers tiers = new Tiers(h, product, switches.spec(options.ports()), options.dir().resolve("database"), false,
                List.of(postgres.pid()));
        withWarmUp(h, round -> {
            h.say("  %s: %-10s %s%n", label(round), RequestClass.DATABASE, tiers.url(ITEM));
            once(h, wrkClient(wrk, bypass, options.dir().resolve("wrk")), RequestClass.DATABASE, round, tiers, dbOrigin,
                    ITEM, tally);
        });
        tiers.stop();
    }

    /** What a client run completed: requests (or connections), their rate, the share not answered 2xx or 3xx. */
    record Completed(long requests, double perSecond, double non2xxShare) {}

    /** A client run against a URL, its output named for the run. */
    interface Client {
        Counted<Completed> run(URI url, String name) throws IOException, InterruptedException;
    }

    /** wrk with {@code script} (null for none). */
    static Client wrkClient(Wrk wrk, Path script, Path dir) {
        return (url, name) -> {
            Counted<Wrk.Result> run = wrk.runCounted(url, script, dir, name);
            Wrk.Result r = run.result();
            return new Counted<>(new Completed(r.requests(), r.requestsPerSecond(), r.non2xxShare()), run.cpuSeconds());
        };
    }

    /**
     * A product's two tiers for one set of runs, started again (in a folder of their own, warmed when
     * they cache) when a run ended with one of their processes gone: a product that crashes under a
     * class's load loses that run, not the others.
     */
    private static final class Tiers {
        private final PeakHarness h;
        private final Edge product;
        private final StackSpec spec;
        private final Path dir;
        private final boolean warm;
        private final List<Long> database;
        private Edge.Running running;
        private int starts;

        Tiers(PeakHarness h, Edge product, StackSpec spec, Path dir, boolean warm)
                throws IOException, InterruptedException {
            this(h, product, spec, dir, warm, List.of());
        }

        /** With {@code database}: the PID of the PostgreSQL behind their origin, whose CPU the class costs too. */
        Tiers(PeakHarness h, Edge product, StackSpec spec, Path dir, boolean warm,
                List<Long> database) throws IOException, InterruptedException {
            this.database = database;
            this.h = h;
            this.product = product;
            this.spec = spec;
            this.dir = dir;
            this.warm = warm;
            start();
        }

        private void start() throws IOException, InterruptedException {
            running = h.started(product.start(spec, starts == 0 ? dir : dir.resolveSibling(dir.getFileName() + "-" + starts)));
            starts++;
            if (warm) {
                PeakHarness.warm(url(h.options().path()));
            }
        }

        URI url(String path) {
            return EdgePeak.withoutDefaultPort(running.frontUri().resolve(path));
        }

        /** The PostgreSQL behind the tiers' origin, when the class reaches one. */
        List<Long> database() {
            return database;
        }

        /** Whether every process of the tiers still runs. */
        boolean alive() {
            return running.pids().stream().allMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        }

        /**
         * Whether every process still runs {@code settle} after a run: what wrk left as it ended (its
         * connections closed with requests in flight) is the run's doing, and a crash it causes comes
         * a moment after wrk has exited.
         */
        boolean survives(Duration settle) throws InterruptedException {
            long deadline = System.nanoTime() + settle.toNanos();
            while (System.nanoTime() < deadline) {
                if (!alive()) {
                    return false;
                }
                Poll.pause(50);
            }
            return alive();
        }

        /** The tiers running, started again if a process of theirs is gone. */
        Edge.Running running() throws IOException, InterruptedException {
            if (!alive()) {
                h.stop(running);
                start();
            }
            return running;
        }

        void stop() {
            h.stop(running);
        }
    }

    /**
     * One wrk run of class {@code c}: each component's CPU over the run, per request, counted in
     * {@code tally} unless {@code round} is the warm-up. A run after which a tier's process is gone
     * measured nothing trustworthy (its CPU went with it): it is dropped, said in a warning and in the
     * classes lost, and the tiers start again for the next.
     */
    private static void once(PeakHarness h, Wrk wrk, RequestClass c, Path script, int round, Tiers holder,
            OriginServer origin, Tally tally) throws IOException, InterruptedException {
        once(h, wrkClient(wrk, script, h.options().dir().resolve("wrk")), c, round, holder, origin, h.options().path(),
                tally);
    }

    private static void once(PeakHarness h, Client client, RequestClass c, int round, Tiers holder,
            OriginServer origin, String path, Tally tally) throws IOException, InterruptedException {
        Edge.Running tiers = holder.running();
        URI url = holder.url(path);
        Map<Component, List<Long>> processes = new EnumMap<>(Component.class);
        processes.put(Component.FRONT, tiers.frontPids());
        // The tiers' PIDs are front first, then back (Edge.Running#pids).
        processes.put(Component.BACK, List.of(tiers.pids().get(1)));
        processes.put(Component.ORIGIN, List.of(origin.pid()));
        if (!tiers.companionPids().isEmpty()) {
            processes.put(Component.REDIS, tiers.companionPids());
        }
        if (!holder.database().isEmpty()) {
            processes.put(Component.POSTGRESQL, holder.database());
        }
        Map<Component, Double> before = cpu(processes);
        long originBefore = h.originRequests();
        Counted<Completed> run;
        try {
            run = client.run(url, c.name().toLowerCase(Locale.ROOT) + "-" + round);
        } catch (IOException e) {
            if (holder.alive()) {
                throw e;
            }
            run = null;
        }
        Map<Component, Double> after = cpu(processes);
        if (run == null || !holder.survives(Duration.ofMillis(500))) {
            String why = h.options().product().displayName() + "'s tiers lost a process during the " + c + " run"
                    + " (a crash: its log is in the tier's folder)";
            h.warn(label(round) + ": " + why + "; started again");
            tally.lost().put(c, why);
            return;
        }
        long n = run.result().requests();
        if (n == 0) {
            throw new IOException(c + ": the client completed no request in round " + round);
        }
        long reached = h.originRequests() - originBefore;
        if (HITS.contains(c) && reached > n / 100) {
            h.warn(String.format(Locale.ROOT, "%s, %s: %d of %d requests reached the origin: they were not HITs",
                    label(round), c, reached, n));
        }
        boolean refused = c == RequestClass.REJECTION;
        double refusedShare = run.result().non2xxShare();
        if (refused ? refusedShare < 0.99 : refusedShare > 0.01) {
            h.warn(String.format(Locale.ROOT, "round %d, %s: %.1f %% of the responses were not 2xx/3xx", round, c,
                    refusedShare * 100));
        }
        if (round == 0) {
            return;
        }
        Map<Component, Double> micros = new EnumMap<>(Component.class);
        processes.keySet().forEach(component -> micros.put(component,
                (after.get(component) - before.get(component)) * 1e6 / n));
        micros.put(Component.LOAD_GENERATOR, run.cpuSeconds() * 1e6 / n);
        tally.rounds().computeIfAbsent(c, k -> new ArrayList<>()).add(micros);
        tally.rates().computeIfAbsent(c, k -> new ArrayList<>()).add(run.result().perSecond());
    }

    /** Each component's CPU seconds so far: its processes' trees added. */
    private static Map<Component, Double> cpu(Map<Component, List<Long>> processes) {
        Map<Component, Double> seconds = new EnumMap<>(Component.class);
        processes.forEach((component, pids) -> seconds.put(component, cpu(pids)));
        return seconds;
    }

    private static double cpu(List<Long> pids) {
        return pids.stream().mapToDouble(ProcCpu::treeSeconds).sum();
    }

    /** Where peak --demands writes a product's demands unless told: results/demands.json for nginx's. */
    public static String defaultFile(EdgeProduct product) {
        return "results/" + fileName(product);
    }

    /** demands.json for nginx's, demands-PRODUCT.json for another's. */
    public static String fileName(EdgeProduct product) {
        return product == EdgeProduct.DEFAULT ? "demands.json" : "demands-" + product + ".json";
    }

    /** The folder of the demands and instruction counts measured on this project's machine, which the docs quote. */
    public static final String COMMITTED = "results/example-capacity";

    /** A wrk script that sends every request with an Authorization header, which the front's cache passes by. */
    static Path bypassScript(Path file) throws IOException {
        Files.writeString(file, """
                -- An Authorization header: the front neither answers from nor stores into its cache.
                wrk.headers["Authorization"] = "Bearer peak-demands"
                """);
        return file;
    }

    /** demands.json: the machine, the load, and per class and component the median, least and most over the rounds. */
    public static void write(Outcome outcome, Path file) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("measured", Instant.now().toString());
        json.put("product", outcome.product().toString());
        json.put("machine", outcome.machine());
        json.put("load", Map.of("clients", "wrk (HIT, MISS, BYPASS, REJECTION, TLS_HIT, QUOTA_HIT, DATABASE); openssl s_time -new, one"
                + " connection at a time (TLS_HANDSHAKE); h2load (H2_HIT)", "connections", outcome.connections()));
        json.put("unit", "CPU microseconds per request");
        Map<String, Object> classes = new LinkedHashMap<>();
        for (Map.Entry<RequestClass, ClassDemands> e : outcome.demands().entrySet()) {
            Map<String, Object> components = new LinkedHashMap<>();
            for (Map.Entry<Component, Spread> d : e.getValue().byComponent().entrySet()) {
                components.put(d.getKey().name().toLowerCase(Locale.ROOT), spread(d.getValue()));
            }
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("meaning", e.getKey().meaning());
            one.put("demands", components);
            one.put("requestsPerSecond", spread(e.getValue().requestsPerSecond()));
            classes.put(e.getKey().name().toLowerCase(Locale.ROOT), one);
        }
        json.put("classes", classes);
        Map<String, String> missing = new LinkedHashMap<>();
        outcome.notMeasured().forEach((c, why) -> missing.put(c.name().toLowerCase(Locale.ROOT), why));
        json.put("notMeasured", missing);
        json.put("warnings", outcome.warnings());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }

    private static Map<String, Object> spread(Spread s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", round(s.median()));
        m.put("min", round(s.min()));
        m.put("max", round(s.max()));
        m.put("rounds", s.values().stream().map(ServiceDemands::round).toList());
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** The table: per class, each component's demand (median and range) and the rate wrk drove. */
    public static String table(Outcome outcome) {
        StringBuilder s = new StringBuilder("CPU microseconds per request (per connection for TLS_HANDSHAKE; median over"
                + " rounds, range), from /proc per process over each client run; the load generator's own share counted"
                + " apart.\n");
        List<Component> columns = java.util.Arrays.stream(Component.values()).filter(c -> outcome.demands().values()
                .stream().anyMatch(d -> d.byComponent().containsKey(c))).toList();
        s.append(String.format(Locale.ROOT, "%-13s", "class"));
        for (Component c : columns) {
            s.append(String.format(Locale.ROOT, " %20s", c.label()));
        }
        s.append(String.format(Locale.ROOT, " %10s %12s%n", "total", "requests/s"));
        for (Map.Entry<RequestClass, ClassDemands> e : outcome.demands().entrySet()) {
            s.append(String.format(Locale.ROOT, "%-13s", e.getKey()));
            for (Component c : columns) {
                Spread d = e.getValue().byComponent().get(c);
                s.append(String.format(Locale.ROOT, " %20s", d == null ? "-" : String.format(Locale.ROOT,
                        "%.1f (%.1f-%.1f)", d.median(), d.min(), d.max())));
            }
            s.append(String.format(Locale.ROOT, " %10.1f %12.0f%n", e.getValue().total(),
                    e.getValue().requestsPerSecond().median()));
        }
        outcome.notMeasured().forEach((c, why) -> s.append(String.format(Locale.ROOT, "%-13s not measured: %s%n", c, why)));
        return s.toString();
    }
}
