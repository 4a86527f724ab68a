package dev.ratecache.suite.peak;

import dev.ratecache.model.SharedCpu;
import dev.ratecache.proc.ProcCpu;
import dev.ratecache.suite.origin.OriginServer;
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
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every peak mode runs on: its options, the suite's origin and whatever else it starts (all
 * stopped on close, the last started first), the rounds, each client run with the CPU it cost the
 * servers, the check that a HIT run did not reach the origin, and the warnings. A mode says only
 * what it starts and in which order it measures.
 */
public final class PeakHarness implements AutoCloseable {
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** One round's measurements; the harness calls it for round 1 to --rounds. */
    public interface Round {
        void measure(int round) throws IOException, InterruptedException;
    }

    /** A client run: wrk, h2load, s_time. */
    public interface Client<T> {
        T run() throws IOException, InterruptedException;
    }

    /**
     * A client's result and the CPU the servers spent per request (or connection) of it, in
     * microseconds, and the rate the shared-CPU model predicts from the run's demands (NaN when not
     * predicted).
     */
    public record Measured<T>(T result, double cpuMicros, double predictedPerSec) {
        public Measured(T result, double cpuMicros) {
            this(result, cpuMicros, Double.NaN);
        }
    }

    private final PeakOptions options;
    private final PrintWriter progress;
    private final Wrk wrk;
    private final List<AutoCloseable> started = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    /** Processes whose CPU every later run's prediction counts (see {@link #alsoBusy}). */
    private final List<Long> alsoBusy = new ArrayList<>();

    /** The machine's cores, which every process here shares. */
    static final int CORES = SharedCpu.CORES_HERE;
    private OriginServer origin;

    public PeakHarness(PeakOptions options, PrintWriter progress) throws IOException {
        this.options = options;
        this.progress = progress;
        this.wrk = new Wrk(options.load());
        Files.createDirectories(options.dir());
    }

    public PeakOptions options() {
        return options;
    }

    /** Anything that makes a figure doubtful, in the order it was found. */
    public List<String> warnings() {
        return warnings;
    }

    public void warn(String warning) {
        warnings.add(warning);
    }

    /** Starts the suite's own origin unless the switches name the user's (then null, and none started). */
    public OriginServer startOrigin() throws IOException {
        if (options.origin() != null) {
            say("starting the suite's origin%n");
            origin = started(OriginServer.start(options.ports().origin(), options.ports().management(),
                    options.originThreads(), options.dir().resolve("origin.log"), options.origin()));
        }
        return origin;
    }

    /** {@code server}, to be stopped when the harness closes. */
    public <T extends AutoCloseable> T started(T server) {
        started.add(server);
        return server;
    }

    /** Stops {@code server} now, before the rest: another takes its place or its ports. */
    public void stop(AutoCloseable server) {
        started.remove(server);
        closeQuietly(server);
    }

    /** A progress line, out at once: a run takes minutes. */
    public void say(String format, Object... args) {
        progress.printf(format, args);
        progress.flush();
    }

    /** Calls {@code round} for each of --rounds. */
    public void rounds(Round round) throws IOException, InterruptedException {
        for (int r = 1; r <= options.rounds(); r++) {
            round.measure(r);
        }
    }

    /**
     * {@code items} in the order round {@code round} measures them: each round starts one later, so
     * that a drift of the machine within a round falls on each in turn, not always on the last.
     */
    public static <T> List<T> inTurn(List<T> items, int round) {
        List<T> turned = new ArrayList<>();
        for (int k = 0; k < items.size(); k++) {
            turned.add(items.get((k + round - 1) % items.size()));
        }
        return turned;
    }

    /**
     * One wrk run on {@code url} (its output under wrk/ as {@code name}), served by the trees of
     * {@code pids}, whose CPU per request is the run's; and beside it the rate {@link SharedCpu}
     * predicts for the run's own demands: each of {@code pids}' CPU per request, the suite's origin's
     * and wrk's own, on this machine's cores, with wrk's connections as the closed loop's population.
     * An nginx can use as many cores as it has workers, wrk as many as its threads, any other process
     * (a JVM, HAProxy's or Envoy's threads, Varnish's, Go's) all of them.
     */
    public Measured<Wrk.Result> wrk(URI url, Path script, String name, long... pids)
            throws IOException, InterruptedException {
        List<Long> busy = new ArrayList<>();
        for (long pid : pids) {
            busy.add(pid);
        }
        if (origin != null && origin.isRunning() && !busy.contains(origin.pid())) {
            busy.add(origin.pid());
        }
        for (long pid : alsoBusy) {
            if (!busy.contains(pid) && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                busy.add(pid);
            }
        }
        double[] before = busy.stream().mapToDouble(ProcCpu::treeSeconds).toArray();
        Counted<Wrk.Result> run = wrk.runCounted(url, script, options.dir().resolve("wrk"), name);
        double[] after = busy.stream().mapToDouble(ProcCpu::treeSeconds).toArray();
        long n = run.result().requests();
        if (n == 0 || pids.length == 0) {
            return new Measured<>(run.result(), Double.NaN);
        }
        double servers = 0;
        double[] used = new double[busy.size()];
        for (int i = 0; i < busy.size(); i++) {
            used[i] = after[i] - before[i];
            if (i < pids.length) {
                servers += used[i];
            }
        }
        return new Measured<>(run.result(), servers * 1e6 / n, predicted(busy, used, n, run.cpuSeconds(),
                options.load().threads(), options.load().connections()));
    }

    /**
     * The rate {@link SharedCpu} predicts for a client run that completed {@code requests}: each of
     * {@code pids}' CPU seconds over it ({@code used}, in the same order) and the client's own, on this
     * machine's cores, the client as wide as {@code clientThreads}, {@code population} requests in
     * flight; NaN when nothing was measured.
     */
    static double predicted(List<Long> pids, double[] used, long requests, double clientSeconds, int clientThreads,
            int population) {
        if (requests == 0) {
            return Double.NaN;
        }
        List<SharedCpu.Process> processes = new ArrayList<>();
        for (int i = 0; i < pids.size(); i++) {
            processes.add(new SharedCpu.Process("pid " + pids.get(i), Math.max(0, used[i]) / requests, threads(pids.get(i))));
        }
        processes.add(new SharedCpu.Process("client", Math.max(0, clientSeconds) / requests, clientThreads));
        return processes.stream().allMatch(p -> p.demandSec() == 0) ? Double.NaN
                : new SharedCpu(CORES, processes, 0).closed(population, 0).throughputPerSec();
    }

    /**
     * Counts {@code pid}'s CPU in the model's demands of every later run, not in the run's own CPU per
     * request: a tier behind the one measured (the back on a MISS, the ceiling as a proxied path's
     * origin), which takes its cores from the same machine.
     */
    public void alsoBusy(long pid) {
        alsoBusy.add(pid);
    }

    /**
     * The cores a server's process tree can use at once: an nginx master's worker processes (each
     * one thread), or every core for any other (threaded) server.
     */
    static int threads(long pid) {
        if (!command(pid).startsWith("nginx: master")) {
            return CORES;
        }
        long workers = ProcessHandle.of(pid).map(h -> h.children().filter(c -> command(c.pid())
                .startsWith("nginx: worker")).count()).orElse(0L);
        return (int) Math.max(1, Math.min(CORES, workers));
    }

    private static String command(long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ').strip();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * Runs {@code client} and warns when any of its requests reached the origin: a HIT run that
     * measured misses. Only the suite's own origin counts them.
     */
    public <T> T notReachingOrigin(String run, int round, Client<T> client) throws IOException, InterruptedException {
        long before = originRequests(origin);
        T result = client.run();
        long reached = originRequests(origin) - before;
        if (reached > 0) {
            warn("round " + round + ": " + reached + " requests of the " + run + " run reached the origin");
        }
        return result;
    }

    /** The suite's origin's requests so far; 0 for the user's, which the harness cannot ask. */
    public long originRequests() {
        return originRequests(origin);
    }

    /** Stops all it started, the last first: the servers in front before the origin behind them. */
    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            closeQuietly(started.get(i));
        }
        started.clear();
    }

    private static void closeQuietly(AutoCloseable server) {
        try {
            server.close();
        } catch (Exception ignored) {
            // Stopping the rest matters more than this one's error.
        }
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

    /**
     * Each path's runs as the rounds go, and each round's ratios to a reference run of the same
     * round, which becomes a {@link Figure} per path.
     */
    public static final class Tally<K> {
        private final Map<K, List<Wrk.Result>> runs = new LinkedHashMap<>();
        private final Map<K, List<Double>> cpu = new LinkedHashMap<>();
        private final Map<K, List<Double>> ratios = new LinkedHashMap<>();
        private final Map<K, List<Double>> cpuRatios = new LinkedHashMap<>();
        private final Map<K, List<Double>> predicted = new LinkedHashMap<>();

        public Measured<Wrk.Result> add(K key, Measured<Wrk.Result> run) {
            runs.computeIfAbsent(key, k -> new ArrayList<>()).add(run.result());
            cpu.computeIfAbsent(key, k -> new ArrayList<>()).add(run.cpuMicros());
            List<Double> p = predicted.computeIfAbsent(key, k -> new ArrayList<>());
            if (!Double.isNaN(run.predictedPerSec())) {
                p.add(run.predictedPerSec());
            }
            return run;
        }

        /**
         * Each of {@code keys}' last run over {@code reference}'s last: requests/s, and CPU per
         * request the other way round. The reference's own is 1.
         */
        public void ratios(K reference, Collection<K> keys) {
            double top = last(runs.get(reference)).requestsPerSecond();
            double topCpu = last(cpu.get(reference));
            for (K key : keys) {
                boolean self = key.equals(reference);
                ratios.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(self ? 1.0 : Spread.ratio(last(runs.get(key)).requestsPerSecond(), top));
                cpuRatios.computeIfAbsent(key, k -> new ArrayList<>()).add(self ? 1.0 : topCpu / last(cpu.get(key)));
            }
        }

        /** The paths measured so far, in the order first measured. */
        public Set<K> keys() {
            return runs.keySet();
        }

        public Figure<K> figure(K key) {
            return new Figure<>(key, runs.get(key), ratios.getOrDefault(key, List.of()), cpu.get(key),
                    cpuRatios.getOrDefault(key, List.of()), predicted.getOrDefault(key, List.of()));
        }

        private static <T> T last(List<T> list) {
            return list.get(list.size() - 1);
        }
    }

    /**
     * Requests {@code url} until the edge answers it from the cache; returns the body's size. Fails
     * when the edge does not cache it (a URL that is not cacheable, or the cache switched off).
     */
    public static int warm(URI url) throws IOException, InterruptedException {
        return warm(url, HTTP);
    }

    /**
     * The body's length of {@code url}'s answer, which must be 200: the proxied path's, where no cache
     * answers (a product without one), and the origin's, whose body the ceiling then sends.
     */
    public static int body(URI url) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IOException(url + " answered " + response.statusCode() + ", not 200: give --url a path it answers");
        }
        return response.body().length;
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
     * Requests {@code url} until a request no longer reaches the origin, as the suite's origin counts
     * (or three times for an origin of the user's, which counts nothing here); false when five did not
     * get there. For a cache that says nothing of hits and misses.
     */
    public boolean warmedByOrigin(URI url) throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 5; attempt++) {
            long before = originRequests();
            HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IOException(url + " answered " + response.statusCode());
            }
            if (attempt > 0 && (origin == null ? attempt >= 2 : originRequests() == before)) {
                return true;
            }
        }
        return false;
    }
}
