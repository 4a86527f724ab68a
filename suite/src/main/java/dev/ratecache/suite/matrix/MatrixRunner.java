package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.proc.Poll;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.suite.origin.OriginCounters;
import dev.ratecache.suite.origin.OriginDatabase;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.terminal.Terminal;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs cells one after another, each from a clean state: fresh Nginx processes with an empty
 * cache, the origin's counters reset, a fresh JMeter (so empty client caches). One origin serves
 * the whole matrix; it is restarted if it dies. A cell that fails is recorded with its reason and
 * the matrix goes on.
 */
public final class MatrixRunner {

    /**
     * Everything a matrix run needs; each cell knows its plan. {@code originArgs} go to the suite's
     * origin beside the profile's; {@code cellReport}, when not null, adds to each cell's folder;
     * {@code dashboards} false skips JMeter's dashboard and graphs of each cell (--no-dashboards);
     * {@code database} is the suite's own origin's database and pool.
     */
    public record Options(List<Cell> cells, Profile profile, int repeats, StackSwitches switches, StackPorts ports,
            int originThreads, Map<String, String> jmeterProperties, Path runDir, List<String> originArgs,
            CellReport cellReport, int redisPort, boolean dashboards, OriginDatabase database) {
        public Options(List<Cell> cells, Profile profile, int repeats, StackSwitches switches, StackPorts ports,
                int originThreads, Map<String, String> jmeterProperties, Path runDir, List<String> originArgs,
                CellReport cellReport, int redisPort, boolean dashboards) {
            this(cells, profile, repeats, switches, ports, originThreads, jmeterProperties, runDir, originArgs,
                    cellReport, redisPort, dashboards, OriginDatabase.defaults());
        }

        public Options(List<Cell> cells, Profile profile, int repeats, StackSwitches switches, StackPorts ports,
                int originThreads, Map<String, String> jmeterProperties, Path runDir, List<String> originArgs,
                CellReport cellReport, int redisPort) {
            this(cells, profile, repeats, switches, ports, originThreads, jmeterProperties, runDir, originArgs,
                    cellReport, redisPort, true);
        }

        public Options(List<Cell> cells, Profile profile, int repeats, StackSwitches switches, StackPorts ports,
                int originThreads, Map<String, String> jmeterProperties, Path runDir) {
            this(cells, profile, repeats, switches, ports, originThreads, jmeterProperties, runDir, List.of(), null, 0);
        }

        public Options(List<Cell> cells, Profile profile, int repeats, StackSwitches switches, StackPorts ports,
                int originThreads, Map<String, String> jmeterProperties, Path runDir, List<String> originArgs,
                CellReport cellReport) {
            this(cells, profile, repeats, switches, ports, originThreads, jmeterProperties, runDir, originArgs,
                    cellReport, 0);
        }
    }

    /**
     * What the whole run did; {@code jmeterSeconds} is the time spent inside JMeter runs;
     * {@code dashboards} whether JMeter's dashboard and graphs were drawn for each cell.
     */
    public record Outcome(List<CellResult> cells, double totalSeconds, double jmeterSeconds, double reportSeconds,
            boolean dashboards) {
        public Outcome(List<CellResult> cells, double totalSeconds, double jmeterSeconds, double reportSeconds) {
            this(cells, totalSeconds, jmeterSeconds, reportSeconds, true);
        }

        public double overheadPct() {
            return totalSeconds <= 0 ? 0 : 100.0 * (totalSeconds - jmeterSeconds) / totalSeconds;
        }

        public boolean anyFailed() {
            return cells.stream().anyMatch(CellResult::failed);
        }
    }

    private final Options options;
    private final Terminal terminal;
    private final PrintWriter out;
    private final Map<Generator, LoadGenerator> generators;
    /** The load hosts' JMeter servers a distributed run goes through; null: JMeter runs here. */
    private final JMeter.Remote remote;
    private final Dashboards dashboards;
    private final OriginLifecycle lifecycle;
    /** The run's time left, and when the running cell started: for the cell's live line. */
    private Estimate estimate;
    private long cellStarted;

    public MatrixRunner(Options options, PrintWriter out) {
        this(options, Terminal.plain(out), null);
    }

    /** A run whose JMeter cells go through the JMeter servers of {@code remote} (--load-hosts). */
    public MatrixRunner(Options options, Terminal terminal, JMeter.Remote remote) {
        this.options = options;
        this.terminal = terminal;
        this.out = terminal.out();
        this.remote = remote;
        JMeter jmeter = JMeter.assembled();
        this.generators = Map.of(Generator.JMETER, new JMeterGenerator(jmeter, remote), Generator.LIBRARY,
                new LibraryDriver(), Generator.WRK, new WrkGenerator(), Generator.BOMBARDIER, new BombardierGenerator());
        this.dashboards = new Dashboards(jmeter, options.dashboards(), out);
        this.lifecycle = new OriginLifecycle(options, out);
    }

    public Outcome run() throws IOException {
        long started = System.nanoTime();
        double jmeterSeconds = 0;
        List<CellResult> results = new ArrayList<>();
        estimate = new Estimate(options.cells(), options.profile(), options.repeats());
        try {
            for (int i = 0; i < options.cells().size(); i++) {
                Cell cell = options.cells().get(i);
                out.printf("%n[%d/%d] %s: %s%s%n", i + 1, options.cells().size(), cell.name(), cell.describe(),
                        estimate.remainingText());
                out.flush();
                cellStarted = System.nanoTime();
                CellResult result = runCell(cell);
                double cellSeconds = (System.nanoTime() - cellStarted) / 1e9;
                estimate.finished(cell, cellSeconds);
                jmeterSeconds += result.runs().stream().mapToDouble(CellMeasurement::wallSeconds).sum();
                results.add(result);
                terminal.println(result.failed() ? "  FAILED: " + result.failure() + " (see " + result.log() + ")"
                        : "  " + oneLine(result));
            }
            long drawStart = System.nanoTime();
            dashboards.awaitAll();
            double drawSeconds = (System.nanoTime() - drawStart) / 1e9;
            return new Outcome(results, (System.nanoTime() - started) / 1e9, jmeterSeconds, drawSeconds,
                    options.dashboards());
        } finally {
            dashboards.close();
            lifecycle.close();
        }
    }

    private CellResult runCell(Cell cell) {
        Path cellDir = options.runDir().resolve("cells").resolve(cell.folder());
        List<CellMeasurement> runs = new ArrayList<>();
        for (int run = 1; run <= options.repeats(); run++) {
            Path runDir = options.repeats() == 1 ? cellDir : cellDir.resolve("run-" + run);
            try {
                runs.add(measure(cell, runDir));
            } catch (CellFailure e) {
                return new CellResult(cell, runs, e.getMessage(), e.log(), cellDir, e.breakdowns());
            } catch (IOException | RuntimeException e) {
                return new CellResult(cell, runs, String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()),
                        runDir, cellDir);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new CellResult(cell, runs, "interrupted", runDir, cellDir);
            }
        }
        return new CellResult(cell, runs, null, cellDir, cellDir);
    }

    /**
     * One run of a cell: the origin ready, the tiers started around it, the generator run, then
     * every collector on what it left, and the completeness check.
     */
    private CellMeasurement measure(Cell cell, Path dir) throws IOException, InterruptedException, CellFailure {
        Files.createDirectories(dir);
        boolean ownOrigin = options.switches().origins().isEmpty();
        if (ownOrigin) {
            lifecycle.prepare(cell);
        }
        OriginServer origin = ownOrigin ? lifecycle.origin() : null;
        RedisServer redis = ownOrigin && cell.appCache() ? lifecycle.redis() : null;
        Map<String, String> props = properties(cell);

        Stack stack = null;
        try {
            List<OriginServer> origins = new ArrayList<>();
            StackSpec spec = hosts(cell, origin, switchesOf(cell, dir), origins).spec(options.ports());
            stack = cell.direct() ? null : tiers(cell, origin, spec, dir);
            aimAt(cell, stack, origin, props);
            TierCpu tierCpu = TierCpu.before(origins, redis, ownOrigin ? lifecycle.postgres() : null);
            Path clientDir = dir.resolve(cell.generator().folder());
            PoolSampler pool = ownOrigin && options.database().reported() ? PoolSampler.start(origin, tierCpu) : null;
            List<CellTrait.Beside> besides = besides(cell, stack, spec, dir, ownOrigin);
            Generated generated;
            try {
                for (CellTrait.Beside b : besides) {
                    b.beforeTraffic();
                }
                generated = generate(cell, props, clientDir, besides);
                for (CellTrait.Beside b : besides) {
                    b.afterTraffic(generated.client().firstStartMs(), generated.client().lastEndMs());
                }
            } finally {
                if (pool != null) {
                    pool.close();
                }
                besides.forEach(CellTrait.Beside::close);
            }
            LoadGenerator.Run run = generated.run();
            // A fault cell may have killed the origin or Redis and started another: the cell's are those running now.
            origin = ownOrigin ? lifecycle.origin() : null;
            redis = ownOrigin && cell.appCache() ? lifecycle.redis() : null;
            if (origin != null && besides.stream().anyMatch(CellTrait.Beside::restartedOrigin)) {
                probeTheNewOrigin(stack, props.get("path"), origin);
            }
            ClientSamples client = generated.client();
            TierCpu.Used cpu = tierCpu.after(stack, run.cpuSeconds());
            TierLogs logs = TierLogs.completed(stack, dir);
            // Per second, for index.html's over-time charts; none of a generator that kept no record per request.
            Timeline timeline = run.summarized() != null ? null : Timeline.of(client.samples(), logs.front(), logs.back());
            if (timeline != null && pool != null) {
                timeline = pool.addTo(timeline);
            }
            if (timeline != null) {
                timeline.write(dir.resolve("timeline.json"));
            }
            ReplayBreakdown replay = cellReport(cell, dir, client, logs);
            if (ownOrigin && !origin.healthy()) {
                throw new CellFailure("the origin died during the run", origin.log(),
                        CellMeasurement.Breakdowns.of(null, timeline, replay));
            }
            OriginCounters counters = ownOrigin ? origin.counters() : null;
            FleetFallbacks fallbacks = fleetFallbacks(cell, stack, logs);
            // Null figures (a cell that is no replay, shares no limit) are left out by Breakdowns.
            DatabaseFigures database = pool == null ? null : DatabaseFigures.of(counters, pool.activePeak(), options.database());
            List<KindFigures> figures = new ArrayList<>(java.util.Arrays.asList(replay, fallbacks, database));
            figures.addAll(traitFigures(cell, client, fallbacks, logs));
            if (!besides.isEmpty()) {
                CellTrait.Ran ran = new CellTrait.Ran(client.samples(), counters, redisLookups(redis));
                for (CellTrait.Beside b : besides) {
                    CellTrait.Figure f = b.figure(ran);
                    if (f != null) {
                        out.println("  " + f.terminalLine());
                        figures.add(f);
                    }
                }
            }
            CellMeasurement.Breakdowns breakdowns = new CellMeasurement.Breakdowns(
                    LoadHostSamples.count(client.samples(), remote, dir, out), timeline, figures);
            Optional<String> incomplete = Completeness.problem(client.summary().samples(),
                    Completeness.expected(cell, props, remote));
            if (incomplete.isPresent()) {
                throw new CellFailure(incomplete.get(), run.log(), breakdowns);
            }
            Optional<String> allFailed = Completeness.allFailed(client.summary());
            if (allFailed.isPresent()) {
                throw new CellFailure(allFailed.get(), run.log(), breakdowns);
            }
            Double edgeHits = EdgeHitShare.of(cell, logs);
            Double originPeak = OriginPeak.of(logs);
            JtlSummary admitted = client.admitted();
            if (run.jtl() != null) {
                dashboards.draw(run.jtl(), clientDir);
            }
            return new CellMeasurement(client.summary(),
                    counters != null ? (double) counters.total().requests() : null, edgeHits, cpu.cpu(),
                    run.wallSeconds(), originPeak, admitted,
                    AppCacheFigures.of(cell, counters, redis, cpu.redis(), client.samples(), out), generated.windowCpu(),
                    breakdowns);
        } finally {
            if (stack != null) {
                stack.close();
            }
        }
    }

    /** What the cell's redis-server counted (hits and misses); null without one, or when it does not answer. */
    private static Long redisLookups(RedisServer redis) {
        if (redis == null) {
            return null;
        }
        try {
            RedisServer.Stats stats = redis.stats();
            return stats.keyspaceHits() + stats.keyspaceMisses();
        } catch (IOException gone) {
            return null;
        }
    }

    /**
     * The cell's tiers, fresh, through its edge's adapter from the cell's stack spec (the command
     * asked the adapter's refusal before the run started), in the cell's folder.
     */
    private Stack tiers(Cell cell, OriginServer origin, StackSpec spec, Path dir) throws IOException {
        return Stack.aroundEdge(cell.edge().adapter(), spec, origin, options.ports(), dir);
    }

    /** The cell's switches; a tiers cell keyed by API key with its tiers file, written into its folder unless the user's. */
    private StackSwitches switchesOf(Cell cell, Path dir) throws IOException {
        StackSwitches s = cell.apply(options.switches());
        KeyedTraffic keys = cell.trait(KeyedTraffic.class);
        return keys == null || keys.limitKey().byAddress() ? s : s.tiers(keys.tiersFileIn(dir));
    }

    /**
     * The cell's switches with its origin hosts (a {@link Cell.OriginHosts} cell on the suite's own
     * origin): the first origin and the instances started beside it, which the back tier balances over.
     * Every instance of the suite's own, the first among them, is added to {@code instances}: the
     * origin's CPU is theirs together.
     */
    private StackSwitches hosts(Cell cell, OriginServer origin, StackSwitches switches, List<OriginServer> instances)
            throws IOException {
        if (origin != null) {
            instances.add(origin);
        }
        Cell.OriginHosts hosts = cell.trait(Cell.OriginHosts.class);
        if (origin == null || hosts == null || hosts.hosts() == 1) {
            return switches;
        }
        List<URI> uris = new ArrayList<>(List.of(origin.uri()));
        for (OriginServer o : lifecycle.more(hosts.hosts() - 1)) {
            uris.add(o.uri());
            instances.add(o);
        }
        return switches.origins(uris);
    }

    /** Points the generator at the cell's front end, or for a direct cell at the origin (ours, or the user's first). */
    private void aimAt(Cell cell, Stack stack, OriginServer origin, Map<String, String> props) {
        if (stack == null) {
            URI target = origin != null ? origin.uri() : options.switches().origins().get(0);
            props.put("host", target.getHost());
            props.put("port", String.valueOf(target.getPort()));
            return;
        }
        props.put("host", stack.frontUri().getHost());
        props.put("port", String.valueOf(options.ports().front()));
        // With --tls: https (JMeter speaks HTTP/1.1 over it, and accepts any certificate, as it always does).
        props.put("protocol", stack.frontUri().getScheme());
        stack.tls().ifPresent(tls -> props.put(LibraryDriver.TRUST_PROPERTY, tls.trust().toAbsolutePath().toString()));
        // A plan that warms JMeter's HTTP client up (replay.jmx) does it on a page that logs and limits nothing:
        // nginx's status page, or another product's tiers' way round, the suite's origin's health.
        if (stack.product().equals("nginx")) {
            props.putIfAbsent("warmup_url", "http://127.0.0.1:" + options.ports().frontStatus() + "/nginx_status");
        } else if (origin != null) {
            props.putIfAbsent("warmup_url", origin.management("/actuator/health").toString());
        }
    }

    /**
     * The flood can end before a restarted origin is ready (a busy machine starts its JVM slowly):
     * then nothing reached the new one, and whether the edge goes back to it by itself is unknown.
     * A few requests through the edge, each past its cache, tell; none are sent once the new origin
     * has counted one of the flood's.
     */
    private static void probeTheNewOrigin(Stack stack, String path, OriginServer origin) throws IOException {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        for (int i = 0; i < PROBES && origin.counters().total().requests() == 0; i++) {
            URI probe = stack.frontUri().resolve((path == null ? "/hare" : path) + "?fault-probe=" + i);
            try {
                http.send(java.net.http.HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(10)).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                // Counted or not, the origin's counter says; the next probe tries again.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            Poll.pause(PROBE_GAP_MS);
        }
    }

    private static final int PROBES = 5;
    /** Past the per-client limit's burst of the flood just ended, however small the limit. */
    private static final long PROBE_GAP_MS = 500;

    /** What the generator left: its run, its samples read once, and the CPU over the samples' window. */
    private record Generated(LoadGenerator.Run run, ClientSamples client, CellMeasurement.WindowCpu windowCpu) {}

    /**
     * What the cell's traits do beside its traffic (a fault at the tiers, slow clients at the edge),
     * set up and not yet started; none for most cells.
     */
    private List<CellTrait.Beside> besides(Cell cell, Stack stack, StackSpec spec, Path dir, boolean ownOrigin)
            throws IOException {
        CellTrait.Run run = new CellTrait.Run() {
            @Override
            public Cell cell() {
                return cell;
            }

            @Override
            public Stack stack() {
                return stack;
            }

            @Override
            public StackSpec spec() {
                return spec;
            }

            @Override
            public StackSwitches switches() throws IOException {
                return switchesOf(cell, dir);
            }

            @Override
            public StackPorts ports() {
                return options.ports();
            }

            @Override
            public CellTrait.Restarts restarts() {
                return ownOrigin ? lifecycle : null;
            }
        };
        List<CellTrait.Beside> besides = new ArrayList<>();
        try {
            for (CellTrait t : cell.traits()) {
                CellTrait.Beside b = t.beside(run);
                if (b != null) {
                    besides.add(b);
                }
            }
        } catch (IOException | RuntimeException e) {
            besides.forEach(CellTrait.Beside::close);
            throw e;
        }
        return besides;
    }

    private Generated generate(Cell cell, Map<String, String> props, Path clientDir, List<CellTrait.Beside> besides)
            throws IOException, InterruptedException, CellFailure {
        LoadGenerator generator = generators.get(cell.generator());
        try (CpuDuringRun during = CpuDuringRun.start()) {
            LoadGenerator.Run run;
            try (CellProgress progress = CellProgress.start(terminal, generator.output(clientDir),
                    estimate.cellGuess(cell), estimate.runGuess(), cellStarted)) {
                run = generator.run(cell, props, clientDir, pid -> {
                    during.generatorStarted(pid);
                    besides.forEach(CellTrait.Beside::trafficStarted);
                });
            }
            during.finished();
            ClientSamples client = run.summarized() != null ? ClientSamples.of(run.summarized())
                    : ClientSamples.read(run.jtl());
            return new Generated(run, client, during.over(client.firstStartMs(), client.lastEndMs()));
        }
    }

    /** As the cell's generator gets them: the plan's sizes, the cell's own, the user's -J values, its client cache. */
    private Map<String, String> properties(Cell cell) {
        Map<String, String> props = new LinkedHashMap<>(cell.plan().sizes(options.profile()));
        props.putAll(cell.properties());
        props.putAll(options.jmeterProperties());
        props.put("client_cache", String.valueOf(cell.clientCache()));
        return props;
    }

    /**
     * What the fleet's Redis said to the edges of a cell with --fleet-limit shared, of any matrix;
     * said on the terminal when most requests fell back. Null for other cells.
     */
    private FleetFallbacks fleetFallbacks(Cell cell, Stack stack, TierLogs logs) {
        if (stack == null) {
            return null;
        }
        FleetFallbacks f = FleetFallbacks.of(stack.spec(), logs.front());
        if (f != null && f.mostFellBack()) {
            terminal.println("  warning " + cell.name() + ": " + f.warning());
        }
        return f;
    }

    /** What the cell's traits collect of its run, each said on the terminal. */
    private List<CellTrait.Figure> traitFigures(Cell cell, ClientSamples client, FleetFallbacks fallbacks,
            TierLogs logs) {
        List<CellTrait.Figure> figures = new ArrayList<>();
        for (CellTrait t : cell.traits()) {
            CellTrait.Figure f = t.collect(cell, client.samples(), fallbacks, logs.front());
            if (f != null) {
                out.println("  " + f.terminalLine());
                figures.add(f);
            }
        }
        return figures;
    }

    /** What the kind of run adds to the cell's folder (a replay's breakdown), said on the terminal; null for none. */
    private ReplayBreakdown cellReport(Cell cell, Path dir, ClientSamples client, TierLogs logs)
            throws IOException {
        if (options.cellReport() == null) {
            return null;
        }
        ReplayBreakdown written = options.cellReport().write(cell, dir, client.samples(), logs.front(), logs.back());
        out.println("  " + written.terminalLine());
        return written;
    }

    /** The run's PostgreSQL, while one runs (--origin-db postgres): tests kill it mid-cell. */
    public dev.ratecache.proc.PostgresServer postgres() {
        return lifecycle.postgres();
    }

    /** The run's redis-server, while one runs: tests stop it mid-cell to see the origin go on without it. */
    public RedisServer redis() {
        return lifecycle.redis();
    }

    static String oneLine(CellResult r) {
        String line = String.format(java.util.Locale.ROOT,
                "%.1f responses/s, rejected %.1f %%, other errors %.1f %%, mean %.0f ms, p95 %.0f ms, origin requests %s",
                r.median(Metric.THROUGHPUT), r.median(Metric.REJECTED_PCT), r.median(Metric.OTHER_ERRORS_PCT),
                r.median(Metric.MEAN_MS), r.median(Metric.P95_MS),
                r.median(Metric.ORIGIN_REQUESTS) == null ? "n/a" : String.format("%.0f", r.median(Metric.ORIGIN_REQUESTS)));
        if (r.median(Metric.DATABASE_QUERIES) != null) {
            line += String.format(java.util.Locale.ROOT, ", database queries %.0f", r.median(Metric.DATABASE_QUERIES));
        }
        if (r.median(Metric.REDIS_HITS) != null) {
            line += String.format(java.util.Locale.ROOT, ", Redis hits %.0f, misses %.0f", r.median(Metric.REDIS_HITS),
                    r.median(Metric.REDIS_MISSES));
        }
        if (r.median(Metric.STALE_READS) != null) {
            line += String.format(java.util.Locale.ROOT, ", stale reads %.0f (%.2f %%, oldest %.0f ms)",
                    r.median(Metric.STALE_READS), r.median(Metric.STALE_PCT), r.median(Metric.STALE_OLDEST_MS));
        }
        DatabaseFigures database = r.runs().isEmpty() ? null
                : r.runs().get(0).breakdowns().figure(DatabaseFigures.class);
        if (database != null) {
            line += database.terminalText();
        }
        String failed = r.runs().stream().map(CellMeasurement::caches).filter(c -> c != null && c.cacheFailed())
                .findFirst().map(c -> "; APP CACHE FAILED: " + c.describeFailure())
                .orElse("");
        return line + failed;
    }

    /** Time left: a guess per cell, corrected by how the finished cells compared with their guesses. */
    static final class Estimate {
        private final List<Cell> left;
        private final Profile profile;
        private final int repeats;
        private double guessedDone;
        private double actualDone;

        Estimate(List<Cell> cells, Profile profile, int repeats) {
            this.left = new ArrayList<>(cells);
            this.profile = profile;
            this.repeats = repeats;
        }

        void finished(Cell cell, double seconds) {
            left.remove(cell);
            guessedDone += guess(cell);
            actualDone += seconds;
        }

        String remainingText() {
            return " (about " + CellProgress.minutes(runGuess().toSeconds()) + " left)";
        }

        /** The run's time left from the start of its next (or running) cell. */
        Duration runGuess() {
            return Duration.ofSeconds(Math.round(left.stream().mapToDouble(this::guess).sum() * factor()));
        }

        /** How long {@code cell} should take, whole. */
        Duration cellGuess(Cell cell) {
            return Duration.ofSeconds(Math.round(guess(cell) * factor()));
        }

        private double factor() {
            return guessedDone > 0 ? actualDone / guessedDone : 1;
        }

        /** Seconds, from the plan's estimate and this profile's sizes. */
        private double guess(Cell cell) {
            return cell.plan().estimate().seconds(cell) * profile.timeScale() * repeats + 3;
        }
    }
}
