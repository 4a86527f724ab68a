package dev.ratecache.suite.edge;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.switches.LimitMode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * Both tiers in Varnish (Debian's 7.1, with varnish-modules 0.20 for vsthrottle), from the
 * templates in varnish/: a front with the per-client limit, the cache, grace and purge, a back
 * with the origin's limit, each its own varnishd.
 */
public final class VarnishEdge implements Edge {
    private static final long MB = 1 << 20;
    /** The tier of every key no tier lists, and of a request without one (nginx's LimitTier.ANONYMOUS). */
    private static final String ANONYMOUS = "anonymous";

    private final ProductTemplates templates;

    /** {@code templates}: the varnish/ folder of the checkout. */
    public VarnishEdge(Path templates) {
        this.templates = new ProductTemplates(templates);
    }

    /** VARNISHD_BIN when set, else varnishd on PATH, else Debian's. */
    public static String binary() {
        return Executables.find("varnishd", "VARNISHD_BIN", "/usr/sbin/varnishd");
    }

    @Override
    public String name() {
        return "varnish";
    }

    @Override
    public Optional<String> notInstalled() {
        return Executables.runnable(binary()) ? Optional.empty() : Optional.of("varnishd is not installed ("
                + binary() + "): sudo apt-get install -y varnish varnish-modules");
    }

    @Override
    public String version() throws IOException, InterruptedException {
        return ManagedProcess.run(List.of(binary(), "-V"), Duration.ofSeconds(30)).text().lines().findFirst().orElse("")
                .strip();
    }

    /** varnish/peak-bare.vcl: the built-in VCL with a backend and a TTL cap, its storage the full edge's cache size. */
    @Override
    public Optional<BareForm> bareForm() {
        return Optional.of(BareForm.of("varnish/peak-bare.vcl, the built-in VCL with a backend and a TTL cap",
                (spec, dir, port) -> VarnishBare.start(templates.folder(), dir, port, spec.ports().back(),
                        Math.max(1, (spec.cache().bytes() + MB - 1) / MB))));
    }

    @Override
    public Set<Capability> capabilities() {
        // STALE_IF_ERROR through grace, with the difference varnish/snippets/front/grace.vcl names;
        // PER_KEY_LIMITS: vsthrottle takes any string as its key.
        return EnumSet.of(Capability.NODELAY, Capability.CACHE, Capability.STALE_WHILE_REVALIDATE, Capability.STALE_IF_ERROR,
                Capability.CACHE_LOCK, Capability.PURGE, Capability.PER_KEY_LIMITS, Capability.RETRY_AFTER);
    }

    /** Of {@link StackSpec#nginxOnlyFlags()}, those this adapter renders. */
    private static final java.util.Set<String> RENDERS = java.util.Set.of("--limit-conn", "--freshness", "--tiers",
            "--limit-scope misses");

    @Override
    public String slowClientBound(SlowClient attack, StackSpec spec) {
        String perClient = spec.front().map(l -> "vsthrottle " + l.rate() + " r/s per client").orElse("no per-client limit");
        // The suite passes varnishd none of these parameters: its defaults stand.
        return switch (attack) {
            case HEADERS -> "timeout_idle 5s and timeout_req 2s (varnishd's defaults)";
            case BODY -> "timeout_idle 5s (varnishd's default) while std.cache_req_body reads it; " + perClient;
            case READ -> "idle_send_timeout 60s between two writes, send_timeout 600s in all (varnishd's defaults); "
                    + perClient;
        };
    }

    @Override
    public Optional<String> refusal(StackSpec spec) {
        return lacking(spec, Capability.QUOTA)
                .or(() -> spec.tls().isPresent()
                        ? Optional.of("Varnish cannot terminate TLS: Varnish Cache has no TLS of its own, and its authors"
                                + " put a TLS proxy such as hitch in front of it"
                                + " (https://varnish-cache.org/docs/7.1/phk/ssl_again.html); drop --tls, or use --edge nginx")
                        : Optional.empty())
                .or(() -> spec.notRenderedBy("Varnish", RENDERS))
                .or(() -> lacking(spec, Capability.QUEUE_DELAY))
                // Varnish serves stale content, but only in the grace the origin allows.
                .or(() -> spec.cache().on() && spec.cache().stale() == StackSpec.Stale.PROTECTIVE
                        ? Optional.of("The Varnish edge serves stale content only in the grace the origin's"
                                + " stale-while-revalidate and stale-if-error allow: drop --stale protective, or use"
                                + " --edge nginx")
                        : Optional.empty())
                .or(() -> lacking(spec, Capability.FLEET));
    }

    @Override
    public Optional<String> whyNot(Capability lacking, StackSpec spec) {
        return switch (lacking) {
            case QUEUE_DELAY -> {
                if (spec.queues()) {
                    yield Optional.of("Varnish's vsthrottle only rejects and never queues or delays "
                            + spec.queueingFlagsAndFix() + ", or use --edge nginx");
                }
                List<String> queueingTiers = spec.queueingTiers();
                yield queueingTiers.isEmpty() ? Optional.empty() : Optional.of("Varnish's vsthrottle only rejects and"
                        + " never queues or delays (--tiers: " + String.join(", ", queueingTiers) + "): give those tiers"
                        + " the mode nodelay, or use --edge nginx");
            }
            case FLEET -> spec.edges() > 1 ? Optional.of("Varnish cannot hold one per-client limit across --edges "
                    + spec.edges() + ": each varnishd keeps its own vsthrottle buckets, in its own memory; give --edges"
                    + " 1, or use --edge nginx") : Optional.empty();
            default -> Edge.super.whyNot(lacking, spec);
        };
    }

    /**
     * nginx's rate R and burst B as vsthrottle's token bucket: a limit of B+1 tokens (what nginx
     * passes at once from an idle bucket) refilled over (B+1)/R seconds, R a second, nginx's
     * refill; in whole milliseconds, so that the period is exact for any rate up to 1000 r/s.
     */
    record Bucket(int rate, int burst, long limit, long periodMs) {
        static Bucket of(StackSpec.Limit limit) {
            long tokens = limit.burst() + 1L;
            return new Bucket(limit.rate(), limit.burst(), tokens, Math.max(1, Math.round(tokens * 1000.0 / limit.rate())));
        }
    }

    @Override
    public List<Path> render(StackSpec spec, Path dir) throws IOException {
        Files.createDirectories(dir);
        // The per-client limit is the edge's, or with --limit-scope misses the back tier's, behind the cache.
        boolean misses = spec.scope() == LimitScope.MISSES;
        boolean atFront = spec.front().isPresent() && !misses;
        boolean atBack = spec.front().isPresent() && misses;
        List<Bucket> clientLimit = spec.front().map(Bucket::of).map(List::of).orElse(List.of());
        Map<String, Object> front = context(spec);
        front.put("directors", false);
        front.put("clientLimit", atFront ? clientLimit : List.of());
        front.put("passKey", atBack && !spec.key().byAddress());
        front.put("throttled", atFront || spec.limitConn() > 0);
        front.put("connLimit", spec.limitConn() > 0 ? List.of(Map.of("limit", spec.limitConn())) : List.of());
        front.put("cookieKey", spec.front().isPresent() && spec.key().source() == StackSpec.Source.COOKIE);
        front.put("tiered", atFront && !spec.tiers().isEmpty());
        front.put("keySnippet", "snippets/front/limit-key.vcl");
        front.put("clientAddress", "client.ip");
        front.put("logPassed", true);
        Map<String, Object> back = context(spec);
        back.put("directors", true);
        back.put("clientLimit", atBack ? clientLimit : List.of());
        back.put("cookieKey", false);
        back.put("tiered", atBack && !spec.tiers().isEmpty());
        back.put("throttled", spec.back().isPresent() || atBack);
        back.put("connLimit", List.of());
        back.put("keySnippet", "snippets/back/passed-limit-key.vcl");
        // Behind the edge the client's address is a string (client.identity); the 401 of a missing key is the edge's.
        back.put("clientAddress", "std.ip(client.identity, \"0.0.0.0\", resolve = false)");
        back.put("missingReject", false);
        back.put("logPassed", spec.back().isEmpty());
        back.put("edgeAddress", Ports.LOOPBACK);
        back.put("hasFreshness", !spec.cache().freshness().isEmpty());
        // Lower case, as the VCL compares the request's path: nginx's map compares strings ignoring case.
        back.put("freshness", spec.cache().freshness().entrySet().stream()
                .map(e -> Map.of("path", e.getKey().toLowerCase(java.util.Locale.ROOT), "seconds", e.getValue())).toList());
        return List.of(templates.write("front.vcl", front, dir), templates.write("back.vcl", back, dir));
    }

    private static Map<String, Object> context(StackSpec spec) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("backPort", spec.ports().back());
        c.put("readTimeout", spec.readTimeout());
        c.put("rejectStatus", spec.rejectStatus());
        c.put("retryAfter", spec.retryAfter());
        c.put("frontLimit", spec.front().map(Bucket::of).map(List::of).orElse(List.of()));
        StackSpec.Key key = spec.key();
        c.put("keyed", !key.byAddress());
        c.put("keyWhere", key.byAddress() ? "address" : "key (" + key.where() + "), with a ceiling by address");
        c.put("keyName", key.name());
        c.put("byHeader", key.source() == StackSpec.Source.HEADER);
        c.put("byCookie", key.source() == StackSpec.Source.COOKIE);
        c.put("byArg", key.source() == StackSpec.Source.ARG);
        // The first NAME= of the query, whole parameters skipped lazily up to it.
        c.put("argPresent", "^[^?]*\\?([^&]*&)*" + key.name() + "=");
        c.put("argValue", "^[^?]*\\?(?:[^&]*&)*?" + key.name() + "=([^&]*).*$");
        c.put("keyPattern", key.pattern());
        c.put("maxKeyBytes", StackSpec.MAX_KEY_BYTES);
        c.put("throttleKey", key.byAddress() ? "client.identity" : "req.http.X-Ratecache-Key");
        c.put("missingReject", spec.missing() == StackSpec.Missing.REJECT);
        c.put("missingBody", key.missingBody());
        c.put("challenge", key.challenge());
        c.put("keyTiers", keyTiers(spec));
        c.put("ceiling", spec.ceiling().map(Bucket::of).map(List::of).orElse(List.of()));
        c.put("allow", spec.allow().isEmpty() ? List.of()
                : List.of(Map.of("acls", spec.allow().stream().map(a -> Map.of("acl", acl(a))).toList())));
        c.put("backLimit", spec.back().map(Bucket::of).map(List::of).orElse(List.of()));
        c.put("cache", spec.cache().on() ? List.of(Map.of()) : List.of());
        c.put("purgeAllow", spec.purgeAllow().stream().map(a -> Map.of("acl", acl(a))).toList());
        List<URI> origins = spec.origins();
        c.put("origins", IntStream.range(0, origins.size())
                .mapToObj(i -> Map.of("index", i + 1, "host", origins.get(i).getHost(), "port", ProductTemplates.port(origins.get(i))))
                .toList());
        return c;
    }

    /**
     * The tiers of keys (--tiers) as the VCL finds and limits them: the file's, then anonymous at the
     * front's limit unless the file has a line of that name, as nginx's edge has them. A tier's keys
     * are one string, each key with the "k" of a valid key's bucket and a space either side.
     */
    private static List<Map<String, Object>> keyTiers(StackSpec spec) {
        List<StackSpec.KeyTier> tiers = new java.util.ArrayList<>(spec.tiers());
        if (spec.front().isPresent() && tiers.stream().noneMatch(t -> t.name().equals(ANONYMOUS))) {
            tiers.add(new StackSpec.KeyTier(ANONYMOUS, spec.front().get(), List.of()));
        }
        return tiers.stream().map(t -> {
            Bucket b = Bucket.of(t.limit());
            return Map.<String, Object>of("name", t.name(), "rate", b.rate(), "burst", b.burst(), "limit", b.limit(),
                    "periodMs", b.periodMs(), "listed", t.keys().isEmpty() ? List.of()
                            : List.of(Map.of("keys", t.keys().stream().map(k -> " k" + k).collect(
                                    java.util.stream.Collectors.joining("", "", " ")))));
        }).toList();
    }

    /** An address or CIDR range as a VCL ACL entry: {@code "10.0.0.0"/8}. */
    static String acl(String address) {
        int slash = address.indexOf('/');
        return slash < 0 ? "\"" + address + "\"" : "\"" + address.substring(0, slash) + "\"" + address.substring(slash);
    }

    /**
     * Starts the back tier, then the front, each once it is rendered; the back first, so the front
     * never answers 503. Closing saves each tier's requests to DIR/TIER-access.log before it stops
     * them ({@link VarnishLog}).
     */
    @Override
    public Running start(StackSpec spec, Path dir) throws IOException {
        List<Path> files = render(spec, dir);
        // As root varnishd drops privileges to its own users, which must reach its working directories.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        long cacheMb = Math.max(1, (spec.cache().bytes() + MB - 1) / MB);
        Map<String, IOException> unsaved = new ConcurrentHashMap<>();
        return ProductTemplates.backThenFront(spec,
                () -> tier("back", files.get(1), dir, Ports.LOOPBACK, spec.ports().back(), 1),
                () -> tier("front", files.get(0), dir, spec.ports().listen(), spec.ports().front(), cacheMb),
                tiers -> {
                    // The log is in shared memory that goes with varnishd: saved while both still run.
                    try {
                        for (String tier : List.of("front", "back")) {
                            try {
                                VarnishLog.save(instance(dir, tier), accessLog(dir, tier));
                            } catch (IOException e) {
                                unsaved.put(tier, e);
                            }
                        }
                    } finally {
                        tiers.forEach(ManagedProcess::close);
                    }
                },
                () -> events(dir, "front", unsaved), () -> events(dir, "back", unsaved));
    }

    private static List<EdgeEvent> events(Path dir, String tier, Map<String, IOException> unsaved) throws IOException {
        IOException e = unsaved.get(tier);
        if (e != null) {
            throw new IOException("the " + tier + " tier's log was not saved: " + e.getMessage(), e);
        }
        return VarnishLog.read(accessLog(dir, tier));
    }

    /**
     * The counters {@code names} (varnishstat's, e.g. MAIN.client_req) of {@code tier} (front, back) of
     * tiers started in {@code dir}, by name: what a running tier can tell before its log is saved.
     */
    public static Map<String, Long> counters(Path dir, String tier, List<String> names) throws IOException {
        return VarnishLog.counters(instance(dir, tier), names);
    }

    private static Path instance(Path dir, String tier) {
        return dir.resolve("varnishd-" + tier);
    }

    private static Path accessLog(Path dir, String tier) {
        return dir.resolve(tier + "-access.log");
    }

    private static ManagedProcess tier(String name, Path vcl, Path dir, String address, int port, long cacheMb)
            throws IOException {
        // -F: stay in the foreground, so the PID the suite holds is varnishd's own (its manager, whose
        // end ends the child); -T none: no management port, which the suite never uses; -s: the
        // cache's memory, --cache-size at the front (the back stores nothing).
        return ProductTemplates.startTier("varnish", name, List.of(binary(), "-F", "-T", "none",
                "-n", instance(dir, name).toString(), "-a", address + ":" + port,
                "-f", vcl.toString(), "-s", "malloc," + cacheMb + "m"), dir, address, port);
    }

    @Override
    public String displayName() {
        return "Varnish";
    }

    @Override
    public String limiter() {
        return "token bucket (vsthrottle)";
    }

    /** Nodelay whatever {@code mode} says: {@link #refusal} turns away any other. */
    @Override
    public LimitSpec limiterModel(int rate, int burst, LimitMode mode, int status) {
        return LimitSpec.vsthrottle(rate, burst, status);
    }

    @Override
    public EdgeCacheSpec cacheModel(StackSpec spec) {
        return EdgeCacheSpec.varnish();
    }

    @Override
    public LiveCounters liveCounters(Edge.Running tiers, StackSpec spec, Path dir, int rejectStatus) {
        return new VarnishCounters(dir);
    }

    @Override
    public String runFolderGuide() {
        return "varnish/front.vcl, back.vcl: rendered configs; varnish/front-access.log, back-access.log: access logs,"
                + " saved as down stops up (a terminal's Ctrl-C stops varnishd too, and its log goes with it);"
                + " varnish/front.log, back.log: varnishd's messages; origin.log";
    }
}
