package dev.ratecache.suite.peak;

import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Poll;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.edge.CountedForms;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.peak.HitBreakdown.Step;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.Stack;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a HIT costs nginx's front in user-space instructions ({@code ./run-tests.sh peak
 * --instructions}), counted by {@code valgrind --tool=callgrind}: a count that does not depend on
 * the machine's load, where a rate or a CPU time does. Each step of {@link HitBreakdown}'s ladder
 * (or, by default, the bare {@code proxy_cache} and the production front) runs twice as one nginx
 * process under callgrind, in front of the same back tier: once for {@link #FEW} HITs, once for
 * {@link #MANY}; the difference over {@code MANY - FEW} is its instructions per HIT, with the
 * start, the warming MISS and the exit cancelled out. The HITs come one at a time over one
 * keep-alive connection, so each is one read event, as in every run. The kernel's part of a HIT
 * (reading the request, writing the answer) is the same in every step and is not counted.
 */
public final class HitInstructions {

    /**
     * The guard the test command holds the production front to, with Age by the native module: at
     * most this many times the bare proxy_cache's instructions per HIT. Measured 2026-11-30 at 1.52
     * (the counts of two runs differ by under 1 %), so a feature that adds a sixteenth of the bare
     * cache's work to a HIT breaks it. The biggest shares are named in docs/capacity.md.
     */
    public static final double NGINX_BOUND = 1.58;

    /**
     * The same with Age by njs, where the native module is not built: its step measured 2.47, the
     * production front about 2.57.
     */
    public static final double NGINX_NJS_AGE_BOUND = 2.7;

    /** The bound for nginx's production front: the native Age module's, or njs's where that is not built. */
    static double nginxBound(Step production) {
        return production.njsAge() ? NGINX_NJS_AGE_BOUND : NGINX_BOUND;
    }

    /** HITs of the short run and of the long one; the long one's extra HITs are what is counted. */
    public static final int FEW = 100;
    public static final int MANY = 600;

    /** valgrind's callgrind, writing its totals to {@code out} at exit: the command to put before the counted one. */
    static List<String> callgrind(Path out) {
        return List.of(valgrind(), "--tool=callgrind", "--callgrind-out-file=" + out, "--dump-instr=no", "--dump-line=no");
    }

    private static final Pattern TOTALS = Pattern.compile("(?m)^(?:totals|summary):\\s*(\\d+)\\s*$");
    private static final HttpClient ONE_CONNECTION = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** One step's count: the instructions of each run and what a HIT adds. */
    public record Row(Step step, long fewRun, long manyRun) {
        public double perHit() {
            return (double) (manyRun - fewRun) / (MANY - FEW);
        }
    }

    /**
     * Every step's row, the bare cache's first, with the product counted and the bound its front is
     * held to.
     */
    public record Outcome(String product, List<Row> rows, double bound, List<String> warnings) {
        public Row bare() {
            return rows.get(0);
        }

        public Row production() {
            return rows.get(rows.size() - 1);
        }

        /** The production front's instructions per HIT over the bare cache's. */
        public double ratio() {
            return production().perHit() / bare().perHit();
        }

        public boolean withinBound() {
            return ratio() <= bound();
        }
    }

    private HitInstructions() {
    }

    /** valgrind, as Debian installs it; VALGRIND_BIN names another. */
    static String valgrind() {
        return Executables.find("valgrind", "VALGRIND_BIN", "/usr/bin/valgrind");
    }

    /** Whether valgrind is installed; the test command installs it. */
    public static boolean available() {
        return Executables.runnable(valgrind());
    }

    /** The bare cache and the production front, or with {@code everyStep} each step of the breakdown. */
    public static Outcome run(PeakOptions options, boolean everyStep, PrintWriter progress)
            throws IOException, InterruptedException {
        if (!available()) {
            throw new IOException("valgrind is not installed: sudo apt-get install -y valgrind (./run-tests.sh test installs it)");
        }
        try (PeakHarness h = new PeakHarness(options, progress)) {
            boolean nativeAge = options.switches().copy().ageSource(AgeSource.AUTO).ageSourceInForce() == AgeSource.NATIVE;
            boolean njs = Files.isRegularFile(NginxRenderer.NJS_MODULE);
            if (!nativeAge) {
                h.warn("the native Age module is not built here (run ./run-tests.sh as root once): Age is by njs");
            }
            List<Step> ladder = HitBreakdown.ladder(nativeAge, njs);
            Step production = ladder.get(ladder.size() - 1);
            List<Step> steps = everyStep ? ladder : List.of(ladder.get(0),
                    new Step("production front", production.features(), production.njsAge()));
            Stack stack = h.started(Stack.around(h.startOrigin(), PeakRun.open(options.switches()), options.ports(),
                    options.dir().resolve("stack")));
            StackSwitches edge = HitBreakdown.edge(options.switches());
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < steps.size(); i++) {
                Step step = steps.get(i);
                StackSwitches switches = edge.copy().ageSource(step.njsAge() ? AgeSource.NJS : AgeSource.NATIVE);
                long few = count(h, step, switches, stack, options.dir().resolve("step-" + i + "-few"), FEW);
                long many = count(h, step, switches, stack, options.dir().resolve("step-" + i + "-many"), MANY);
                Row row = new Row(step, few, many);
                h.say("  %-64s %,12.0f instructions per HIT%n", step.label(), row.perHit());
                rows.add(row);
            }
            return new Outcome("nginx", rows, nginxBound(rows.get(rows.size() - 1).step()), h.warnings());
        }
    }

    /**
     * Another product's full front and its bare form ({@code peak --instructions --edge X}), each one
     * process of one thread as its adapter writes them ({@link CountedForms}), under callgrind in
     * front of the back tier of the product's own full edge.
     */
    public static Outcome runEdge(PeakOptions options, PrintWriter progress) throws IOException, InterruptedException {
        if (!available()) {
            throw new IOException("valgrind is not installed: sudo apt-get install -y valgrind (./run-tests.sh test installs it)");
        }
        Edge product = options.product().adapter();
        String name = options.product().displayName();
        CountedForms counted = product.countedForms().orElseThrow(() -> new IllegalArgumentException(
                name + " has no one-process forms to count"));
        try (PeakHarness h = new PeakHarness(options, progress)) {
            h.startOrigin();
            StackSpec spec = PeakRun.open(options.switches()).spec(options.ports());
            h.say("starting %s's full edge, whose back tier both counted forms pass their misses to%n", name);
            h.started(product.start(spec, options.dir().resolve("full")));
            List<CountedForms.OneProcess> forms = counted.write(spec, options.dir().resolve("counted"));
            List<Step> steps = List.of(new Step(name + "'s bare form", java.util.EnumSet.noneOf(HitBreakdown.Feature.class),
                    false), new Step(name + "'s full front", java.util.EnumSet.noneOf(HitBreakdown.Feature.class), false));
            List<CountedForms.OneProcess> order = List.of(forms.get(1), forms.get(0));
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < steps.size(); i++) {
                Step step = steps.get(i);
                long few = count(h, step, order.get(i), options.dir().resolve("form-" + i + "-few"), FEW);
                long many = count(h, step, order.get(i), options.dir().resolve("form-" + i + "-many"), MANY);
                Row row = new Row(step, few, many);
                h.say("  %-64s %,12.0f instructions per HIT%n", step.label(), row.perHit());
                rows.add(row);
            }
            return new Outcome(name, rows, counted.bound(), h.warnings());
        }
    }

    /** One run of {@code hits} HITs of a product's form under callgrind: its user-space instructions, start to exit. */
    private static long count(PeakHarness h, Step step, CountedForms.OneProcess form, Path dir, int hits)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path out = dir.resolve("callgrind.out").toAbsolutePath();
        List<String> command = new ArrayList<>(callgrind(out));
        command.addAll(form.command());
        ManagedProcess process = ManagedProcess.start("callgrind", command, dir, dir.resolve("process.log"))
                .awaitAccepting("callgrind", Ports.LOOPBACK, form.port(), Duration.ofSeconds(60));
        try (process) {
            hits(h, step, URI.create("http://" + Ports.LOOPBACK + ":" + form.port()).resolve(h.options().path()), hits);
        }
        return totals(out);
    }

    /** {@code hits} requests of {@code url} after it is warmed, one at a time: each must be a HIT. */
    private static void hits(PeakHarness h, Step step, URI url, int hits) throws IOException, InterruptedException {
        if (!h.warmedByOrigin(url)) {
            throw new IOException(url + " still reaches the origin after 5 requests: give --url a cacheable path");
        }
        long before = h.originRequests();
        for (int i = 0; i < hits; i++) {
            HttpResponse<Void> response = ONE_CONNECTION.send(HttpRequest.newBuilder(url)
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() != 200) {
                throw new IOException(step.label() + ": " + url + " answered " + response.statusCode() + " under callgrind");
            }
        }
        if (h.originRequests() != before) {
            throw new IOException(step.label() + ": " + (h.originRequests() - before) + " of " + hits
                    + " requests reached the origin: they were not HITs");
        }
    }

    /** One run of {@code hits} HITs after the warming request: the user-space instructions of its nginx, start to exit. */
    private static long count(PeakHarness h, Step step, StackSwitches switches, Stack stack, Path prefix, int hits)
            throws IOException, InterruptedException {
        Path out = prefix.resolve("callgrind.out").toAbsolutePath();
        NginxServer front = HitBreakdown.prepared(step, switches, stack.ports(), prefix, HitInstructions::oneProcess);
        try (front) {
            front.startOn(callgrind(out), Ports.LOOPBACK);
            hits(h, step, URI.create("http://" + Ports.LOOPBACK + ":" + front.port()).resolve(h.options().path()), hits);
        }
        return totals(out);
    }

    /**
     * The config as one process, the worker's work done by the process callgrind runs: the
     * master would fork a worker, whose count callgrind writes apart.
     */
    static String oneProcess(String config) {
        return "master_process off;\n" + config;
    }

    /** The instructions callgrind counted, from its output file once the process has written it at exit. */
    static long totals(Path out) throws IOException, InterruptedException {
        return totals(out, Duration.ofSeconds(30));
    }

    /** {@link #totals(Path)}, waiting at most {@code wait} for them. */
    static long totals(Path out, Duration wait) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(wait);
        while (true) {
            if (Files.isRegularFile(out)) {
                Matcher m = TOTALS.matcher(Files.readString(out));
                if (m.find()) {
                    return Long.parseLong(m.group(1));
                }
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IOException("callgrind wrote no totals to " + out);
            }
            Poll.pause(100);
        }
    }

    /** The counts as JSON: each step's instructions per HIT and ratio to the bare cache's, and the bound. */
    public static void write(Outcome outcome, java.util.Map<String, String> machine, Path file) throws IOException {
        java.util.Map<String, Object> json = new java.util.LinkedHashMap<>();
        json.put("measured", Instant.now().toString());
        json.put("machine", machine);
        json.put("product", outcome.product());
        json.put("method", "callgrind: user-space instructions of a run of " + MANY + " HITs less a run of " + FEW
                + ", one " + outcome.product() + " process each");
        List<Object> rows = new ArrayList<>();
        for (Row row : outcome.rows()) {
            java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
            r.put("step", row.step().label());
            r.put("instructionsPerHit", Math.round(row.perHit()));
            r.put("ratio", Math.round(row.perHit() / outcome.bare().perHit() * 1000) / 1000.0);
            rows.add(r);
        }
        json.put("rows", rows);
        json.put("ratio", Math.round(outcome.ratio() * 1000) / 1000.0);
        json.put("bound", outcome.bound());
        new com.fasterxml.jackson.databind.ObjectMapper().enable(
                com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }

    /** The table: each step's instructions per HIT and its ratio to the bare cache's. */
    public static String table(Outcome outcome) {
        StringBuilder s = new StringBuilder("user-space instructions per HIT of the front's " + outcome.product()
                + " (callgrind: a run of "
                + MANY + " HITs less a run of " + FEW + "), and the ratio to the bare cache's.\n");
        s.append(String.format(Locale.ROOT, "%-66s %14s %6s%n", "front tier, HIT path", "instructions", "ratio"));
        for (Row row : outcome.rows()) {
            s.append(String.format(Locale.ROOT, "%-66s %,14.0f %6.2f%n", row.step().label(), row.perHit(),
                    row.perHit() / outcome.bare().perHit()));
        }
        s.append(String.format(Locale.ROOT, "%s: %.2f, %s the bound of %.2f the test command holds it to%n",
                outcome.product().equals("nginx") ? "production front over the bare cache"
                        : outcome.product() + "'s full front over its bare form",
                outcome.ratio(), outcome.withinBound() ? "within" : "PAST", outcome.bound()));
        return s.toString();
    }
}
