package dev.ratecache.suite.peak;

import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.ProcCpu;
import dev.ratecache.stats.Median;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.edge.HaproxyEdge;
import dev.ratecache.suite.edge.VarnishEdge;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.StackPorts;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * {@code ./run-tests.sh peak --edge haproxy|varnish}: a product's full edge (its adapter's two
 * tiers, limits present but not binding, cache on) against its bare form (the product's least
 * caching config, in front of the same back tier) on the HIT path, each as a ratio to nginx's
 * {@code return 200} in the same round. The bar: the full edge keeps {@link #BAR} of its bare
 * form's rate, so that the features the suite adds cost next to nothing on a HIT.
 */
public final class EdgePeak {
    /** The share of the bare form's HIT rate the full edge must keep (median over rounds). */
    public static final double BAR = 0.95;

    /**
     * @param spec    the full edge's stack, with the limits open ({@link PeakRun#open})
     * @param origin  the suite's own origin's extra arguments, or null for the spec's origins
     * @param workers the ceiling nginx's worker setting
     */
    public record Options(EdgeProduct product, StackSpec spec, String workers, StackPorts ports, Wrk.Load load,
            int rounds, String path, List<String> origin, int originThreads, Path dir) {}

    /** One server's HIT runs over the rounds, each with its ratio to that round's ceiling and its CPU per request. */
    public record Row(String label, List<Wrk.Result> runs, List<Double> ratios, List<Double> cpuMicros) {
        public double medianRequestsPerSecond() { return Median.of(runs.stream().map(Wrk.Result::requestsPerSecond).toList()); }
        public double medianRatio() { return Median.of(ratios); }
        public double medianCpuMicros() { return Median.of(cpuMicros); }
        public double medianP50() { return Median.of(runs.stream().map(Wrk.Result::latencyP50).toList()); }
        public double medianP99() { return Median.of(runs.stream().map(Wrk.Result::latencyP99).toList()); }
        public long non2xx() { return runs.stream().mapToLong(Wrk.Result::non2xx).sum(); }

        String range() {
            return String.format(Locale.ROOT, "%.2f-%.2f", ratios.stream().min(Comparator.naturalOrder()).orElse(Double.NaN),
                    ratios.stream().max(Comparator.naturalOrder()).orElse(Double.NaN));
        }
    }

    /** The run's figures: the ceiling's, the full edge's and the bare form's rows, round by round alike. */
    public record Outcome(EdgeProduct product, int bodyBytes, Row ceiling, Row full, Row bare, List<String> warnings) {
        /** Each round's full HIT rate over the bare form's in the same round. */
        public List<Double> fullOverBare() {
            return IntStream.range(0, full.runs().size()).mapToObj(i -> {
                double bareRate = bare.runs().get(i).requestsPerSecond();
                return bareRate > 0 ? full.runs().get(i).requestsPerSecond() / bareRate : 0.0;
            }).toList();
        }

        public double medianFullOverBare() {
            return Median.of(fullOverBare());
        }

        /** Whether the full edge kept {@link #BAR} of its bare form's HIT rate. */
        public boolean holds() {
            return medianFullOverBare() >= BAR;
        }

        /** The bar's line: the figure, its range, and PASS or BELOW. */
        public String verdict() {
            List<Double> fullOverBare = fullOverBare();
            return String.format(Locale.ROOT, "bar: %s's full edge at %.2f of its bare form's HIT rate (median of %d"
                            + " round(s), range %.2f-%.2f; CPU per HIT %.2f of the bare form's): %s, the bar is %.2f",
                    EdgePeak.product(product), medianFullOverBare(), fullOverBare.size(),
                    fullOverBare.stream().min(Comparator.naturalOrder()).orElse(Double.NaN),
                    fullOverBare.stream().max(Comparator.naturalOrder()).orElse(Double.NaN),
                    full.medianCpuMicros() / bare.medianCpuMicros(), holds() ? "PASS" : "BELOW", BAR);
        }
    }

    private EdgePeak() {}

    /** The product as the tables name it. */
    public static String product(EdgeProduct product) {
        return switch (product) {
            case NGINX -> "nginx";
            case HAPROXY -> "HAProxy";
            case VARNISH -> "Varnish";
        };
    }

    /** Whether the product's binary runs here; the line to print when it does not, else empty. */
    public static Optional<String> notInstalled(EdgeProduct product) {
        return switch (product) {
            case NGINX -> Optional.empty();
            case HAPROXY -> BareHaproxyCache.installed() ? Optional.empty() : Optional.of(
                    "--edge haproxy: haproxy is not installed (" + BareHaproxyCache.binary()
                            + "): sudo apt-get install -y haproxy, or run ./run-tests.sh peak");
            case VARNISH -> Executables.runnable(VarnishEdge.binary()) ? Optional.empty()
                    : Optional.of("--edge varnish: varnishd is not installed (" + VarnishEdge.binary()
                            + "): sudo apt-get install -y varnish varnish-modules, or run ./run-tests.sh peak");
        };
    }

    /** The product's version line (haproxy -v, varnishd -V), for the machine line. */
    public static String version(EdgeProduct product) throws IOException, InterruptedException {
        List<String> command = product == EdgeProduct.HAPROXY ? List.of(HaproxyEdge.binary(), "-v")
                : List.of(VarnishEdge.binary(), "-V");
        return ManagedProcess.run(command, Duration.ofSeconds(30)).text().lines().findFirst().orElse("").strip();
    }

    /** Starts the origin, the full edge, the ceiling and the bare form, and measures the rounds. */
    public static Outcome run(Options options, PrintWriter progress) throws IOException, InterruptedException {
        Files.createDirectories(options.dir());
        Wrk wrk = new Wrk(options.load());
        Path wrkDir = options.dir().resolve("wrk");
        List<String> warnings = new ArrayList<>();
        List<AutoCloseable> started = new ArrayList<>();
        try {
            OriginServer origin = PeakRun.startOrigin(options.origin(), options.ports(), options.originThreads(),
                    options.dir(), progress);
            if (origin != null) {
                started.add(origin);
            }
            String name = product(options.product());
            progress.println("starting " + name + "'s full edge (both tiers) and its bare form");
            progress.flush();
            Edge.Running full = options.product().adapter().start(options.spec(),
                    options.dir().resolve("full"));
            started.add(full);
            URI fullUrl = withoutDefaultPort(full.frontUri().resolve(options.path()));
            int bodyBytes = PeakRun.warm(fullUrl);
            CeilingServer ceiling = CeilingServer.start(options.dir().resolve("ceiling"), options.workers(), Ports.free(),
                    bodyBytes);
            started.add(ceiling);
            int backPort = options.spec().ports().back();
            Server bare = switch (options.product()) {
                // HAProxy's own default threads (one per CPU), as the full edge's config leaves them.
                case HAPROXY -> {
                    BareHaproxyCache h = BareHaproxyCache.start(options.dir().resolve("bare"), null, Ports.free(), backPort);
                    yield new Server(h.uri(), h.pid(), h);
                }
                case VARNISH -> {
                    long cacheMb = Math.max(1, (options.spec().cache().bytes() + (1 << 20) - 1) >> 20);
                    VarnishBare v = VarnishBare.start(Repo.varnishTemplates(), options.dir().resolve("bare"),
                            Ports.free(), backPort, cacheMb);
                    yield new Server(v.uri(), v.pid(), v);
                }
                case NGINX -> throw new IllegalArgumentException("peak measures nginx's edge without --edge");
            };
            started.add(bare.closer());
            URI bareUrl = withoutDefaultPort(bare.uri().resolve(options.path()));
            // The bare forms add no cache-status header: the origin's counter tells a hit from a miss.
            if (!PeakRun.warmedByOrigin(bareUrl, origin)) {
                warnings.add(name + "'s bare form: five requests of " + options.path() + " each reached the origin");
            }
            Row top = new Row("ceiling: return 200", new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            Row fullRow = new Row(name + " HIT, full edge", new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            Row bareRow = new Row(name + " HIT, bare form", new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            long frontPid = full.pids().get(0);
            for (int round = 1; round <= options.rounds(); round++) {
                measure(wrk, wrkDir, top, ceiling.uri(), ceiling.pid(), round, progress);
                // Every other round the bare form first, so a machine that slows down within a round
                // does not always fall on the same one of the two compared.
                boolean fullFirst = round % 2 == 1;
                for (boolean isFull : fullFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    Row row = isFull ? fullRow : bareRow;
                    long before = PeakRun.originRequests(origin);
                    measure(wrk, wrkDir, row, isFull ? fullUrl : bareUrl, isFull ? frontPid : bare.pid(), round, progress);
                    long reached = PeakRun.originRequests(origin) - before;
                    if (reached > 0) {
                        warnings.add("round " + round + ": " + reached + " requests of the " + row.label()
                                + " run reached the origin");
                    }
                }
                double ceilingRate = last(top.runs()).requestsPerSecond();
                top.ratios().add(1.0);
                for (Row row : List.of(fullRow, bareRow)) {
                    row.ratios().add(ceilingRate > 0 ? last(row.runs()).requestsPerSecond() / ceilingRate : 0);
                }
            }
            for (Row row : List.of(top, fullRow, bareRow)) {
                if (row.non2xx() > 0) {
                    warnings.add(row.label() + ": " + row.non2xx() + " responses were not 2xx/3xx");
                }
                if (row.runs().stream().anyMatch(r -> r.socketErrors() > 0)) {
                    warnings.add(row.label() + ": wrk counted socket errors (see the wrk/*.out files)");
                }
            }
            return new Outcome(options.product(), bodyBytes, top, fullRow, bareRow, warnings);
        } finally {
            // The last started first: the bare form and the full edge before the origin behind them.
            for (int i = started.size() - 1; i >= 0; i--) {
                try {
                    started.get(i).close();
                } catch (Exception ignored) {
                    // Stopping the rest matters more than this one's error.
                }
            }
        }
    }

    /**
     * {@code url} without its port when that is http's 80. HAProxy and Varnish key their caches by the
     * Host header as sent, and Java's client leaves a default port out of it where wrk sends the URL's:
     * warmed as "127.0.0.1" and pushed as "127.0.0.1:80", the first request of each of wrk's
     * connections missed (50 reached the origin).
     */
    static URI withoutDefaultPort(URI url) {
        return url.getPort() == 80 && "http".equals(url.getScheme())
                ? URI.create("http://" + url.getHost() + url.getRawPath()
                        + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()))
                : url;
    }

    /** A started bare form: where it answers, its PID for CPU, and how it stops. */
    private record Server(URI uri, long pid, AutoCloseable closer) {}

    private static void measure(Wrk wrk, Path dir, Row row, URI url, long pid, int round, PrintWriter progress)
            throws IOException, InterruptedException {
        progress.printf("  round %d: %-26s %s%n", round, row.label(), url);
        progress.flush();
        double before = ProcCpu.treeSeconds(pid);
        Wrk.Result result = wrk.run(url, null, dir, row.label().replaceAll("[^A-Za-z0-9]+", "-").toLowerCase(Locale.ROOT)
                + "-" + round);
        row.runs().add(result);
        row.cpuMicros().add(result.requests() == 0 ? Double.NaN
                : (ProcCpu.treeSeconds(pid) - before) * 1e6 / result.requests());
    }

    /** The figures as a table, then the bar's line. */
    public static String table(Outcome outcome) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "body %d bytes. ratio: requests/s over the"
                + " ceiling's in the same round (median, range over rounds). cpu us: the server's CPU per request (the"
                + " full edge's front tier; the bare form's process).%n", outcome.bodyBytes()));
        s.append(String.format(Locale.ROOT, "%-26s %10s %6s %10s %8s %8s %8s%n", "path", "requests/s", "ratio", "range",
                "cpu us", "p50 ms", "p99 ms"));
        for (Row r : List.of(outcome.ceiling(), outcome.full(), outcome.bare())) {
            s.append(String.format(Locale.ROOT, "%-26s %10.0f %6.2f %10s %8.1f %8.3f %8.3f%n", r.label(),
                    r.medianRequestsPerSecond(), r.medianRatio(), r.range(), r.medianCpuMicros(), r.medianP50(),
                    r.medianP99()));
        }
        s.append(outcome.verdict()).append(System.lineSeparator());
        return s.toString();
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }
}
