package dev.ratecache.suite.cli;

import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.peak.AppCacheComparison;
import dev.ratecache.suite.peak.EdgePeak;
import dev.ratecache.suite.peak.Figure;
import dev.ratecache.suite.peak.H2load;
import dev.ratecache.suite.peak.HitBreakdown;
import dev.ratecache.suite.peak.HitInstructions;
import dev.ratecache.suite.peak.PeakOptions;
import dev.ratecache.suite.peak.PeakRun;
import dev.ratecache.suite.peak.QuotaKeys;
import dev.ratecache.suite.peak.RunningStackPeak;
import dev.ratecache.suite.peak.ServiceDemands;
import dev.ratecache.suite.peak.STime;
import dev.ratecache.suite.peak.TlsPeak;
import dev.ratecache.suite.peak.Wrk;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.report.Machine;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.WholeNumber;
import dev.ratecache.suite.terminal.Terminal;
import dev.ratecache.suite.up.UpState;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * A benchmark, not a test: the tiers' peak throughput on each path as a ratio to nginx's own
 * {@code return 200} of a body of the same size, measured with wrk in the same run.
 */
@Command(name = "peak", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        abbreviateSynopsis = true,
        description = {
            "Measure peak throughput with wrk: the edge cache's HIT path, the MISS path to the origin and the"
                    + " rejection path, each as a ratio to nginx's `return 200` of a body of the same size (the"
                    + " ceiling), measured in the same run. HIT and MISS run with the limits present but not"
                    + " binding; the rejection path with a front limit of 1 r/s. Each other product's bare cache (its"
                    + " least caching config, as --edge sets it beside its full edge), where its binary is installed,"
                    + " in front of the same back tier is measured beside the edge's HIT path. With --quota:"
                    + " HIT and MISS also with the quota counted in Redis, its window and mode as given and its N raised"
                    + " so that none is rejected, and what the call adds. With --edge"
                    + " another product: that product's full edge against its bare form on the HIT path instead (on"
                    + " the proxied path for Traefik, which has no cache, with the ceiling as their origin).",
            "",
            "  ./run-tests.sh peak                        5 s per path, 50 connections, 1 worker",
            "  ./run-tests.sh peak --rounds 3 --workers 2",
            "  ./run-tests.sh peak --origin http://127.0.0.1:9000 --url /items/1",
            "  ./run-tests.sh peak --app-path /items/1      the edge cache against the app's Redis cache",
            "  ./run-tests.sh peak --breakdown --rounds 3   what each feature of the front costs on the HIT path",
            "  ./run-tests.sh peak --demands --rounds 3     the CPU each request class costs each component, to demands.json",
            "  ./run-tests.sh peak --instructions           the front's instructions per HIT against the bare cache's (callgrind)",
            "  ./run-tests.sh peak --instructions --edge haproxy  the same for HAProxy's full front and bare cache",
            "  ./run-tests.sh peak --tls --rounds 3         the HIT path over TLS: keep-alive, a handshake per request, HTTP/2",
            "  ./run-tests.sh peak --edge haproxy --rounds 5  HAProxy's full edge against its bare cache (the bar: 0.95)",
            "  ./run-tests.sh peak --edge varnish --rounds 5  Varnish's full edge against its bare VCL",
            "  ./run-tests.sh peak --quota 1000/d --fleet     what the quota's and the shared limit's Redis calls add",
            "  ./run-tests.sh peak --quota-keys 1000000       a million clients' quota counters in Redis, until they expire",
            ""})
public final class PeakCommand implements Callable<Integer>, WholeNumber.Flags {
    /** --quota-keys' most: each key an address of 10.0.0.0/8, which holds 16,777,216. */
    static final int QUOTA_KEYS_MAX = 10_000_000;
    private static final Map<String, WholeNumber> WHOLE_NUMBERS = WholeNumber.byFlag(
            WholeNumber.of("--duration", 1, 3600), WholeNumber.of("--connections", 1, 10_000),
            WholeNumber.of("--threads", 1, 64), WholeNumber.of("--rounds", 1, 100), WholeNumber.of("--streams", 1, 1000),
            WholeNumber.of("--quota-keys", 1, QUOTA_KEYS_MAX));

    /** --quota-keys' quota without --quota: a short window, so the counters expire within the run. */
    static final String QUOTA_KEYS_QUOTA = "1000/10s";
    /** --quota-keys waits for its counters to expire: up to two windows and a second, in a sliding window. */
    static final long QUOTA_KEYS_WINDOW_MAX = 60;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    OwnConfigOptions ownConfig = new OwnConfigOptions();

    @Mixin
    StackSwitches switches = new StackSwitches();

    @Option(names = "--duration", paramLabel = "SECONDS", description = "How long wrk pushes each path. Default: ${DEFAULT-VALUE}.")
    int duration = 5;

    @Option(names = "--connections", paramLabel = "N", description = "wrk's open connections (-c). Default: ${DEFAULT-VALUE}.")
    int connections = 50;

    @Option(names = "--threads", paramLabel = "N", description = "wrk's threads (-t). Default: ${DEFAULT-VALUE}.")
    int threads = 1;

    @Option(names = "--rounds", paramLabel = "N",
            description = "Measure every path N times, each round against its own ceiling; prints the median ratio and the range. Default: ${DEFAULT-VALUE}.")
    int rounds = 1;

    @Option(names = "--url", paramLabel = "PATH",
            description = "The path to warm and hit. Default: /peak, which the suite's origin serves here with no delay and a day's freshness;"
                    + " with --origin, give a cacheable path of yours.")
    String url;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the tiers' prefixes (logs, cache) and wrk's output go, e.g. a tmpfs such as /dev/shm. Default: a new folder in the system's temp folder.")
    Path workDir;

    @Option(names = "--app-path", paramLabel = "PATH",
            description = "Instead of the paths above: one hot item of the suite's origin (e.g. /items/1) served by the"
                    + " edge cache (HIT) against served by the origin from its Redis app cache, with wrk -t2 -c10 as in"
                    + " the write-up whose 428 against 170 requests/s are printed beside ours, as context.")
    String appPath;

    /** The last app-cache comparison's figures, for tests. */
    private AppCacheComparison.Outcome appOutcome;

    /** The last run's figures, for tests. */
    private PeakRun.Outcome outcome;

    @Option(names = "--fleet",
            description = "Also measure what --fleet-limit shared's Redis round trip adds: the MISS and rejection paths"
                    + " through the balancer and two edges, the per-client limit split between them and then shared in"
                    + " Redis (the suite's own redis-server).")
    boolean fleet;

    @Option(names = "--quota-keys", paramLabel = "N",
            description = "Instead of the paths above: N clients' quota counters in the suite's own redis-server, one"
                    + " request each through the edge's script (nginx/lua/quota_window.lua by EVALSHA, pipelined), then"
                    + " Redis's used_memory and DBSIZE before, with the N keys, and once they have expired, and the bytes"
                    + " per active key. The window and mode are --quota's and --quota-window's (a window of "
                    + QUOTA_KEYS_WINDOW_MAX + " s at most; without --quota, " + QUOTA_KEYS_QUOTA + " sliding).")
    Integer quotaKeys;

    /** The last --quota-keys run's figures, for tests. */
    private QuotaKeys.Outcome quotaKeysOutcome;

    /** The figures of the last --quota-keys run; null before one. */
    public QuotaKeys.Outcome quotaKeysOutcome() {
        return quotaKeysOutcome;
    }

    @Option(names = "--breakdown",
            description = "Instead of the paths above: the price of each feature of the front tier on the HIT path."
                    + " A bare proxy_cache (the production front with every feature taken out and its log off), then the"
                    + " production front with the limits, the access log, the security headers, Age (native, and njs"
                    + " beside it), the write-invalidation routing, PURGE, the compression settings, the request limits and the"
                    + " internal paths added one at a time, each as"
                    + " requests/s and nginx CPU per HIT relative to the bare cache in the same round.")
    boolean breakdown;

    @Option(names = "--demands",
            description = "Instead of the paths above: the service demands, the CPU each request class (HIT, MISS, BYPASS,"
                    + " REJECTION, TLS_HIT, TLS_HANDSHAKE, H2_HIT, QUOTA_HIT, DATABASE) costs each component (front, back,"
                    + " origin, Redis, PostgreSQL, the client itself), in microseconds a request, from /proc per process over"
                    + " each client run, with the spread over --rounds; written to demands.json with the machine's"
                    + " description, for advise --sizing and the model's predictions.")
    boolean demands;

    @Option(names = "--demands-file", paramLabel = "FILE",
            description = "With --demands: where to write them. Default: results/demands.json, or results/demands-PRODUCT.json"
                    + " with --edge.")
    Path demandsFile;

    /** The last --demands run's figures, for tests. */
    private ServiceDemands.Outcome demandsOutcome;

    /** The figures of the last --demands run; null before one. */
    public ServiceDemands.Outcome demandsOutcome() {
        return demandsOutcome;
    }

    @Option(names = "--instructions",
            description = "Instead of the paths above: the front's user-space instructions per HIT, counted by valgrind's"
                    + " callgrind (a run of " + HitInstructions.MANY + " HITs less a run of " + HitInstructions.FEW
                    + ", one nginx process each), for the bare"
                    + " proxy_cache and the production front, or with --breakdown for every step, or with --edge haproxy"
                    + " for HAProxy's bare cache and full front (one thread each); a count that does not depend on the"
                    + " machine's load, with the bound the test command holds the front to.")
    boolean instructions;

    @Option(names = "--instructions-file", paramLabel = "FILE",
            description = "With --instructions: also write the counts to FILE as JSON (docs/capacity.md quotes"
                    + " results/instructions.json).")
    Path instructionsFile;

    /** The last --instructions run's counts, for tests. */
    private HitInstructions.Outcome instructionsOutcome;

    /** The counts of the last --instructions run; null before one. */
    public HitInstructions.Outcome instructionsOutcome() {
        return instructionsOutcome;
    }

    @Option(names = "--streams", paramLabel = "M",
            description = "With --tls: h2load's requests in flight on each HTTP/2 connection (-m); its connections (-c)"
                    + " are --connections over M, so as many requests are in flight as wrk's. Default: ${DEFAULT-VALUE}.")
    int streams = 10;

    /** The last --tls run's figures, for tests. */
    private TlsPeak.Outcome tlsOutcome;

    /** The figures of the last --tls run; null before one. */
    public TlsPeak.Outcome tlsOutcome() {
        return tlsOutcome;
    }

    /** The last breakdown's figures, for tests. */
    private HitBreakdown.Outcome breakdownOutcome;

    public HitBreakdown.Outcome breakdownOutcome() {
        return breakdownOutcome;
    }

    @Option(names = "--edge", paramLabel = "PRODUCT",
            description = "Whose edge (${COMPLETION-CANDIDATES}): nginx (the paths above), or another product's full edge"
                    + " (both tiers from its folder, limits present but not binding, cache on) against its bare form (its"
                    + " least caching config, in front of the same back tier) on the HIT path, each against the ceiling,"
                    + " and whether the full edge keeps 0.95 of its bare form's rate. Default: ${DEFAULT-VALUE}.")
    EdgeProduct edge = EdgeProduct.DEFAULT;

    /** The last --edge run's figures, for tests. */
    private EdgePeak.Outcome edgeOutcome;

    /** The figures of the last --edge haproxy|varnish run; null before one. */
    public EdgePeak.Outcome edgeOutcome() {
        return edgeOutcome;
    }

    @Option(names = "--results", paramLabel = "DIR",
            description = "Where a running ./run-tests.sh up keeps its state (as given to up). Default: results/ in the checkout.")
    Path results;

    @Mixin
    DryRun dryRun = new DryRun();

    @Override
    public Integer call() throws Exception {
        if (quotaKeys != null) {
            // Redis alone, on a port of its own: a running up is no competitor for what it measures.
            return measureQuotaKeys();
        }
        // With a stack that up keeps running, peak points at it: that stack as configured, against
        // the ceiling. Its own tiers (limits not binding) would compete with it for the cores.
        Optional<UpState> up = UpState.running(RunFolders.results(results));
        if (up.isPresent() && (switches.tls() || againstBareForm() || quotaGiven())) {
            String own = switches.tls() ? "--tls" : againstBareForm() ? "--edge " + edge : "--quota";
            Refuse.ifAny(spec, List.of(own + " starts its own tiers, which would compete with the running up ("
                    + up.get().describe() + ") for the cores: stop it with ./run-tests.sh down"));
        }
        if (up.isPresent()) {
            return dryRun.on ? dryRun.report(spec.commandLine().getOut(), List.of("peak against the running up ("
                    + up.get().describe() + ")")) : measureRunning(up.get());
        }
        validate();
        checkMachine();
        if (dryRun.on) {
            return dryRun.report(spec.commandLine().getOut(), List.of("peak of the " + edge + " edge"
                    + (switches.tls() ? " over TLS" : instructions ? ", in instructions per HIT" : demands ? ", its service demands" : breakdown ? ", feature by feature" : appPath != null
                    ? " against the app cache on " + appPath : "") + ", " + rounds + " round(s) of " + duration + " s"));
        }
        PrintWriter out = spec.commandLine().getOut();
        // One worker unless told otherwise: wrk needs a core of its own for the figures to mean anything.
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        String workers = parsed.hasMatchedOption("--workers") ? parsed.matchedOptionValue("--workers", "1") : "1";
        switches.workers(workers);
        Wrk.Load load = new Wrk.Load(Duration.ofSeconds(duration), connections, threads);
        Path dir = workDir != null ? Files.createDirectories(workDir).resolve("peak-" + System.currentTimeMillis())
                // Readable by all: nginx's workers run as another user when the suite runs as root.
                : Files.createTempDirectory("ratecache-peak-", PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwxr-xr-x")));
        boolean ownOrigin = switches.origins().isEmpty();
        String path = url != null ? url : switches.ownFront().map(own -> own.paths().get(0).path()).orElse("/peak");
        List<String> originArgs = ownOrigin
                ? List.of("--origin.endpoints.peak.delay=0ms", "--origin.endpoints.peak.max-age=86400") : null;
        if (ownOrigin && switches.ownFront().isPresent()) {
            // Your config's paths answered as /peak is: no delay, a day's freshness.
            originArgs = new ArrayList<>(originArgs);
            originArgs.addAll(OwnConfigOrigin.args(switches.ownFront().get(),
                    List.of(new dev.ratecache.suite.origin.Endpoint("hare", Duration.ZERO, Duration.ofDays(1)),
                            new dev.ratecache.suite.origin.Endpoint("tortoise", Duration.ZERO, Duration.ofDays(1)),
                            new dev.ratecache.suite.origin.Endpoint("snail", Duration.ZERO, Duration.ofDays(1))), dir));
        }
        if (appPath != null) {
            out.println("machine:  " + Machine.oneLine(NginxServer.version()));
            try {
                appOutcome = AppCacheComparison.run(switches, ports, appPath, Duration.ofSeconds(duration), dir, out);
            } catch (IOException e) {
                return failed(e, dir);
            }
            return printed(appOutcome.table(), List.of(), dir);
        }
        PeakOptions options = new PeakOptions(switches, workers, ports, load, rounds, path, originArgs,
                Math.max(10, connections), dir, streams, fleet, switches.quota().orElse(null), edge);
        String from = ownOrigin ? " from the suite's origin (no delay)" : " from " + switches.origins();
        if (demands) {
            out.println("machine:  " + Machine.oneLine(NginxServer.version()));
            out.println("load:     " + load.describe() + " per class, " + rounds + " round(s); nginx workers " + workers
                    + "; GET " + path + from);
            out.println("folder:   " + dir);
            out.flush();
            try {
                demandsOutcome = ServiceDemands.run(options, Machine.describe(NginxServer.version()), out);
                Path file = demandsFile != null ? demandsFile : Repo.root().resolve(ServiceDemands.defaultFile(edge));
                ServiceDemands.write(demandsOutcome, file);
                out.println("written:  " + file);
            } catch (IOException e) {
                return failed(e, dir);
            }
            return printed(ServiceDemands.table(demandsOutcome), demandsOutcome.warnings(), dir);
        }
        if (instructions) {
            boolean other = againstBareForm();
            String version = other ? edge.adapter().version() : NginxServer.version();
            out.println("machine:  " + Machine.oneLine(version));
            out.println("count:    " + (other ? edge.displayName() + "'s bare form and full front, one thread each"
                    : breakdown ? "every step of the breakdown" : "the bare proxy_cache and the production front")
                    + " under valgrind --tool=callgrind, one " + (other ? edge.displayName() : "nginx") + " process each; GET "
                    + path + from);
            out.println("folder:   " + dir);
            out.flush();
            try {
                instructionsOutcome = other ? HitInstructions.runEdge(options, out) : HitInstructions.run(options, breakdown, out);
                if (instructionsFile != null) {
                    java.util.Map<String, String> machine = new java.util.LinkedHashMap<>(Machine.describe(NginxServer.version()));
                    if (other) {
                        machine.put(edge.toString(), version);
                    }
                    HitInstructions.write(instructionsOutcome, machine, instructionsFile);
                    out.println("written:  " + instructionsFile);
                }
            } catch (IOException e) {
                return failed(e, dir);
            }
            return printed(HitInstructions.table(instructionsOutcome), instructionsOutcome.warnings(), dir);
        }
        if (againstBareForm()) {
            return measureEdge(out, options, from);
        }
        if (switches.tls()) {
            return measureTls(out, options, from);
        }
        if (breakdown) {
            out.println("machine:  " + Machine.oneLine(NginxServer.version()));
            out.println("load:     " + load.describe() + " per step, " + rounds + " round(s); nginx workers " + workers
                    + "; GET " + path + from);
            out.println("folder:   " + dir);
            out.flush();
            try {
                breakdownOutcome = HitBreakdown.run(options, out);
            } catch (IOException e) {
                return failed(e, dir);
            }
            return printed(HitBreakdown.table(breakdownOutcome), breakdownOutcome.warnings(), dir);
        }
        out.println("machine:  " + Machine.oneLine(NginxServer.version()));
        out.println("load:     " + load.describe() + " per path, " + rounds + " round(s); nginx workers " + workers
                + "; GET " + path + from);
        out.println("switches: " + switches.describe() + " (HIT and MISS: limits at " + 100_000
                + " r/s, not binding" + (switches.quota().isPresent() ? ", no quota" : "")
                + "; rejection: front limit 1 r/s)");
        switches.quota().ifPresent(q -> out.println("quota:    HIT and MISS in the same rounds through tiers of their own with a"
                + " quota of " + PeakRun.openQuota(q).flag() + " " + q.window() + " counted in the suite's redis-server:"
                + " --quota's window and mode, its N raised so that no request is rejected (the script does the same"
                + " work for any N while it admits)"));
        out.println("folder:   " + dir);
        out.flush();
        try {
            outcome = PeakRun.run(options, out);
        } catch (IOException e) {
            spec.commandLine().getErr().println("run-tests.sh peak: " + e.getMessage() + " (logs in " + dir + ")");
            return 1;
        }
        return printed(table(outcome), outcome.warnings(), dir);
    }

    /** --quota-keys: the quota's counters of N clients in Redis, before, loaded and once expired. */
    private int measureQuotaKeys() throws IOException {
        validate();
        List<String> missing = new ArrayList<>();
        RedisServer.notInstalled().ifPresent(missing::add);
        if (workDir != null) {
            dev.ratecache.suite.nginx.WorkerAccess.problem(workDir, "--work-dir").ifPresent(missing::add);
        }
        Refuse.ifAny(spec, missing);
        Quota quota = quotaKeysQuota();
        if (dryRun.on) {
            return dryRun.report(spec.commandLine().getOut(), List.of("peak --quota-keys: " + quotaKeys
                    + " quota counters (" + quota.flag() + " " + quota.window() + ") in the suite's redis-server"));
        }
        PrintWriter out = spec.commandLine().getOut();
        Path dir = workDir != null ? Files.createDirectories(workDir).resolve("peak-" + System.currentTimeMillis())
                : Files.createTempDirectory("ratecache-peak-");
        out.println("machine:  " + Machine.oneLine(NginxServer.version()));
        out.println("quota:    " + quota.flag() + " " + quota.window() + ", one request for each of " + quotaKeys
                + " clients, so each key's counter is 1 and its first request admitted");
        out.println("keys:     " + QuotaKeys.key(0) + ":START to "
                + QuotaKeys.key(quotaKeys - 1) + ":START, as the edge keys its clients by"
                + " address, through " + QuotaKeys.SCRIPT + " by EVALSHA");
        out.println("folder:   " + dir);
        out.flush();
        try {
            quotaKeysOutcome = QuotaKeys.run(
                    new QuotaKeys.Options(quotaKeys, quota, dir), out);
        } catch (IOException e) {
            return failed(e, dir);
        }
        out.println("redis:    " + quotaKeysOutcome.redisVersion() + ", the suite's own redis-server (no persistence)");
        return printed(QuotaKeys.table(quotaKeysOutcome), quotaKeysOutcome.warnings(), dir);
    }

    /** The quota whose counters --quota-keys loads: --quota's, or {@link #QUOTA_KEYS_QUOTA} sliding. */
    private Quota quotaKeysQuota() {
        return switches.quota().orElseGet(() -> Quota.parse(QUOTA_KEYS_QUOTA,
                Quota.Window.SLIDING));
    }

    /** --tls: the HIT path over TLS, each way a client may come, against the ceiling over the same TLS. */
    private int measureTls(PrintWriter out, PeakOptions options, String from) throws InterruptedException {
        Wrk.Load load = options.load();
        out.println("machine:  " + Machine.oneLine(NginxServer.version()));
        out.println("load:     " + load.describe() + " per row and " + load.duration().toSeconds() + " s of s_time and"
                + " h2load, " + rounds + " round(s); nginx workers " + options.workers() + "; GET " + options.path()
                + from);
        out.println("switches: " + switches.describe() + " (limits at " + 100_000 + " r/s, not binding)");
        out.println("folder:   " + options.dir());
        out.flush();
        try {
            tlsOutcome = TlsPeak.run(options, out);
        } catch (IOException e) {
            return failed(e, options.dir());
        }
        return printed(TlsPeak.table(tlsOutcome), tlsOutcome.warnings(), options.dir());
    }

    /**
     * --edge with a product that has a bare form: its full edge against its bare form on the HIT path
     * (the proxied path for a product without a cache), against the ceiling.
     */
    private int measureEdge(PrintWriter out, PeakOptions options, String from) throws IOException, InterruptedException {
        Edge product = edge.adapter();
        out.println("machine:  " + Machine.oneLine(NginxServer.version()) + "; " + product.version());
        out.println("load:     " + options.load().describe() + " per path, " + rounds + " round(s); the ceiling nginx"
                + " with " + options.workers() + " worker(s), " + edge.displayName() + " with its own default threads in"
                + " both forms; GET " + options.path() + from);
        out.println("switches: " + PeakRun.open(switches).describe() + " (not binding)");
        out.println("full:     " + edge + "/'s two tiers from these switches, as render --edge " + edge + " writes them");
        out.println("bare:     " + product.bareForm().orElseThrow().describe() + ", in front of the same back tier");
        out.println("folder:   " + options.dir());
        out.flush();
        try {
            edgeOutcome = EdgePeak.run(options, out);
        } catch (IOException e) {
            return failed(e, options.dir());
        }
        // peak's bars are read, not enforced: BELOW is said with its figure and the exit code stays 0.
        return printed(EdgePeak.table(edgeOutcome), edgeOutcome.warnings(), options.dir());
    }

    /**
     * Whether peak measures --edge's product against its bare form rather than by its paths: every
     * product but nginx, whose front --breakdown takes apart instead.
     */
    private boolean againstBareForm() {
        return edge.adapter().bareForm().isPresent();
    }

    /** A measurement that finished: its table, a line for each doubt about it, its folder gone; exit code 0. */
    private int printed(String table, List<String> warnings, Path dir) {
        PrintWriter out = spec.commandLine().getOut();
        out.println();
        out.print(Terminal.of(out, false).highlight(table));
        out.flush();
        warnings.forEach(w -> spec.commandLine().getErr().println("run-tests.sh peak: warning: " + w));
        RunFolders.deleteQuietly(dir);
        return 0;
    }

    /** The figures of the last run against a running up stack, for tests. */
    private RunningStackPeak.Outcome runningOutcome;

    public RunningStackPeak.Outcome runningOutcome() {
        return runningOutcome;
    }

    private int measureRunning(UpState up) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<String> front = up.url("front");
        if (front.isEmpty()) {
            err.println("run-tests.sh peak: the running up (" + up.describe() + ") names no front URL; stop it with"
                    + " ./run-tests.sh down and run peak on its own");
            return 1;
        }
        if (!Wrk.installed()) {
            err.println("run-tests.sh peak: wrk is not installed (" + Wrk.binary() + "): sudo apt-get install -y wrk");
            return 2;
        }
        String path = url != null ? url : "/snail";
        long frontPid = up.children().stream().filter(c -> c.name().equals("front")).mapToLong(UpState.Child::pid)
                .findFirst().orElse(-1);
        Wrk.Load load = new Wrk.Load(Duration.ofSeconds(duration), connections, threads);
        Path dir = Files.createTempDirectory("ratecache-peak-", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        out.println("machine:  " + Machine.oneLine(NginxServer.version()));
        out.println("stack:    the running up (" + up.describe() + "), as it is configured: its limits apply");
        out.println("load:     " + load.describe() + ", " + rounds + " round(s); GET " + path
                + " (--url to choose; a path its edge caches measures the HIT path)");
        out.flush();
        try {
            runningOutcome = RunningStackPeak.run(new PeakOptions(switches, "1", ports, load, rounds, path, null, 0, dir,
                    streams, fleet, null, edge), URI.create(front.get().endsWith("/") ? front.get() : front.get() + "/"),
                    frontPid, out);
        } catch (IOException e) {
            return failed(e, dir);
        }
        return printed(runningOutcome.table(), List.of(), dir);
    }

    /** A measurement that could not finish: the first line of why, and where its logs are; exit code 1. */
    private int failed(IOException e, Path dir) {
        spec.commandLine().getErr().println("run-tests.sh peak: " + e.getMessage().lines().findFirst().orElse("")
                + " (logs in " + dir + ")");
        return 1;
    }

    /** The figures as a table: requests/s, ratio to the ceiling (median, and range over rounds), latency. */
    static String table(PeakRun.Outcome outcome) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "body %d bytes. ratio: requests/s over the ceiling's in the same round"
                + " (median, range over rounds). cpu us: the server's CPU per request (nginx's, both tiers for"
                + " MISS; a product's own on its cache HIT row); cpu: the ceiling's CPU per request over it. model: the"
                + " requests/s the shared-CPU model predicts from the run's own CPU per request at every process, wrk's"
                + " included (docs/capacity.md), and how far the measured rate is from it.%n", outcome.bodyBytes()));
        s.append(String.format(Locale.ROOT, "%-24s %10s %6s %10s %8s %6s %8s %8s %10s %7s%n", "path", "requests/s", "ratio",
                "range", "cpu us", "cpu", "p50 ms", "p99 ms", "model", "vs"));
        for (Figure<PeakRun.Kind> f : outcome.figures().values()) {
            s.append(String.format(Locale.ROOT, "%-24s %10.0f %6.2f %10s %8.1f %6.2f %8.3f %8.3f %s%n", f.key().label(),
                    f.medianRequestsPerSecond(), f.medianRatio(), f.ratio().range(), f.medianCpuMicros(),
                    f.medianCpuRatio(), f.medianP50(), f.medianP99(), Figure.modelColumns(f)));
        }
        List<PeakRun.RedisCost> costs = outcome.redisCosts();
        if (!costs.isEmpty()) {
            s.append(String.format(Locale.ROOT, "what Redis adds (medians; cpu us counts Redis's own in the rows with"
                    + " Redis):%n"));
            for (PeakRun.RedisCost c : costs) {
                s.append(String.format(Locale.ROOT, "  %-24s %+8.1f cpu us, %+7.3f ms p50, ratio %.2f -> %.2f (against %s)%n",
                        c.with().key().label(), c.addedCpuMicros(), c.addedP50(), c.without().medianRatio(),
                        c.with().medianRatio(), c.without().key().label()));
            }
        }
        if (!outcome.quotaLog().isEmpty()) {
            s.append("the quota's edge logged: ").append(new TreeMap<>(outcome.quotaLog()).entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")))
                    .append(outcome.quotaLog().keySet().stream().anyMatch(k -> k.contains("REJECTED"))
                            ? "" : " (no request rejected)").append(System.lineSeparator());
        }
        return s.toString();
    }

    /** The input checked before anything starts, one line each; binds no port ({@link #checkMachine} does). */
    void validate() {
        EdgeDefaults.fit(edge, switches, spec.commandLine().getParseResult()).forEach(spec.commandLine().getOut()::println);
        List<String> problems = new ArrayList<>(switches.problems());
        if (quotaKeys != null) {
            quotaKeysProblems(problems);
            Refuse.ifAny(spec, problems);
            return;
        }
        if (switches.edges() > 1) {
            problems.add("--edges " + switches.edges() + ": peak measures one front end's paths; run several edges with ./run-tests.sh --edges N");
        }
        range(problems, "--duration", duration);
        range(problems, "--connections", connections);
        range(problems, "--threads", threads);
        if (threads > connections) {
            problems.add("--threads (" + threads + ") must not exceed --connections (" + connections + ")");
        }
        range(problems, "--rounds", rounds);
        problems.addAll(ownConfig.orphans());
        if (ownConfig.given() && (againstBareForm() || breakdown || switches.tls() || fleet || appPath != null
                || quotaGiven())) {
            problems.add("--nginx-conf measures your config's HIT, MISS and rejection paths: drop " + (againstBareForm()
                    ? "--edge " + edge : breakdown ? "--breakdown" : switches.tls() ? "--tls" : fleet ? "--fleet"
                    : appPath != null ? "--app-path" : "--quota") + ", which measure the rendered front's");
        } else if (ownConfig.given() && problems.isEmpty()) {
            OwnConfigOptions.applyOrSay(ownConfig, switches, problems);
        }
        if (url != null && !url.matches("/[A-Za-z0-9._~/?&=%+-]*")) {
            problems.add("--url must be a path starting with / (got '" + url + "')");
        }
        if (againstBareForm()) {
            edgeProblems(problems);
        } else if (switches.tls()) {
            tlsProblems(problems);
        }
        if (demands && (instructions || breakdown || appPath != null || fleet || quotaGiven() || switches.tls()
                || ownConfig.given())) {
            problems.add("--demands measures the suite's tiers class by class: drop " + (instructions
                    ? "--instructions" : breakdown ? "--breakdown" : appPath != null ? "--app-path" : fleet ? "--fleet"
                    : quotaGiven() ? "--quota" : switches.tls() ? "--tls" : "--nginx-conf"));
        }
        outputFileProblems(problems, "--instructions", instructions, instructionsFile);
        outputFileProblems(problems, "--demands", demands, demandsFile);
        boolean uncounted = againstBareForm() && edge.adapter().countedForms().isEmpty();
        if (instructions && (appPath != null || fleet || quotaGiven() || switches.tls() || uncounted
                || ownConfig.given())) {
            problems.add("--instructions counts the suite's front on the HIT path alone: drop " + (appPath != null
                    ? "--app-path" : fleet ? "--fleet" : quotaGiven() ? "--quota" : switches.tls() ? "--tls"
                    : uncounted ? "--edge " + edge + " (" + edge.displayName() + " has no one-process forms to count;"
                    + " nginx's front and --edge haproxy have)" : "--nginx-conf"));
        }
        if (breakdown && (appPath != null || fleet || quotaGiven())) {
            problems.add("--breakdown measures the front tier's HIT path alone: drop " + (appPath != null ? "--app-path"
                    : fleet ? "--fleet" : "--quota"));
        }
        if (quotaGiven() && appPath != null) {
            problems.add("--app-path compares the edge cache with the app's Redis cache, --quota the quota's Redis call:"
                    + " run them apart");
        }
        if (appPath != null) {
            if (!appPath.matches("/items/[1-9][0-9]{0,8}")) {
                problems.add("--app-path must be an item of the suite's origin, /items/ID (got '" + appPath + "')");
            }
            if (!switches.origins().isEmpty()) {
                problems.add("--app-path measures the suite's own origin with its Redis cache: drop --origin");
            }
        }
        if (url == null && !switches.origins().isEmpty()) {
            problems.add("--url: with --origin, give the path of a cacheable URL of your origin, e.g. --url /items/1");
        }
        if (!switches.cache() && edge.adapter().capabilities().contains(dev.ratecache.suite.edge.Capability.CACHE)) {
            problems.add("--no-cache: peak measures the edge cache's HIT path; drop --no-cache");
        }
        problems.addAll(ports.problems(switches.origins().isEmpty(), 1));
        if (againstBareForm() && problems.isEmpty()) {
            // What the product cannot do, asked of the stack peak starts: its limits open (nodelay, not binding).
            edge.adapter().refusal(PeakRun.open(switches).spec(ports))
                    .ifPresent(r -> problems.add("--edge " + edge + ": " + r));
        }
        dev.ratecache.suite.switches.OriginUrl.addUnanswered(switches.origins(), problems);
        Refuse.ifAny(spec, problems);
    }

    /** A mode's --MODE-file: given only with the mode, and in a folder that exists. */
    private static void outputFileProblems(List<String> problems, String mode, boolean given, Path file) {
        if (file != null && !given) {
            problems.add(mode + "-file says where " + mode + " writes: give " + mode + " too");
        }
        if (file != null && file.getParent() != null && !Files.isDirectory(file.getParent())) {
            problems.add(mode + "-file: no folder " + file.getParent() + " to write it in");
        }
    }

    /** What --edge haproxy|varnish does not measure, one line each: nginx's own ways, and nginx's workers. */
    private void edgeProblems(List<String> problems) {
        if (breakdown) {
            problems.add("--breakdown measures nginx's front feature by feature: drop it with --edge " + edge
                    + ", which measures its full edge against its bare form");
        }
        if (switches.tls()) {
            problems.add("--tls: peak --edge " + edge + " measures the HIT path in cleartext; drop --tls");
        }
        if (appPath != null) {
            problems.add("--app-path compares nginx's edge cache with the app's Redis cache: drop it with --edge " + edge);
        }
        if (fleet) {
            problems.add("--fleet measures nginx's fleet limit in Redis: drop it with --edge " + edge);
        }
        if (quotaGiven()) {
            problems.add("--quota measures nginx's quota in Redis: drop it with --edge " + edge);
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--workers")) {
            problems.add("--workers sets nginx's worker processes, and " + edge.displayName() + " runs its own"
                    + " default threads in both forms: drop --workers with --edge " + edge);
        }
    }

    /** What --tls measures and what makes no sense with it, one line each. */
    private void tlsProblems(List<String> problems) {
        for (String[] other : new String[][] {{breakdown ? "--breakdown" : null, "the production front's features one by one"},
                {appPath != null ? "--app-path" : null, "the app's Redis cache"}, {fleet ? "--fleet" : null, "the fleet's Redis"},
                {quotaGiven() ? "--quota" : null, "the quota's Redis call"}}) {
            if (other[0] != null) {
                problems.add("--tls measures the HIT path over TLS, " + other[0] + " " + other[1] + ": run them apart");
            }
        }
        if (!switches.http2()) {
            problems.add("--no-http2: peak --tls measures HTTP/2 too; drop --no-http2");
        }
        if (switches.httpPort() != 0) {
            problems.add("--http-port: peak --tls measures the TLS port alone; drop --http-port");
        }
        range(problems, "--streams", streams);
    }

    /** What this machine must give the measurement, once the input is good: the tools, free ports, an open --work-dir. */
    void checkMachine() {
        List<String> problems = new ArrayList<>();
        boolean quota = quotaGiven();
        if (appPath != null || fleet || quota) {
            RedisServer.notInstalled().ifPresent(problems::add);
        }
        for (String[] lua : new String[][] {{fleet ? "--fleet" : null}, {quota ? "--quota" : null}}) {
            if (lua[0] != null && !Files.isRegularFile(dev.ratecache.suite.nginx.NginxRenderer.LUA_MODULE)) {
                problems.add(lua[0] + " needs nginx's Lua module: sudo apt-get install -y libnginx-mod-http-lua, or run"
                        + " ./run-tests.sh peak");
            }
        }
        edge.adapter().notInstalled().ifPresent(missing -> problems.add("--edge " + edge + ": " + missing
                + ", or run ./run-tests.sh peak"));
        if (instructions && !HitInstructions.available()) {
            problems.add("--instructions: valgrind is not installed: sudo apt-get install -y valgrind, or run ./run-tests.sh peak");
        }
        if (!instructions && !Wrk.installed()) {
            problems.add("wrk is not installed (" + Wrk.binary() + "): sudo apt-get install -y wrk, or run ./run-tests.sh peak");
        }
        if (switches.tls() && !H2load.installed()) {
            problems.add("--tls: h2load is not installed (" + H2load.binary()
                    + "): sudo apt-get install -y nghttp2-client, or run ./run-tests.sh peak");
        }
        if (switches.tls() && !STime.installed()) {
            problems.add("--tls: openssl is not installed (" + STime.binary() + "): sudo apt-get install -y openssl");
        }
        problems.addAll(ports.unavailable(switches.origins().isEmpty()));
        if (workDir != null) {
            RunFolders.notAFolderForTheTiers(workDir, "--work-dir").ifPresent(problems::add);
            dev.ratecache.suite.nginx.WorkerAccess.problem(workDir, "--work-dir").ifPresent(problems::add);
        }
        Refuse.ifAny(spec, problems);
    }

    /** Whether --quota was given, whether its value parses or not: what it goes with is checked apart. */
    private boolean quotaGiven() {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        return parsed != null && parsed.hasMatchedOption("--quota");
    }

    /** What --quota-keys, which measures Redis alone, does not go with, one line each. */
    private void quotaKeysProblems(List<String> problems) {
        range(problems, "--quota-keys", quotaKeys);
        for (String[] other : new String[][] {{breakdown ? "--breakdown" : null}, {switches.tls() ? "--tls" : null},
                {appPath != null ? "--app-path" : null}, {fleet ? "--fleet" : null},
                {againstBareForm() ? "--edge " + edge : null}}) {
            if (other[0] != null) {
                problems.add("--quota-keys measures the quota's keys in Redis alone, with no tiers: drop " + other[0]);
            }
        }
        if (switches.fleetRedis() != null) {
            problems.add("--quota-keys fills the suite's own redis-server, whose memory it reads from empty: drop"
                    + " --fleet-redis");
        }
        if (!quotaGiven() || !switches.problems().isEmpty()) {
            return;
        }
        switches.quota().filter(q -> q.windowSeconds() > QUOTA_KEYS_WINDOW_MAX)
                .ifPresent(q -> problems.add("--quota-keys waits until the counters expire, up to two windows: give"
                        + " --quota a window of " + QUOTA_KEYS_WINDOW_MAX + " s at most, e.g. --quota "
                        + QUOTA_KEYS_QUOTA + " (got " + q.flag() + ")"));
    }

    private static void range(List<String> problems, String flag, int value) {
        WHOLE_NUMBERS.get(flag).check(problems, value);
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WHOLE_NUMBERS;
    }

    /** The figures of the last --app-path comparison; null before one. */
    public AppCacheComparison.Outcome appOutcome() {
        return appOutcome;
    }

    /** The figures of the last run; null before one. */
    public PeakRun.Outcome outcome() {
        return outcome;
    }
}
