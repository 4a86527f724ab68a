package dev.ratecache.suite.edge;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.suite.switches.LimitMode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Both tiers in HAProxy (Debian's 2.6), from the templates in haproxy/: a front with the
 * per-client limit and the cache, a back with the origin's limit, each its own process.
 */
public final class HaproxyEdge implements Edge {
    /** The cache section's max-age (snippets/front/cache-store.cfg): a day, so the origin's Cache-Control decides. */
    public static final long CACHE_MAX_AGE_SEC = 86_400;

    /** HAProxy's cache counts its size in megabytes, in 12 bits. */
    static final long MAX_CACHE_MB = 4095;
    private static final long MB = 1 << 20;
    /** How long a soft stop may take; a stream still running then is cut, as by a hard stop. */
    private static final Duration SOFT_STOP = Duration.ofSeconds(15);

    private final ProductTemplates templates;

    /** {@code templates}: the haproxy/ folder of the checkout. */
    public HaproxyEdge(Path templates) {
        this.templates = new ProductTemplates(templates);
    }

    /** HAPROXY_BIN when set, else haproxy on PATH, else Debian's. */
    public static String binary() {
        return Executables.find("haproxy", "HAPROXY_BIN", "/usr/sbin/haproxy");
    }

    @Override
    public String name() {
        return "haproxy";
    }

    @Override
    public Optional<String> notInstalled() {
        return Executables.runnable(binary()) ? Optional.empty() : Optional.of("haproxy is not installed ("
                + binary() + "): sudo apt-get install -y haproxy");
    }

    @Override
    public String version() throws IOException, InterruptedException {
        return ManagedProcess.run(List.of(binary(), "-v"), Duration.ofSeconds(30)).text().lines().findFirst().orElse("")
                .strip();
    }

    /**
     * HAProxy's cache section and nothing else, with the spec's workers as its threads: HAProxy's own
     * default for auto, as the full edge's config leaves them.
     */
    @Override
    public Optional<BareForm> bareForm() {
        return Optional.of(BareForm.of("HAProxy's cache and nothing else",
                (spec, dir, port) -> BareHaproxyCache.start(dir, BareHaproxyCache.threads(spec.tuning().workers()), port,
                        spec.ports().back())));
    }

    /**
     * The rendered front.cfg and the bare cache's config, each with one thread (so that one process's
     * count is the whole HIT) and on a free port, in front of the running back tier.
     */
    @Override
    public Optional<CountedForms> countedForms() {
        return Optional.of(new CountedForms() {
            @Override
            public double bound() {
                return COUNTED_BOUND;
            }

            @Override
            public List<CountedForms.OneProcess> write(StackSpec spec, Path dir) throws IOException {
                Files.createDirectories(dir);
                int frontPort = Ports.free();
                String front = Files.readString(render(spec, dir).get(0));
                String bind = "bind " + spec.ports().listen() + ":" + spec.ports().front();
                if (!front.contains(bind) || !front.contains("\nglobal\n")) {
                    throw new IOException("front.cfg has no '" + bind + "' or no global section to count it by");
                }
                Path frontFile = dir.resolve("front-one-thread.cfg");
                Files.writeString(frontFile, front.replace(bind, "bind " + Ports.LOOPBACK + ":" + frontPort)
                        .replace("\nglobal\n", "\nglobal\n  nbthread 1\n"));
                int barePort = Ports.free();
                Path bareFile = dir.resolve("bare-one-thread.cfg");
                Files.writeString(bareFile, BareHaproxyCache.config(1, barePort, spec.ports().back()));
                return List.of(new CountedForms.OneProcess(BareHaproxyCache.command(frontFile), frontPort),
                        new CountedForms.OneProcess(BareHaproxyCache.command(bareFile), barePort));
            }
        });
    }

    /**
     * {@link #countedForms}' bound: the full front's instructions per HIT over the bare cache's,
     * measured 2026-11-30 at 1.67 and 1.68 (about 48,000 against 28,600), so that a rule adding a
     * sixteenth of the bare cache's work to a HIT breaks it.
     */
    public static final double COUNTED_BOUND = 1.74;

    @Override
    public Set<Capability> capabilities() {
        // HAProxy's stick tables can be keyed by anything a request carries.
        return EnumSet.of(Capability.NODELAY, Capability.CACHE, Capability.PER_KEY_LIMITS, Capability.RETRY_AFTER);
    }

    /** Of {@link StackSpec#nginxOnlyFlags()}, those this adapter renders. */
    private static final Set<String> RENDERS = Set.of("--tls", "--limit-conn", "--freshness", "--tiers", "--limit-scope misses");

    /** Which tier each key of --tiers is in, under the render folder. */
    static final String TIERS_MAP = "tiers.map";
    /** The tier unknown keys and keyless requests fall into, as nginx's edge names it. */
    private static final String ANONYMOUS = "anonymous";

    /** The back's lifetimes per path (--freshness), under the render folder. */
    static final String FRESHNESS_MAP = "freshness.map";

    /** Where the front's certificate, its intermediates and its key go, in one PEM, under the render folder. */
    static final String TLS_PEM = "tls/haproxy.pem";

    @Override
    public String slowClientBound(SlowClient attack, StackSpec spec) {
        String perClient = spec.front().map(l -> "the per-client limit, " + l.rate() + " r/s")
                .orElse("no per-client limit");
        // haproxy/snippets/shared/process.cfg: fixed, not --client-timeout's.
        return switch (attack) {
            case HEADERS -> "timeout http-request 10s, for the whole header";
            case BODY -> "timeout client 10s of silence (the body is passed on as it comes); " + perClient;
            case READ -> "timeout client 10s of silence; " + perClient;
        };
    }

    @Override
    public Optional<String> refusal(StackSpec spec) {
        return lacking(spec, Capability.QUOTA)
                .or(() -> spec.notRenderedBy("HAProxy", RENDERS))
                .or(() -> lacking(spec, Capability.QUEUE_DELAY, Capability.STALE_IF_ERROR, Capability.FLEET))
                .or(() -> spec.cache().on() && megabytes(spec) > MAX_CACHE_MB
                        ? Optional.of("HAProxy's cache holds at most " + MAX_CACHE_MB + " MB (total-max-size): give"
                                + " --cache-size " + MAX_CACHE_MB + "m or less")
                        : Optional.empty());
    }

    @Override
    public Optional<String> whyNot(Capability lacking, StackSpec spec) {
        return switch (lacking) {
            case QUEUE_DELAY -> {
                if (spec.queues()) {
                    yield Optional.of("HAProxy's rate limit rejects and never queues or delays " + spec.queueingFlagsAndFix()
                            + ", or use --edge nginx");
                }
                List<String> queuedTiers = spec.front().isEmpty() ? List.of() : spec.queueingTiers();
                yield queuedTiers.isEmpty() ? Optional.empty() : Optional.of("HAProxy's rate limit rejects and never"
                        + " queues or delays (--tiers: " + String.join(", ", queuedTiers) + "): give each tier nodelay in"
                        + " the tiers file, or use --edge nginx");
            }
            // --stale protective serves stale on an error whatever the origin allows: HAProxy serves none.
            case STALE_IF_ERROR -> spec.cache().on() && spec.cache().stale() == StackSpec.Stale.PROTECTIVE
                    ? Optional.of("HAProxy's cache cannot serve stale content (haproxy#214): drop --stale protective,"
                            // Varnish serves stale too, but only as the origin allows (its edge refuses protective).
                            + " or use --edge nginx")
                    : Optional.empty();
            case FLEET -> spec.edges() > 1 ? Optional.of("HAProxy cannot hold one per-client limit across --edges "
                    + spec.edges() + ": its peers replicate stick-table values, they do not sum them; give --edges 1, or"
                    + " use --edge nginx") : Optional.empty();
            default -> Edge.super.whyNot(lacking, spec);
        };
    }

    private static long megabytes(StackSpec spec) {
        return Math.max(1, (spec.cache().bytes() + MB - 1) / MB);
    }

    /**
     * nginx's rate R and burst B as HAProxy's sliding window: a threshold of B+1 requests (what
     * nginx passes at once from an idle bucket) over (B+1)/R seconds, whose sliding out frees R a
     * second, nginx's refill; in whole milliseconds, HAProxy's ticks. The entry is kept two
     * periods, after which the window is empty anyway (see model's HaproxyReqRate).
     */
    record Window(int rate, int burst, long threshold, long periodMs, long expireMs) {
        static Window of(StackSpec.Limit limit) {
            long threshold = limit.burst() + 1L;
            long period = Math.max(1, Math.round(threshold * 1000.0 / limit.rate()));
            return new Window(limit.rate(), limit.burst(), threshold, period, 2 * period);
        }
    }

    @Override
    public List<Path> render(StackSpec spec, Path dir) throws IOException {
        Files.createDirectories(dir);
        if (spec.tls().isPresent()) {
            writePem(spec, dir.resolve(TLS_PEM));
        }
        if (!spec.cache().freshness().isEmpty()) {
            writeFreshnessMap(spec, dir.resolve(FRESHNESS_MAP));
        }
        if (!spec.tiers().isEmpty()) {
            writeTiersMap(spec, dir.resolve(TIERS_MAP));
        }
        Map<String, Object> context = context(spec, dir);
        return List.of(templates.write("front.cfg", context, dir), templates.write("back.cfg", back(spec, context), dir));
    }

    /**
     * The certificate in force and its key as one PEM, readable by its owner alone from its first
     * byte: HAProxy's crt takes both from one file. A certificate file that holds its key too
     * (given to both flags, as nginx allows) is written once.
     */
    private static void writePem(StackSpec spec, Path pem) throws IOException {
        TlsFiles files = ProductTemplates.tlsFiles(spec);
        Files.createDirectories(pem.getParent());
        Files.deleteIfExists(pem);
        try {
            Files.createFile(pem, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: the run folder's own permissions are all there is.
            Files.createFile(pem);
        }
        String certificate = Files.readString(files.certificate(), StandardCharsets.US_ASCII);
        String key = Files.isSameFile(files.certificate(), files.key()) ? ""
                : Files.readString(files.key(), StandardCharsets.US_ASCII);
        Files.writeString(pem, certificate + (certificate.endsWith("\n") ? "" : "\n") + key, StandardCharsets.US_ASCII);
    }

    /**
     * One "path seconds" line per --freshness, the path lowercased: the map is looked up with the
     * request's path lowercased, as nginx's map ignores case. The flags' check has refused a path
     * with a space.
     */
    private static void writeFreshnessMap(StackSpec spec, Path map) throws IOException {
        StringBuilder lines = new StringBuilder("# --freshness PATH=SECONDS, rendered by the suite: see snippets/back/freshness-fallback.cfg.\n");
        spec.cache().freshness().forEach((path, seconds) ->
                lines.append(path.toLowerCase(Locale.ROOT)).append(' ').append(seconds).append('\n'));
        Files.writeString(map, lines, StandardCharsets.UTF_8);
    }

    /** One "KEY TIER" line per key of --tiers: the tiers file has refused keys with spaces or a leading #. */
    private static void writeTiersMap(StackSpec spec, Path map) throws IOException {
        StringBuilder lines = new StringBuilder("# --tiers, rendered by the suite: see snippets/shared/client-limit.cfg.\n");
        spec.tiers().forEach(t -> t.keys().forEach(k -> lines.append(k).append(' ').append(t.name()).append('\n')));
        Files.writeString(map, lines, StandardCharsets.UTF_8);
    }

    /**
     * Each tier a keyed request may be counted in: with --tiers, the file's tiers but anonymous,
     * each in its own table, then anonymous in {@code anonymousTable} (the tier's frontend's own when
     * empty); without, the front's limit alone.
     */
    private static List<Map<String, Object>> limitTiers(StackSpec spec, String anonymousTable) {
        List<Map<String, Object>> all = new ArrayList<>();
        if (spec.tiers().isEmpty()) {
            spec.front().ifPresent(front -> all.add(Map.of("table", anonymousTable, "condition", "",
                    "threshold", Window.of(front).threshold())));
            return all;
        }
        for (StackSpec.KeyTier t : spec.tiers()) {
            if (!t.name().equals(ANONYMOUS)) {
                all.add(Map.of("table", " table limit_tier_" + t.name(), "condition", tierCondition(t.name()),
                        "threshold", Window.of(t.limit()).threshold()));
            }
        }
        spec.anonymousLimit().ifPresent(a -> all.add(Map.of("table", anonymousTable, "condition", tierCondition(ANONYMOUS),
                "threshold", Window.of(a).threshold())));
        return all;
    }

    private static String tierCondition(String tier) {
        return " { var(txn.limit_tier) -m str " + tier + " }";
    }

    /** The tables of the tiers but anonymous, each its own window. */
    private static List<Map<String, Object>> tierTables(StackSpec spec) {
        return spec.tiers().stream().filter(t -> !t.name().equals(ANONYMOUS)).map(t -> {
            Window w = Window.of(t.limit());
            return Map.<String, Object>of("name", t.name(), "rate", w.rate(), "burst", w.burst(),
                    "threshold", w.threshold(), "periodMs", w.periodMs(), "expireMs", w.expireMs());
        }).toList();
    }

    /**
     * The back tier's context: with --limit-scope misses the per-client limit is counted there, on
     * the client's address the front appended to X-Forwarded-For and the key it passed in
     * X-Limit-Key, each believed only from the front; the anonymous tier's table is a backend of
     * its own, as the frontend's holds the origin's limit.
     */
    private static Map<String, Object> back(StackSpec spec, Map<String, Object> front) {
        Map<String, Object> c = new LinkedHashMap<>(front);
        boolean clientsHere = spec.front().isPresent() && spec.scope() == LimitScope.MISSES;
        c.put("clientsHere", clientsHere);
        c.put("originCounter", clientsHere ? 2 : 0);
        c.put("ownTable", false);
        c.put("addr", "var(txn.client)");
        c.put("addrMatch", "var(txn.client) -m ip");
        c.put("anonymousTable", " table per_client");
        c.put("keyAtEdge", false);
        c.put("keySample", "req.fhdr(x-limit-key,1)");
        c.put("keyTrust", " if from_front");
        c.put("frontAddress", Ports.LOOPBACK);
        c.put("limitTiers", limitTiers(spec, " table per_client"));
        return c;
    }

    private static Map<String, Object> context(StackSpec spec, Path dir) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("tls", spec.tls().map(t -> List.of(tls(t, spec, dir))).orElse(List.of()));
        c.put("listen", spec.ports().listen());
        c.put("frontPort", spec.ports().front());
        c.put("backPort", spec.ports().back());
        c.put("readTimeout", spec.readTimeout());
        c.put("rejectStatus", spec.rejectStatus());
        c.put("retryAfter", spec.retryAfter());
        c.put("frontLimit", spec.anonymousLimit().map(Window::of).map(List::of).orElse(List.of()));
        boolean atBack = spec.scope() == LimitScope.MISSES;
        c.put("atFront", !atBack);
        c.put("atBack", atBack);
        c.put("ownTable", true);
        c.put("addr", "src");
        c.put("addrMatch", "src");
        c.put("anonymousTable", "");
        c.put("keyAtEdge", true);
        c.put("keyTrust", "");
        c.put("limitTiers", limitTiers(spec, ""));
        c.put("tierTables", tierTables(spec));
        c.put("tiersMap", spec.tiers().isEmpty() ? List.of()
                : List.of(Map.of("path", dir.resolve(TIERS_MAP).toAbsolutePath().toString())));
        StackSpec.Key key = spec.key();
        c.put("keyed", !key.byAddress());
        c.put("keyWhere", key.byAddress() ? "address" : "key (" + key.where() + "), with a ceiling by address");
        c.put("keySample", keySample(key));
        c.put("keyPattern", key.pattern());
        // "k" and the key.
        c.put("keyLength", StackSpec.MAX_KEY_BYTES + 1);
        c.put("maxKeyBytes", StackSpec.MAX_KEY_BYTES);
        c.put("byArg", key.source() == StackSpec.Source.ARG);
        c.put("missingReject", spec.missing() == StackSpec.Missing.REJECT);
        c.put("missingBody", key.missingBody());
        c.put("challenge", key.challenge());
        c.put("ceiling", spec.ceiling().map(Window::of).map(List::of).orElse(List.of()));
        c.put("allow", spec.allow().isEmpty() ? List.of() : List.of(Map.of("cidrs", String.join(" ", spec.allow()))));
        c.put("exemptCondition", spec.allow().isEmpty() ? "" : " !limit_exempt");
        c.put("backLimit", spec.back().map(Window::of).map(List::of).orElse(List.of()));
        c.put("limitConn", spec.limitConn() > 0 ? List.of(Map.of("requests", spec.limitConn())) : List.of());
        c.put("freshness", spec.cache().freshness().isEmpty() ? List.of()
                : List.of(Map.of("freshnessMap", dir.resolve(FRESHNESS_MAP).toAbsolutePath().toString())));
        c.put("cache", spec.cache().on() ? List.of(Map.of("megabytes", megabytes(spec))) : List.of());
        List<URI> origins = spec.origins();
        c.put("origins", IntStream.range(0, origins.size())
                .mapToObj(i -> Map.of("index", i + 1, "hostPort", origins.get(i).getHost() + ":" + ProductTemplates.port(origins.get(i))))
                .toList());
        return c;
    }

    private static Map<String, Object> tls(StackSpec.Tls tls, StackSpec spec, Path dir) {
        Map<String, Object> t = new LinkedHashMap<>();
        // Absolute: HAProxy reads crt against its working directory, which a check by hand need not share.
        t.put("pem", dir.resolve(TLS_PEM).toAbsolutePath().toString());
        t.put("http2", tls.http2());
        t.put("hsts", tls.hsts());
        t.put("redirect", tls.httpPort() == 0 ? List.of() : List.of(Map.of("httpPort", tls.httpPort(),
                "portSuffix", spec.ports().front() == 443 ? "" : ":" + spec.ports().front())));
        return t;
    }

    /** Where HAProxy reads the key: the first header whole, the first cookie, the undecoded query argument. */
    private static String keySample(StackSpec.Key key) {
        return switch (key.source()) {
            case ADDR -> "src";
            case HEADER -> "req.fhdr(" + key.name() + ",1)";
            case COOKIE -> "req.cook(" + key.name() + ")";
            case ARG -> "url_param(" + key.name() + ")";
        };
    }

    /**
     * Renders both tiers, then starts the back and the front ({@link ProductTemplates#backThenFront}); each
     * tier's access log is DIR/TIER-access.log ({@link HaproxyLog}).
     */
    @Override
    public Running start(StackSpec spec, Path dir) throws IOException {
        List<Path> files = render(spec, dir);
        return ProductTemplates.backThenFront(spec,
                () -> tier("back", files.get(1), dir, Ports.LOOPBACK, spec.ports().back()),
                () -> tier("front", files.get(0), dir, spec.ports().listen(), spec.ports().front()),
                // A soft stop: HAProxy stops listening, lets each stream end, logging it, and exits in about a
                // second; a hard stop (SIGTERM) right after a response reached the client lost that request's
                // log line about one time in twenty here.
                ProductTemplates.gracefully("USR1", SOFT_STOP),
                () -> HaproxyLog.read(accessLog(dir, "front")), () -> HaproxyLog.read(accessLog(dir, "back")));
    }

    /** The access log of {@code tier} (front, back) of tiers started in {@code dir}, written as each request ends. */
    public static Path accessLog(Path dir, String tier) {
        return dir.resolve(tier + "-access.log");
    }

    private static ManagedProcess tier(String name, Path config, Path dir, String address, int port) throws IOException {
        // -db: stay in the foreground, so the PID the suite holds is HAProxy's own. Its standard
        // output is the access log (snippets/shared/logging.cfg); its messages go to TIER.log.
        return ProductTemplates.startTier("haproxy", name, List.of(binary(), "-db", "-f", config.toString()), dir, address,
                port, accessLog(dir, name));
    }


    @Override
    public String displayName() {
        return "HAProxy";
    }

    @Override
    public String limiter() {
        return "sliding-window counter (http_req_rate)";
    }

    /** track-sc0 counts the request before the deny rule reads the rate (HaproxyReqRate). */
    @Override
    public boolean limiterCountsDenials() {
        return true;
    }

    /** Nodelay whatever {@code mode} says: {@link #refusal} turns away any other. */
    @Override
    public LimitSpec limiterModel(int rate, int burst, LimitMode mode, int status) {
        return LimitSpec.haproxy(rate, burst, status);
    }

    @Override
    public EdgeCacheSpec cacheModel(StackSpec spec) {
        return EdgeCacheSpec.haproxy(CACHE_MAX_AGE_SEC);
    }

    /**
     * HAProxy has no status page: each tier's access log, which HAProxy writes as each request
     * ends. A tier's count is then of requests that ended, where nginx's stub_status counts them as
     * they are read: a slow request counts a line later than nginx's would.
     */
    @Override
    public LiveCounters liveCounters(Edge.Running tiers, StackSpec spec, Path dir, int rejectStatus) {
        return liveCounters(accessLog(dir, "front"), accessLog(dir, "back"), rejectStatus);
    }

    static LiveCounters liveCounters(Path frontAccessLog, Path backAccessLog, int rejectStatus) {
        AccessLogTail frontLog = new AccessLogTail(frontAccessLog, rejectStatus, AccessLogTail.HAPROXY);
        AccessLogTail backLog = new AccessLogTail(backAccessLog, rejectStatus, AccessLogTail.HAPROXY);
        long[] totals = new long[2];
        return new LiveCounters() {
            @Override public Reading read() throws IOException {
                AccessLogTail.Counts front = frontLog.read();
                totals[0] += front.responses();
                totals[1] += backLog.read().responses();
                return new Reading(java.util.OptionalLong.of(totals[0]), java.util.OptionalLong.of(totals[1]), front);
            }

            @Override public String source() {
                return "HAProxy has no status page: each tier's access log, whose requests count as they end";
            }
        };
    }

    @Override
    public String runFolderGuide() {
        return "haproxy/front.cfg, back.cfg: rendered configs; haproxy/front-access.log, back-access.log: access logs;"
                + " haproxy/front.log, back.log: HAProxy's messages; origin.log";
    }
}
