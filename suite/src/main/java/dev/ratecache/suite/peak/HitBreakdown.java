package dev.ratecache.suite.peak;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * What each feature of the front tier costs on the HIT path ({@code ./run-tests.sh peak
 * --breakdown}): a bare {@code proxy_cache} (the production front with every feature taken out and
 * its access log off), then the production front with the features added back one at a time, each
 * an nginx of its own in front of the same back tier, all measured with wrk in the same rounds.
 * Each step's config is the production config with some of its includes left out, so the last
 * step is production itself (its status server aside, which serves no HIT).
 */
public final class HitBreakdown {

    /** A feature of the front tier: the snippets that make it, as front-end.conf includes them. */
    public enum Feature {
        LIMITS("limit_req zones (not binding), rate-limit policy headers",
                "shared/address-limit-zone.conf", "shared/address-limit.conf", "front/address-limit-policy-value.conf",
                "front/address-limit-policy.conf", "shared/retry-after.conf", "shared/client-limit-zone.conf",
                "shared/client-limit.conf", "front/rate-limit-policy-value.conf", "front/rate-limit-policy.conf",
                "shared/limit-key.conf", "shared/limit-tier.conf", "shared/allow-list.conf", "shared/map-hash.conf",
                "front/missing-key.conf", "front/pass-limit-key.conf", "front/conn-limit-zone.conf",
                "front/conn-limit.conf", "front/fleet-limit-zone.conf", "front/fleet-limit.conf",
                "front/lua-module.conf"),
        LOG("access log (JSON, buffered)", "shared/logging.conf"),
        SECURITY_HEADERS("security-header defaults, X-Cache-Status",
                "shared/security-header-defaults.conf", "shared/security-headers.conf"),
        AGE("Age (native module)", "front/age-module.conf", "front/age-value.conf", "front/age.conf"),
        AGE_NJS("Age (njs) instead of native", "shared/njs-module.conf", "front/age-value.conf", "front/age.conf"),
        INVALIDATION("write invalidation routing (njs), stale-if-error signal",
                "shared/njs-module.conf", "front/write-route-value.conf", "front/write-route.conf", "front/write-invalidation.conf",
                "front/stale-if-error-signal.conf", "front/stale-if-error-signal-value.conf"),
        PURGE("PURGE routing", "front/cache-purge.conf"),
        VALIDATOR_PRECEDENCE("If-None-Match over If-Modified-Since (headers-more)", "front/headers-more-module.conf",
                "front/validator-precedence-value.conf", "front/validator-precedence.conf"),
        COMPRESSION("compression settings (gzip off)", "front/compression.conf"),
        REQUEST_LIMITS("request timeouts and header buffers", "shared/request-limits.conf"),
        REAL_IP("real-ip (the client's address from the balancer's X-Forwarded-For)", "shared/real-ip.conf"),
        INTERNAL_PATHS("internal paths answered 404", "shared/internal-paths.conf");

        private final String label;
        private final List<String> snippets;

        Feature(String label, String... snippets) {
            this.label = label;
            this.snippets = List.of(snippets);
        }

        public String label() {
            return label;
        }
    }

    /** The snippets every step has: the cache itself, the proxying, the workers. */
    static final List<String> BARE = List.of("shared/workers.conf", "shared/basics.conf", "shared/temp-paths.conf",
            "front/cache-zone.conf", "front/cache.conf", "shared/proxy.conf", "shared/proxy-headers.conf",
            "shared/upstream-keepalive.conf");

    /** Left out of every step: another server block, on a port of its own, that serves no HIT. */
    static final String STATUS_SERVER = "shared/status-server.conf";

    private static final Pattern INCLUDE = Pattern.compile("(?m)^\\s*include snippets/(\\S+);\\s*$");
    private static final Pattern PURGE_MODULE = Pattern.compile("(?m)^load_module \\S*cache_purge\\S*;\\s*$");
    private static final Pattern LISTEN = Pattern.compile("(?m)^(\\s*listen \\S+:)(\\d+);");

    /**
     * One step: its label, the features it has, and whether its config comes from the front
     * rendered with Age by njs rather than by the native module.
     */
    public record Step(String label, Set<Feature> features, boolean njsAge) {}

    /** The steps in the order they are measured: each adds one feature to the one before. */
    public static List<Step> ladder(boolean nativeAge, boolean njs) {
        List<Step> steps = new ArrayList<>();
        steps.add(new Step("bare proxy_cache", EnumSet.noneOf(Feature.class), !nativeAge));
        EnumSet<Feature> so = EnumSet.noneOf(Feature.class);
        for (Feature f : List.of(Feature.LIMITS, Feature.LOG, Feature.SECURITY_HEADERS)) {
            so.add(f);
            steps.add(new Step("+ " + f.label(), EnumSet.copyOf(so), !nativeAge));
        }
        if (njs) {
            EnumSet<Feature> withNjs = EnumSet.copyOf(so);
            withNjs.add(Feature.AGE_NJS);
            steps.add(new Step("+ " + Feature.AGE_NJS.label(), withNjs, true));
        }
        if (nativeAge) {
            so.add(Feature.AGE);
            steps.add(new Step("+ " + Feature.AGE.label(), EnumSet.copyOf(so), false));
        } else if (njs) {
            so.add(Feature.AGE_NJS);
        }
        for (Feature f : List.of(Feature.INVALIDATION, Feature.PURGE, Feature.VALIDATOR_PRECEDENCE, Feature.COMPRESSION,
                Feature.REQUEST_LIMITS, Feature.REAL_IP, Feature.INTERNAL_PATHS)) {
            so.add(f);
            steps.add(new Step("+ " + f.label(), EnumSet.copyOf(so), !nativeAge));
        }
        return steps;
    }

    /** Whether {@code snippet} (as included, e.g. "front/age.conf") stays in a step with {@code features}. */
    static boolean kept(String snippet, Set<Feature> features) {
        if (BARE.contains(snippet)) {
            return true;
        }
        if (snippet.equals(STATUS_SERVER)) {
            return false;
        }
        boolean known = false;
        for (Feature f : Feature.values()) {
            if (f.snippets.contains(snippet)) {
                known = true;
                if (features.contains(f)) {
                    return true;
                }
            }
        }
        if (!known) {
            // A feature the front gained since: the breakdown must name it before it can measure it.
            throw new IllegalArgumentException("the front tier includes snippets/" + snippet
                    + ", which no step of the breakdown names (HitBreakdown.Feature)");
        }
        return false;
    }

    /**
     * The production front config with only the includes of {@code features} (and the bare
     * cache's), listening on {@code port}; without the access log feature, with the log off.
     */
    static String variant(String production, Set<Feature> features, int port) {
        Matcher includes = INCLUDE.matcher(production);
        StringBuilder out = new StringBuilder();
        while (includes.find()) {
            includes.appendReplacement(out, kept(includes.group(1), features)
                    ? Matcher.quoteReplacement(includes.group()) : "");
        }
        includes.appendTail(out);
        String config = out.toString();
        // The purge module's directive serves PURGE and the purges after a write alike.
        if (!features.contains(Feature.PURGE) && !features.contains(Feature.INVALIDATION)) {
            config = PURGE_MODULE.matcher(config).replaceAll("");
        }
        if (!features.contains(Feature.LOG)) {
            // nginx logs every request to logs/access.log unless told not to.
            config = config.replaceFirst("(?m)^http \\{$", "http {\n  access_log off;");
        }
        return LISTEN.matcher(config).replaceFirst("$1" + port + ";");
    }

    /** The figures of each step over the rounds, its ratios to the bare cache's of the same round. */
    public record Outcome(List<Figure<Step>> rows, List<String> warnings) {
        /** The production front's row: the last. */
        public Figure<Step> production() {
            return rows.get(rows.size() - 1);
        }

        /** The bar's line: the production front's HIT rate over the bare cache's, round by round. */
        public String verdict() {
            return BAR.verdict("the production front", "the bare proxy_cache", "the bare cache", "HIT",
                    production().ratio(), production().medianCpuMicros() / rows.get(0).medianCpuMicros());
        }
    }

    /** The share of the bare proxy_cache's HIT rate the production front should keep (idle, median over rounds). */
    public static final Bar BAR = new Bar(0.90);

    private HitBreakdown() {
    }

    public static Outcome run(PeakOptions options, PrintWriter progress) throws IOException, InterruptedException {
        try (PeakHarness h = new PeakHarness(options, progress)) {
            boolean nativeAge = options.switches().copy().ageSource(AgeSource.AUTO).ageSourceInForce() == AgeSource.NATIVE;
            boolean njs = Files.isRegularFile(NginxRenderer.NJS_MODULE);
            if (!nativeAge) {
                h.warn("the native Age module is not built here (run ./run-tests.sh as root once): Age is by njs");
            }
            List<Step> steps = ladder(nativeAge, njs);
            OriginServer origin = h.startOrigin();
            // The back tier every step's front passes its misses to, and the production front to check the path with.
            Stack stack = h.started(Stack.around(origin, PeakRun.open(options.switches()), options.ports(),
                    options.dir().resolve("stack")));
            StackSwitches edge = edge(options.switches());
            PeakHarness.warm(stack.frontUri().resolve(options.path()));
            List<NginxServer> fronts = new ArrayList<>();
            List<URI> urls = new ArrayList<>();
            for (int i = 0; i < steps.size(); i++) {
                Step step = steps.get(i);
                NginxServer front = h.started(start(step, edge.copy().ageSource(step.njsAge() ? AgeSource.NJS
                        : AgeSource.NATIVE), options.ports(), options.dir().resolve("step-" + i)));
                fronts.add(front);
                URI url = URI.create("http://" + Ports.LOOPBACK + ":" + front.port()).resolve(options.path());
                if (!h.warmedByOrigin(url)) {
                    throw new IOException(url + " still reaches the origin after 5 requests: give --url a cacheable path");
                }
                urls.add(url);
            }
            PeakHarness.Tally<Step> tally = new PeakHarness.Tally<>();
            long originBefore = h.originRequests();
            h.rounds(round -> {
                // Each round starts one step later: a drift within a round (the machine, wrk) falls on
                // every step in turn, not always on the last ones.
                for (int i : PeakHarness.inTurn(IntStream.range(0, steps.size()).boxed().toList(), round)) {
                    h.say("  round %d: %-64s %s%n", round, steps.get(i).label(), urls.get(i));
                    tally.add(steps.get(i), h.wrk(urls.get(i), null, "step" + i + "-" + round, fronts.get(i).pid()));
                }
                tally.ratios(steps.get(0), steps);
            });
            long reached = h.originRequests() - originBefore;
            if (reached > 0) {
                h.warn(reached + " requests of the HIT runs reached the origin: some steps measured misses");
            }
            List<Figure<Step>> rows = steps.stream().map(tally::figure).toList();
            for (Figure<Step> row : rows) {
                if (row.non2xx() > 0) {
                    h.warn(row.key().label() + ": " + row.non2xx() + " responses were not 2xx/3xx");
                }
            }
            return new Outcome(rows, h.warnings());
        }
    }

    /**
     * The front every step is cut from: the production front as an edge behind the balancer
     * (--edges 2), so that it has real-ip too; its status server, which serves no HIT, is left out.
     */
    static StackSwitches edge(StackSwitches switches) {
        return PeakRun.open(switches).edges(2);
    }

    /** Renders the production front for the step's Age, keeps the step's includes, checks and starts it. */
    private static NginxServer start(Step step, StackSwitches switches, TierPorts stackPorts, Path prefix)
            throws IOException, InterruptedException {
        return prepared(step, switches, stackPorts, prefix, UnaryOperator.identity()).start();
    }

    /**
     * The step's front, rendered, cut to the step's includes, changed by {@code then} (e.g. to one
     * process for callgrind) and checked, not started.
     */
    static NginxServer prepared(Step step, StackSwitches switches, TierPorts stackPorts, Path prefix,
            UnaryOperator<String> then) throws IOException, InterruptedException {
        int port = Ports.free();
        TierPorts ports = new StepPorts(stackPorts, port, Ports.free());
        Path file = new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, switches.spec(ports), prefix.resolve("conf"));
        Files.writeString(file, then.apply(variant(Files.readString(file), step.features(), port)));
        NginxServer front = NginxServer.of("front (" + step.label() + ")", prefix, Tier.FRONT.template(), port);
        front.check(file);
        return front;
    }

    /** A step's front: its own port (and status port, unused), the stack's back tier and origin. */
    private record StepPorts(TierPorts stack, int front, int frontStatus) implements TierPorts {
        @Override public String listen() { return Ports.LOOPBACK; }
        @Override public int back() { return stack.back(); }
        @Override public int origin() { return stack.origin(); }
        @Override public int backStatus() { return stack.backStatus(); }
        @Override public List<Integer> edgePorts(int n) { return stack.edgePorts(n); }
        @Override public TierPorts edge(int i, int n) { return new StepPorts(stack, edgePorts(n).get(i), frontStatus); }
        @Override public List<String> flags() { return List.of("--front-port", String.valueOf(front)); }
    }

    /** The table: each step's requests/s and CPU per HIT, as ratios to the bare cache, and what the step added. */
    public static String table(Outcome outcome) {
        StringBuilder s = new StringBuilder();
        s.append("ratio: requests/s over the bare cache's in the same round; cpu us: nginx's CPU per HIT; cpu ratio:"
                + " the bare cache's CPU per HIT over the step's; step: the CPU per HIT the step added to the one it"
                + " builds on, as a share of the bare cache's, round by round (median; a step above 3 % is marked *);"
                + " model: the shared-CPU model's requests/s for the step's own CPU per request (docs/capacity.md).\n");
        s.append(String.format(Locale.ROOT, "%-66s %10s %6s %7s %9s %7s %10s %7s%n", "front tier, HIT path", "requests/s",
                "ratio", "cpu us", "cpu ratio", "step", "model", "vs"));
        List<Figure<Step>> rows = outcome.rows();
        for (int i = 0; i < rows.size(); i++) {
            Figure<Step> row = rows.get(i);
            String step = "";
            if (i > 0) {
                double cost = stepCost(rows, i);
                step = String.format(Locale.ROOT, "%+.0f%%", cost * 100) + (cost > 0.03 ? " *" : "");
            }
            s.append(String.format(Locale.ROOT, "%-66s %10.0f %6.2f %7.1f %9.2f %7s %s%n", row.key().label(),
                    row.medianRequestsPerSecond(), row.medianRatio(), row.medianCpuMicros(), row.medianCpuRatio(), step,
                    Figure.modelColumns(row)));
        }
        s.append(outcome.verdict()).append(System.lineSeparator());
        return s.toString();
    }

    /**
     * What step {@code i} added to the CPU per HIT of the step it builds on, over the bare cache's, as
     * the median over rounds of each round's own difference: a round's drift cancels out, where a
     * difference of medians keeps it. The njs Age stands beside the native one, so the step after it
     * builds on the step before it.
     */
    static double stepCost(List<Figure<Step>> rows, int i) {
        int previous = i - 1;
        if (previous > 0 && rows.get(previous).key().features().contains(Feature.AGE_NJS)
                && !rows.get(i).key().features().contains(Feature.AGE_NJS)) {
            previous--;
        }
        List<Double> costs = new ArrayList<>();
        for (int round = 0; round < rows.get(i).cpuMicros().size(); round++) {
            costs.add((rows.get(i).cpuMicros().get(round) - rows.get(previous).cpuMicros().get(round))
                    / rows.get(0).cpuMicros().get(round));
        }
        return new Spread(costs).median();
    }

    /** For the README: the same figures as a Markdown table. */
    public static String markdown(Outcome outcome) {
        StringBuilder s = new StringBuilder("| front tier, HIT path | requests/s | ratio | nginx CPU per HIT | cpu ratio | step |\n"
                + "| --- | --- | --- | --- | --- | --- |\n");
        List<Figure<Step>> rows = outcome.rows();
        for (int i = 0; i < rows.size(); i++) {
            Figure<Step> row = rows.get(i);
            s.append(String.format(Locale.ROOT, "| %s | %.0f | %.2f | %.1f us | %.2f | %s |%n", row.key().label(),
                    row.medianRequestsPerSecond(), row.medianRatio(), row.medianCpuMicros(), row.medianCpuRatio(),
                    i == 0 ? "" : String.format(Locale.ROOT, "%+.0f %%", stepCost(rows, i) * 100)));
        }
        return s.toString();
    }
}
