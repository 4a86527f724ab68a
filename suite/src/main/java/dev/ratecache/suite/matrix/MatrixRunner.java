package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.jtl.StaleReads;
import dev.ratecache.suite.origin.OriginCounters;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.proc.ProcCpu;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs cells one after another, each from a clean state: fresh Nginx processes with an empty
 * cache, the origin's counters reset, a fresh JMeter (so empty client caches). One origin serves
 * the whole matrix; it is restarted if it dies. A cell that fails is recorded with its reason and
 * the matrix goes on.
 */
public final class MatrixRunner {

    /**
     * Everything a matrix run needs; each cell knows its plan. {@code originArgs} go to the suite's
     * origin beside the profile's; {@code cellReport}, when not null, adds to each cell's folder.
     */
    public record Options(List<Cell> cells, Profile profile, int repeats, NginxSwitches switches, StackPorts ports,
            int originThreads, Map<String, String> jmeterProperties, Path runDir, List<String> originArgs,
            CellReport cellReport, int redisPort) {
        public Options(List<Cell> cells, Profile profile, int repeats, NginxSwitches switches, StackPorts ports,
                int originThreads, Map<String, String> jmeterProperties, Path runDir) {
            this(cells, profile, repeats, switches, ports, originThreads, jmeterProperties, runDir, List.of(), null, 0);
        }

        public Options(List<Cell> cells, Profile profile, int repeats, NginxSwitches switches, StackPorts ports,
                int originThreads, Map<String, String> jmeterProperties, Path runDir, List<String> originArgs,
                CellReport cellReport) {
            this(cells, profile, repeats, switches, ports, originThreads, jmeterProperties, runDir, originArgs,
                    cellReport, 0);
        }
    }

    /** What the whole run did; {@code jmeterSeconds} is the time spent inside JMeter runs. */
    public record Outcome(List<CellResult> cells, double totalSeconds, double jmeterSeconds, double reportSeconds) {
        public double overheadPct() {
            return totalSeconds <= 0 ? 0 : 100.0 * (totalSeconds - jmeterSeconds) / totalSeconds;
        }

        public boolean anyFailed() {
            return cells.stream().anyMatch(CellResult::failed);
        }
    }

    private final Options options;
    private final PrintWriter out;
    private final JMeter jmeter = JMeter.assembled();
    private final Map<Generator, LoadGenerator> generators;
    /** The load hosts' JMeter servers a distributed run goes through; null: JMeter runs here. */
    private final JMeter.Remote remote;
    // Dashboards and graphs of a finished cell are drawn at low priority while the next cells run:
    // the runs mostly wait on the origin's delays, so two drawing threads keep pace on two cores.
    private final ExecutorService drawing = Executors.newFixedThreadPool(2);
    private final List<Future<?>> drawn = new ArrayList<>();
    private OriginServer origin;
    /** Whether the running origin was started with the Redis app cache. */
    private boolean originAppCache;
    /**
     * One redis-server for the whole run, started by the first cell with the app cache and emptied
     * (FLUSHALL, CONFIG RESETSTAT) before each such cell: a cold cache with zeroed counters, as a
     * fresh server per cell would give, without restarting the origin that holds its connection.
     */
    private RedisServer redis;
    private int redisPort;

    public MatrixRunner(Options options, PrintWriter out) {
        this(options, out, null);
    }

    /** A run whose JMeter cells go through the JMeter servers of {@code remote} (--load-hosts). */
    public MatrixRunner(Options options, PrintWriter out, JMeter.Remote remote) {
        this.options = options;
        this.out = out;
        this.remote = remote;
        this.generators = Map.of(Generator.JMETER, new JMeterGenerator(jmeter, remote), Generator.LIBRARY,
                new LibraryDriver());
    }

    public Outcome run() throws IOException {
        long started = System.nanoTime();
        double jmeterSeconds = 0;
        List<CellResult> results = new ArrayList<>();
        Estimate estimate = new Estimate(options.cells(), options.profile(), options.repeats());
        try {
            for (int i = 0; i < options.cells().size(); i++) {
                Cell cell = options.cells().get(i);
                out.printf("%n[%d/%d] %s: %s%s%n", i + 1, options.cells().size(), cell.name(), cell.describe(),
                        estimate.remainingText());
                out.flush();
                long cellStart = System.nanoTime();
                CellResult result = runCell(cell);
                double cellSeconds = (System.nanoTime() - cellStart) / 1e9;
                estimate.finished(cell, cellSeconds);
                jmeterSeconds += result.runs().stream().mapToDouble(CellMeasurement::wallSeconds).sum();
                results.add(result);
                out.println(result.failed() ? "  FAILED: " + result.failure() + " (see " + result.log() + ")"
                        : "  " + oneLine(result));
                out.flush();
            }
            long drawStart = System.nanoTime();
            awaitDrawing();
            double drawSeconds = (System.nanoTime() - drawStart) / 1e9;
            return new Outcome(results, (System.nanoTime() - started) / 1e9, jmeterSeconds, drawSeconds);
        } finally {
            drawing.shutdownNow();
            if (origin != null) {
                origin.close();
            }
            if (redis != null) {
                redis.close();
            }
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
                return new CellResult(cell, runs, e.getMessage(), e.log(), cellDir);
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

    private CellMeasurement measure(Cell cell, Path dir) throws IOException, InterruptedException, CellFailure {
        Files.createDirectories(dir);
        boolean ownOrigin = options.switches().origins().isEmpty();
        if (ownOrigin) {
            if (cell.appCache()) {
                ensureRedis();
            }
            ensureOrigin(cell.appCache());
            origin.reset();
            if (cell.appCache()) {
                redis.reset();
            }
        }
        Map<String, String> props = new LinkedHashMap<>(cell.plan().sizes(options.profile()));
        props.putAll(cell.properties());
        props.putAll(options.jmeterProperties());
        props.put("client_cache", String.valueOf(cell.clientCache()));

        Stack stack = null;
        try {
            if (cell.direct()) {
                URI target = ownOrigin ? origin.uri() : options.switches().origins().get(0);
                props.put("host", target.getHost());
                props.put("port", String.valueOf(target.getPort()));
            } else {
                stack = Stack.around(origin, cell.apply(options.switches()), options.ports(), dir);
                props.put("host", stack.frontUri().getHost());
                props.put("port", String.valueOf(options.ports().front()));
                // A plan that warms JMeter's HTTP client up (replay.jmx) does it on a page that logs and limits nothing.
                props.putIfAbsent("warmup_url", "http://127.0.0.1:" + options.ports().frontStatus() + "/nginx_status");
            }
            double originCpuBefore = ownOrigin ? ProcCpu.seconds(origin.pid()).orElse(0) : 0;
            double redisCpuBefore = ownOrigin && cell.appCache() ? redis.cpuSeconds().orElse(0) : 0;

            Path clientDir = dir.resolve(cell.generator().folder());
            LoadGenerator.Run run = generators.get(cell.generator()).run(cell, props, clientDir);
            // Read once: the summary, the admitted requests' latency and the stale reads all come from it.
            List<Sample> samples = Jtl.read(run.jtl());
            JtlSummary jtl = JtlSummary.of(samples);

            Double originCpu = ownOrigin ? ProcCpu.seconds(origin.pid()).orElse(0) - originCpuBefore : null;
            // Gone (stopped during the run): its CPU went with it.
            Double redisCpu = ownOrigin && cell.appCache() && redis.isRunning()
                    ? redis.cpuSeconds().orElse(redisCpuBefore) - redisCpuBefore : null;
            Double frontCpu = stack == null ? null : frontCpu(stack);
            Double backCpu = stack == null ? null : ProcCpu.treeSeconds(stack.backEnd().pid());
            if (stack != null) {
                // The tiers buffer their access logs (nginx/snippets/shared/logging.conf); stopping them writes out the rest.
                stack.close();
            }
            // Per second, for index.html's over-time charts.
            // With several edges, their logs merged in time order: the front end as a whole.
            Path frontLog = stack == null ? null : stack.fronts().size() == 1 ? stack.frontEnd().accessLog()
                    : EdgeLog.merged(stack.frontAccessLogs(), dir.resolve("nginx/edges-access.log"));
            Path backLog = stack == null ? null : stack.backEnd().accessLog();
            Timeline.of(run.jtl(), frontLog, backLog).write(dir.resolve("timeline.json"));
            if (options.cellReport() != null) {
                String note = options.cellReport().write(cell, dir, run.jtl(), frontLog, backLog);
                if (note != null) {
                    out.println("  " + note);
                }
            }
            if (ownOrigin && !origin.healthy()) {
                throw new CellFailure("the origin died during the run", origin.log());
            }
            OriginCounters counters = ownOrigin ? origin.counters() : null;
            Double originRequests = counters != null ? (double) counters.total().requests() : null;
            // Distributed, each load host runs the whole plan: JMeter's own mode, so the samples add up.
            long expected = cell.plan().expectedSamples(props) * (remote == null ? 1 : remote.hosts().size());
            if (remote != null) {
                Map<String, Long> perHost = dev.ratecache.suite.distributed.Probe.samplesPerHost(run.jtl(), remote.hosts());
                new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                        .writeValue(dir.resolve("load-hosts.json").toFile(), perHost);
                out.println("  samples per load host: " + perHost);
            }
            if (jtl.samples() == 0 || (expected > 0 && jtl.samples() != expected)) {
                throw new CellFailure("incomplete: the client recorded " + jtl.samples() + " samples"
                        + (expected > 0 ? " of " + expected : ""), run.log());
            }
            Double edgeHits = stack != null && cell.serverCache() ? EdgeLog.hitPct(stack.frontAccessLogs()) : null;
            OriginWindows.Peak peak = backLog == null ? null : OriginWindows.of(backLog).peak();
            List<Sample> admitted = samples.stream().filter(sample -> sample.success() && !sample.rejected()).toList();
            scheduleDrawing(run.jtl(), clientDir);
            return new CellMeasurement(jtl, originRequests, edgeHits,
                    new CellMeasurement.Cpu(frontCpu, backCpu, originCpu, run.cpuSeconds()), run.wallSeconds(),
                    // Boxed on both branches: a primitive one would unbox the direct cell's null and throw.
                    peak != null ? Double.valueOf(peak.count()) : backLog == null ? null : Double.valueOf(0),
                    admitted.isEmpty() ? null : JtlSummary.of(admitted), caches(cell, counters, redisCpu, samples));
        } finally {
            if (stack != null) {
                stack.close();
            }
        }
    }

    /** CPU seconds of the front end: every edge, and the balancer in front of several. */
    private static double frontCpu(Stack stack) {
        double sum = stack.fronts().stream().mapToDouble(f -> ProcCpu.treeSeconds(f.pid())).sum();
        return sum + stack.balancer().map(b -> ProcCpu.treeSeconds(b.pid())).orElse(0.0);
    }

    /**
     * What the caches behind the edge did in a cell on /items (the hotset plan, or any cell with the app
     * cache): null for other cells and for a user's origin, whose database and cache the suite can't see.
     */
    private CellMeasurement.Caches caches(Cell cell, OriginCounters counters, Double redisCpu, List<Sample> samples) {
        boolean items = cell.plan().name().equals(Plan.HOTSET.name()) && cell.plan().userFile() == null;
        if (counters == null || counters.items() == null || !(items || cell.appCache())) {
            return null;
        }
        Double hits = null;
        Double misses = null;
        if (cell.appCache()) {
            try {
                RedisServer.Stats stats = redis.stats();
                hits = (double) stats.keyspaceHits();
                misses = (double) stats.keyspaceMisses();
            } catch (IOException gone) {
                // Redis stopped during the cell: its counters went with it; the origin's errors say what happened.
                out.println("  note: redis-server did not answer INFO stats after the run (" + gone.getMessage() + ")");
            }
        }
        OriginCounters.AppCache app = counters.items().appCache();
        return new CellMeasurement.Caches(hits, misses, (double) counters.items().database().queries(),
                cell.appCache() && app != null ? (double) app.errors() : null,
                app != null && app.errors() > 0 ? app.lastError() : null, redisCpu,
                items ? StaleReads.of(samples) : null);
    }

    /** Starts the run's redis-server, or starts it again (on its port, which the origin connects to) if it stopped. */
    private void ensureRedis() throws IOException {
        if (redis != null && redis.isRunning() && redis.answersPing()) {
            return;
        }
        if (redis != null) {
            redis.close();
            out.println("  (re)starting redis-server: it stopped during an earlier cell");
        }
        redis = RedisServer.start(options.runDir().resolve("redis"), redisPort != 0 ? redisPort : options.redisPort());
        redisPort = redis.port();
    }

    /** The run's redis-server, while one runs: tests stop it mid-cell to see the origin go on without it. */
    public RedisServer redis() {
        return redis;
    }

    private void ensureOrigin(boolean appCache) throws IOException {
        if (origin != null && origin.isRunning() && origin.healthy() && originAppCache == appCache) {
            return;
        }
        if (origin != null) {
            origin.close();
            out.println(originAppCache != appCache ? "  restarting the origin with its app cache " + (appCache ? "on" : "off")
                    : "  (re)starting the origin");
        }
        List<String> args = new ArrayList<>(options.profile().originArgs());
        args.addAll(options.originArgs());
        if (appCache) {
            args.addAll(redis.originArgs());
        }
        originAppCache = appCache;
        origin = OriginServer.start(options.ports().origin(), options.ports().management(), options.originThreads(),
                options.runDir().resolve("origin.log"), args);
    }

    /** JMeter's dashboard and graphs of a JTL, whichever generator wrote it. */
    private void scheduleDrawing(Path jtl, Path clientDir) {
        drawn.add(drawing.submit(() -> {
            try {
                jmeter.dashboard(jtl, clientDir.resolve("dashboard"));
                jmeter.graphs(jtl, clientDir.resolve("graphs"));
            } catch (IOException e) {
                out.println("  note: drawing " + clientDir + " failed: " + e.getMessage().lines().findFirst().orElse(""));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }));
    }

    private void awaitDrawing() {
        for (Future<?> f : drawn) {
            try {
                f.get();
            } catch (Exception e) {
                out.println("  note: a dashboard was not drawn: " + e.getMessage());
            }
        }
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
            double guessed = left.stream().mapToDouble(this::guess).sum();
            double factor = guessedDone > 0 ? actualDone / guessedDone : 1;
            Duration d = Duration.ofSeconds(Math.round(guessed * factor));
            return String.format(" (about %dm%02ds left)", d.toMinutes(), d.toSecondsPart());
        }

        /** Seconds, from the plan's estimate and this profile's sizes. */
        private double guess(Cell cell) {
            return cell.plan().estimate().seconds(cell) * profile.timeScale() * repeats + 3;
        }
    }
}
