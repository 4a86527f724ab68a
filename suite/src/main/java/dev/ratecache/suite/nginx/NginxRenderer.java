package dev.ratecache.suite.nginx;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.suite.spec.TlsFiles;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a tier's top-level template and the snippets it includes (and only those) from
 * nginx/ into a conf/ folder, filling in the switches. The result is a plain nginx config; each
 * file says in its opening comment which template it was rendered from, with which switches.
 */
public final class NginxRenderer {
    /** A map's own words: a key spelt like one needs a backslash before it (snippets/shared/limit-tier.conf). */
    private static final java.util.Set<String> MAP_WORDS = java.util.Set.of("default", "hostnames", "include", "volatile");

    /** The paragraph of a top-level template's banner that a rendered file replaces with {@link #stamp}. */
    static final String TEMPLATE_NOTE = "# This file is a template";
    private static final Pattern INCLUDE = Pattern.compile("^\\s*include\\s+(snippets/[A-Za-z0-9._/-]+)\\s*;",
            Pattern.MULTILINE);
    /** A js_import of a script under njs/, copied as it is: it is JavaScript, not a template. */
    private static final Pattern JS_IMPORT = Pattern.compile(
            "^\\s*js_import\\s+(?:\\w+\\s+from\\s+)?(njs/[A-Za-z0-9._/-]+\\.js)\\s*;", Pattern.MULTILINE);
    /** Debian's libnginx-mod-http-js (njs) installs the module here. */
    public static final Path NJS_MODULE = Path.of("/usr/lib/nginx/modules/ngx_http_js_module.so");
    /** Debian's libnginx-mod-http-cache-purge installs the module here. */
    public static final Path PURGE_MODULE = Path.of("/usr/lib/nginx/modules/ngx_http_cache_purge_module.so");
    /** Debian's libnginx-mod-http-headers-more-filter installs the module here. */
    public static final Path HEADERS_MORE_MODULE = Path.of("/usr/lib/nginx/modules/ngx_http_headers_more_filter_module.so");
    /** Debian's libnginx-mod-http-lua installs the module here, and the NDK module it needs beside it. */
    public static final Path LUA_MODULE = Path.of("/usr/lib/nginx/modules/ngx_http_lua_module.so");
    public static final Path NDK_MODULE = Path.of("/usr/lib/nginx/modules/ndk_http_module.so");
    /**
     * Where run-tests.sh unpacks Debian's lua-nginx-redis (the Redis client, as nginx/redis.lua):
     * the package itself depends on the nginx-extras flavour, which would replace the suite's nginx.
     */
    public static final String REDIS_LUA_LIBRARY = ".tools/lua";
    /** The fleet's Redis when --fleet-redis names none and nothing started one (a config rendered on its own). */
    public static final String DEFAULT_FLEET_REDIS = "127.0.0.1:6379";
    /**
     * The edge cache's {@code inactive=} (snippets/front/cache-zone.conf): an entry unused this long is
     * dropped however fresh. Here, not in the snippet, because the model of the edge (Predictor) needs it too.
     */
    public static final Duration EDGE_CACHE_INACTIVE = Duration.ofMinutes(10);

    /** Where a TLS tier's certificate and key go, under its conf/ folder, and their names there. */
    public static final String TLS_DIR = "tls";
    static final String TLS_CERTIFICATE = "server.pem";
    static final String TLS_KEY = "server.key";

    // Missing variables are errors, not empty strings: a typo in a template must fail loudly.
    private final Mustache.Compiler compiler = Mustache.compiler().escapeHTML(false).strictSections(true);
    private final Path templates;
    private final Machine machine;

    /** Renders for this machine: with the modules installed here, the Lua library and Age module of this checkout. */
    public NginxRenderer(Path templates) {
        this(templates, Machine.here());
    }

    public NginxRenderer(Path templates, Machine machine) {
        this.templates = templates;
        this.machine = machine;
    }

    /**
     * What a rendered config takes from the machine it will run on: which of Debian's optional modules
     * it loads, where the Lua Redis client and the built Age module are, and whether the TLS
     * certificate and key in force are copied beside it.
     */
    public record Machine(boolean njs, boolean purge, boolean headersMore, String redisLibrary, String ageModule,
            boolean tlsFiles) {
        /** This machine as it is now, and this checkout's .tools/: what the suite's own tiers run with. */
        public static Machine here() {
            Path ageModule = AgeSource.module();
            return new Machine(Files.isRegularFile(NJS_MODULE), Files.isRegularFile(PURGE_MODULE),
                    Files.isRegularFile(HEADERS_MORE_MODULE),
                    dev.ratecache.suite.Repo.root().resolve(REDIS_LUA_LIBRARY).toString(),
                    ageModule != null ? ageModule.toString() : AgeSource.MODULE, true);
        }

        /**
         * Any Debian machine with the modules run-tests.sh installs and the lua-nginx-redis package,
         * whatever this one has: configs to copy (render --portable, examples/) must not change with the
         * machine that renders them. The Age module, which Debian does not ship, is looked for in the
         * prefix's modules/; the certificate and key are the user's to put in tls/.
         */
        public static Machine debian() {
            return new Machine(true, true, true, "/usr/share/lua/5.1",
                    "modules/" + Path.of(AgeSource.MODULE).getFileName(), false);
        }
    }

    /** Renders {@code tier} of {@code spec} into {@code confDir}; returns the top-level file. */
    public Path render(Tier tier, StackSpec spec, Path confDir) throws IOException {
        Context context = context(tier, spec, machine);
        List<String> stamp = stamp(spec);
        Set<String> done = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of(tier.template()));
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (!done.add(name)) {
                continue;
            }
            Path source = templates.resolve(name);
            if (!Files.isRegularFile(source)) {
                throw new IOException("template " + name + " is missing from " + templates);
            }
            String text = stamped(render(source, context), templates.getFileName() + "/" + name, stamp);
            Path target = confDir.resolve(name);
            Files.createDirectories(target.getParent());
            Files.writeString(target, text, StandardCharsets.UTF_8);
            Matcher m = INCLUDE.matcher(text);
            while (m.find()) {
                todo.add(m.group(1));
            }
            copyScripts(text, confDir);
            if (text.contains("lua_package_path")) {
                copyLua(text, confDir);
            }
        }
        if (terminatesTls(tier, spec) && machine.tlsFiles()) {
            copyTlsFiles(spec, confDir);
        }
        return confDir.resolve(tier.template());
    }

    /** Whether {@code tier} holds the TLS listener: the tier clients connect to, with --tls. */
    static boolean terminatesTls(Tier tier, StackSpec s) {
        return s.tls().isPresent() && (tier == Tier.BALANCER || (tier == Tier.FRONT && s.edges() == 1));
    }

    /**
     * Copies the certificate and key in force next to the config, where tls-certificate.conf names
     * them, so that a rendered folder is whole: the key readable by its owner alone, as nginx's
     * master reads it before it drops privileges.
     */
    private static void copyTlsFiles(StackSpec spec, Path confDir) throws IOException {
        TlsFiles files = spec.tls().flatMap(StackSpec.Tls::files).orElseThrow(() -> new IOException(
                "--tls has no certificate yet: make the throwaway CA first (ThrowawayCa), or give --tls-cert and --tls-key"));
        Path dir = Files.createDirectories(confDir.resolve(TLS_DIR));
        Files.copy(files.certificate(), dir.resolve(TLS_CERTIFICATE), StandardCopyOption.REPLACE_EXISTING);
        Path key = dir.resolve(TLS_KEY);
        Files.copy(files.key(), key, StandardCopyOption.REPLACE_EXISTING);
        ThrowawayCa.ownerOnly(key);
    }

    /** Copies the njs scripts that {@code text} imports, unchanged, to the same place under {@code confDir}. */
    private void copyScripts(String text, Path confDir) throws IOException {
        Matcher m = JS_IMPORT.matcher(text);
        while (m.find()) {
            Path source = templates.resolve(m.group(1));
            if (!Files.isRegularFile(source)) {
                throw new IOException("script " + m.group(1) + " is missing from " + templates);
            }
            Path target = confDir.resolve(m.group(1));
            Files.createDirectories(target.getParent());
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Copies the scripts of nginx/lua/ that {@code text} (the tier's Lua set-up) names, unchanged, to
     * {@code confDir}/lua, where the tier's lua_package_path looks: a module it requires
     * ({@code require "quota"}) or a file it reads ({@code lua/quota_window.lua}). A rendered folder
     * holds what it runs, and nothing else.
     */
    private void copyLua(String text, Path confDir) throws IOException {
        Path target = Files.createDirectories(confDir.resolve("lua"));
        try (var files = Files.list(templates.resolve("lua"))) {
            for (Path source : files.filter(f -> f.toString().endsWith(".lua")).toList()) {
                String name = source.getFileName().toString();
                String module = name.substring(0, name.length() - ".lua".length());
                if (text.contains("require \"" + module + "\"") || text.contains("lua/" + name)) {
                    Files.copy(source, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private String render(Path source, Context context) throws IOException {
        try {
            Template template = compiler.compile(Files.readString(source, StandardCharsets.UTF_8));
            return template.execute(context);
        } catch (RuntimeException e) {
            throw new IOException("cannot render " + source.getFileName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The lines that say how a file was rendered, after a first line naming its template: the
     * switches in words, the ports, and the command that renders the same again.
     */
    static List<String> stamp(StackSpec spec) {
        TierPorts ports = spec.ports();
        List<String> lines = new ArrayList<>();
        lines.addAll(wrapped("# Switches: " + spec.said().words() + "."));
        lines.add("# Ports: front " + ports.front() + (ports.listen().equals(Ports.LOOPBACK) ? "" : " on " + ports.listen())
                + ", back " + ports.back() + ", origin " + ports.origin()
                + ", status " + ports.frontStatus() + " (front) and " + ports.backStatus() + " (back).");
        List<String> flags = new ArrayList<>(spec.said().flags());
        flags.addAll(ports.flags());
        lines.add("# Render it again: ./run-tests.sh render DIR" + (flags.isEmpty() ? "" : " " + String.join(" ", flags)));
        // A value with a line break in it must not end the comment early.
        lines.replaceAll(line -> line.replaceAll("[\\r\\n]", " "));
        return lines;
    }

    /**
     * {@code text} saying it was rendered from {@code template}: in place of a top-level
     * template's note that it is a template, or, in a snippet, as a comment block above its banner.
     */
    static String stamped(String text, String template, List<String> stamp) {
        List<String> note = new ArrayList<>();
        note.add("# Rendered from the template " + template + " by ./run-tests.sh.");
        note.addAll(stamp);
        List<String> lines = new ArrayList<>(text.lines().toList());
        int start = 0;
        while (start < lines.size() && !lines.get(start).startsWith(TEMPLATE_NOTE)) {
            start++;
        }
        if (start == lines.size()) {
            note.add("");
            lines.addAll(0, note);
        } else {
            // The note runs to the banner's next blank comment line or its closing rule.
            int end = start + 1;
            while (end < lines.size() && lines.get(end).matches("# [^-].*")) {
                end++;
            }
            lines.subList(start, end).clear();
            lines.addAll(start, note);
        }
        return String.join("\n", lines) + "\n";
    }

    /** {@code line} as comment lines of about 80 characters, broken after commas, continued lines indented. */
    private static List<String> wrapped(String line) {
        List<String> lines = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String part : line.split("(?<=,) ")) {
            if (current.length() > 0 && current.length() + 1 + part.length() > 80) {
                lines.add(current.toString());
                current = new StringBuilder("#  ");
            }
            current.append(current.length() > 0 ? " " : "").append(part);
        }
        lines.add(current.toString());
        return lines;
    }

    /**
     * Whether the back end turns an origin failure into a dropped connection for the front end's
     * stale-if-error: only where the edge cache honours it (--stale rfc).
     */
    private static boolean dropOriginErrors(StackSpec s) {
        return s.cache().on() && s.cache().stale() == StackSpec.Stale.RFC;
    }

    /**
     * A limit_req zone of the spec (a tier of keys, the anonymous tier, the per-address limit or the
     * address ceiling): its rate, burst and mode; a limit that is off, as one of nothing.
     */
    private record Zone(String name, int rate, int burst, StackSpec.Mode mode, int delay, List<String> keys) {
        static Zone of(String name, Optional<StackSpec.Limit> limit, List<String> keys) {
            return limit.map(l -> new Zone(name, l.rate(), l.burst(), l.mode(), l.delay(), keys))
                    .orElse(new Zone(name, 0, 0, StackSpec.Mode.QUEUE, 0, keys));
        }

        /** The name as nginx zone and variable names take it. */
        String id() {
            return name.replace('-', '_');
        }

        /** The text after {@code burst=N} in the limit_req directive. */
        String argument() {
            return switch (mode) {
                case QUEUE -> "";
                case NODELAY -> " nodelay";
                case DELAY -> " delay=" + delay;
            };
        }

        /** One line, for the rendered config, saying what the mode does. */
        String note() {
            return switch (mode) {
                case QUEUE -> "Requests inside the burst are queued and released at the rate (no nodelay).";
                case NODELAY -> "Requests inside the burst pass at once (nodelay); the burst refills at the rate.";
                case DELAY -> "The first " + delay + " requests beyond the rate pass at once; the rest of the burst"
                        + " is queued (two-stage limiting).";
            };
        }
    }

    /** The nginx variable that holds the key as the client sent it. */
    static String variable(StackSpec.Key key) {
        return switch (key.source()) {
            case ADDR -> "$binary_remote_addr";
            case HEADER -> "$http_" + key.name().toLowerCase(java.util.Locale.ROOT).replace('-', '_');
            case COOKIE -> "$cookie_" + key.name();
            case ARG -> "$arg_" + key.name();
        };
    }

    /** The key as --limit-key takes it, for the rendered config's comments. */
    static String flag(StackSpec.Key key) {
        return key.byAddress() ? "addr" : key.source().name().toLowerCase(java.util.Locale.ROOT) + ":" + key.name();
    }

    /** The tiers of keys of the spec, then the anonymous tier at the front's limit unless they name it. */
    private static List<Zone> tiersInForce(StackSpec s) {
        List<Zone> all = new ArrayList<>(s.tiers().stream()
                .map(t -> Zone.of(t.name(), Optional.of(t.limit()), t.keys())).toList());
        if (all.stream().noneMatch(t -> t.name().equals(StackSpec.KeyTier.ANONYMOUS))) {
            all.add(Zone.of(StackSpec.KeyTier.ANONYMOUS, s.front(), List.of()));
        }
        return all;
    }

    /**
     * A tier's own limit_req (--front-rate or --back-rate, with its burst and mode), as its templates
     * print it; a limit that is off, as one of nothing.
     */
    private record OwnLimit(boolean on, int rate, int burst, String burstArgument, String modeArgument,
            String modeNote) {
        static OwnLimit of(Optional<StackSpec.Limit> limit) {
            Zone l = Zone.of("", limit, List.of());
            // nginx refuses burst=0; no burst argument is the same limit (no request beyond the rate).
            return new OwnLimit(limit.isPresent(), l.rate(), l.burst(), NginxRenderer.burstArgument(l.burst()),
                    l.argument(), l.note());
        }
    }

    /**
     * The per-client limit: which tier applies it (the edge, or the back end with --limit-scope misses),
     * its key, its tiers and zones, the address ceiling, and the policy each tier announces.
     */
    private record ClientLimit(boolean atFront, boolean atBack, boolean byKey, boolean passKey, String keyWhere,
            String keySource, String keyPattern, String missingIdentity, String missingNote, boolean missingReject,
            String missingBody, String challenge, List<String> allow, boolean identity, boolean plain,
            String plainPolicy, boolean plainRejection, String plainRateArgument, String plainBurstArgument,
            String plainKey, String fallbackSource, String fallbackMatch, List<TierKey> tierKeys,
            List<ClientZone> zones, boolean mapHash, int longestKey, int keyCount, int mapHashBucketSize,
            int mapHashMaxSize, boolean ceiling, int ceilingRate, String ceilingRateArgument,
            String ceilingBurstArgument, boolean rateLimitOnRejection) {
        static ClientLimit of(Tier tier, StackSpec s) {
            boolean on = s.front().isPresent();
            StackSpec.Key limitKey = s.key();
            LimitScope scope = s.scope();
            Zone front = Zone.of(StackSpec.KeyTier.ANONYMOUS, s.front(), List.of());
            boolean byKey = !limitKey.byAddress();
            boolean atFront = on && scope == LimitScope.ALL;
            boolean atBack = on && scope == LimitScope.MISSES;
            boolean passKey = on && byKey && scope == LimitScope.MISSES;
            String keyWhere = byKey ? flag(limitKey) + " (" + limitKey.where() + ")" : "the client's address";
            // Behind the edge the key is the one the edge passed on (snippets/back/passed-limit-key.conf).
            String keySource = tier == Tier.BACK ? "$edge_limit_key" : variable(limitKey);
            String keyPattern = "~" + limitKey.pattern();
            boolean reject = s.missing() == StackSpec.Missing.REJECT;
            String missingIdentity = reject ? "\"\"" : "a$binary_remote_addr";
            String missingNote = reject ? "nothing (--missing-key reject: such a request is refused with 401 before any"
                    + " tier counts it)" : "\"a\" and its address (--missing-key addr: limited as the anonymous tier, by address)";
            boolean missingReject = on && byKey && reject && tier == Tier.FRONT;
            // By address alone, with no tiers and no allow-list, one zone keyed by the address says it all: the
            // config a user copies then reads as nginx's own example, with no maps in the way.
            boolean alone = byAddressAlone(s);
            boolean identity = on && !alone;
            boolean plain = on && alone;
            boolean plainRejection = plain && scope == LimitScope.ALL;
            // With a quota, every response names both policies: the burst limit's and the quota's (a tier's own, or --quota's).
            Map<String, Optional<Quota>> quotas = quotasInForce(s);
            String plainPolicy = policyItem("per-address", front.rate(), front.burst()) + quotaItem(s.quota());

            // Split and shared: each edge's own zones hold rate/N and burst/N (for shared, only while Redis fails).
            int edges = s.edges();
            int share = tier == Tier.FRONT && edges > 1 && s.fleet().limit().splitsZones() ? edges : 1;
            boolean shared = tier == Tier.FRONT && edges > 1 && s.fleet().limit() == FleetLimit.SHARED;
            String plainRateArgument = rateArgument(front.rate(), share);
            String plainBurstArgument = NginxRenderer.burstArgument(front.burst() / share);
            // Shared: the zones count a request only when the edge fell back (snippets/front/fleet-limit.conf).
            String plainKey = shared ? "$fleet_fallback_address" : "$binary_remote_addr";
            String fallbackSource = shared ? ":$fleet_limit" : "";
            String fallbackMatch = shared ? ":FALLBACK" : "";

            Zone address = Zone.of("address-ceiling", s.ceiling(), List.of());
            boolean ceiling = byKey && s.ceiling().isPresent();
            String ceilingItem = ceiling ? ", " + policyItem("address-ceiling", address.rate(), address.burst()) : "";
            List<TierKey> tierKeys = new ArrayList<>();
            List<ClientZone> zones = new ArrayList<>();
            int longestKey = 0;
            for (Zone t : tiersInForce(s)) {
                for (String key : t.keys()) {
                    tierKeys.add(new TierKey(key, MAP_WORDS.contains(key) ? "\\" + key : key, t.name()));
                    longestKey = Math.max(longestKey, key.length());
                }
                // By address there is one tier, the address's own.
                String policy = byKey ? t.name() : "per-address";
                String policyValue = policyItem(policy, t.rate(), t.burst())
                        + quotaItem(byKey ? quotas.getOrDefault(t.name(), Optional.empty()) : s.quota()) + ceilingItem;
                zones.add(new ClientZone(t.id(), t.name(), policy, t.rate(), rateArgument(t.rate(), share),
                        NginxRenderer.burstArgument(t.burst() / share), t.argument(), t.note(), policyValue));
            }
            // The tiers' keys are in limit-tier.conf wherever the per-client limit is by key: the edge, and the
            // back with scope misses.
            boolean mapHash = on && !tierKeys.isEmpty() && (tier == Tier.FRONT || scope == LimitScope.MISSES);
            int keyCount = tierKeys.size();
            int mapHashBucketSize = NginxRenderer.mapHashBucketSize(longestKey);
            int mapHashMaxSize = NginxRenderer.mapHashMaxSize(keyCount);
            int ceilingRate = address.rate();
            String ceilingRateArgument = rateArgument(address.rate(), share);
            String ceilingBurstArgument = NginxRenderer.burstArgument(address.burst() / share);
            // RateLimit is true only where one zone alone counts a request: nginx does not say which zone rejected.
            boolean rateLimitOnRejection = on && scope == LimitScope.ALL && !ceiling;
            return new ClientLimit(atFront, atBack, byKey, passKey, keyWhere, keySource, keyPattern, missingIdentity,
                    missingNote, missingReject, limitKey.missingBody(), limitKey.challenge(), s.allow(), identity, plain,
                    plainPolicy, plainRejection, plainRateArgument, plainBurstArgument, plainKey, fallbackSource,
                    fallbackMatch, tierKeys, zones, mapHash, longestKey, keyCount, mapHashBucketSize, mapHashMaxSize,
                    ceiling, ceilingRate, ceilingRateArgument, ceilingBurstArgument, rateLimitOnRejection);
        }
    }

    /** A key of a tier of keys as limit-tier.conf's map lists it, escaped where it is spelt like one of the map's words. */
    private record TierKey(String key, String mapKey, String tier) {}

    /** One per-client limit_req zone: a tier's of keys, or by address the one tier per-address. */
    private record ClientZone(String id, String tier, String policy, int rate, String rateArgument,
            String burstArgument, String modeArgument, String modeNote, String policyValue) {}

    /** By address alone, with no tiers and no allow-list: one zone keyed by the address, as nginx's own example. */
    private static boolean byAddressAlone(StackSpec s) {
        return s.key().byAddress() && s.allow().isEmpty() && s.tiers().isEmpty();
    }

    /**
     * How the per-client limit holds across the edges (--fleet-limit): the balancer's hash of the client,
     * and for shared, where the edges' Redis is and what each tier's bucket holds, in limit_req's units.
     */
    private record Fleet(int edges, boolean clientHash, String clientSource, String clientWhere, boolean shared,
            String redisHost, String redisPort, int timeout, String luaModule, String ndkModule, String redisLibrary,
            String keyVariable, List<String> tierVariable, String defaultTier, List<Bucket> tiers) {
        static Fleet of(Tier tier, StackSpec s, Machine machine) {
            StackSpec.Key limitKey = s.key();
            int edges = s.edges();
            FleetLimit fleetLimit = s.fleet().limit();
            boolean plain = byAddressAlone(s);
            String redis = s.fleet().redis().orElse(DEFAULT_FLEET_REDIS);
            List<Zone> zones = plain
                    ? List.of(Zone.of("per-address", s.front(), List.of()))
                    : tiersInForce(s);
            List<Bucket> tiers = new ArrayList<>();
            for (Zone t : zones) {
                int delay = switch (t.mode()) {
                    case QUEUE -> 0;
                    case NODELAY -> t.burst() * 1000;
                    case DELAY -> t.delay() * 1000;
                };
                tiers.add(new Bucket(t.name(), t.rate() * 1000, t.burst() * 1000, delay));
            }
            return new Fleet(edges, edges > 1 && fleetLimit == FleetLimit.CLIENT_HASH,
                    limitKey.byAddress() ? "$remote_addr" : variable(limitKey),
                    limitKey.byAddress() ? "address" : "key (" + limitKey.where() + ")",
                    tier == Tier.FRONT && edges > 1 && s.front().isPresent() && fleetLimit == FleetLimit.SHARED,
                    redis.substring(0, redis.lastIndexOf(':')), redis.substring(redis.lastIndexOf(':') + 1),
                    s.fleet().redisTimeoutMs(), LUA_MODULE.toString(), NDK_MODULE.toString(), machine.redisLibrary(),
                    plain ? "binary_remote_addr" : "limit_identity", plain ? List.of() : List.of("limit_tier"),
                    plain ? "per-address" : StackSpec.KeyTier.ANONYMOUS, tiers);
        }
    }

    /** A tier's bucket in the fleet's Redis (lua/leaky_bucket.lua), in limit_req's units: x 1000. */
    private record Bucket(String name, int rate, int burst, int delay) {}

    /** The problem type of an exhausted quota, as draft-ietf-httpapi-ratelimit-headers-11 registers it. */
    static final String QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";

    /**
     * The quota in force for each tier of keys by name, the anonymous tier's included (--quota's
     * unless the tiers file names it); by address alone, the one tier per-address, at --quota.
     */
    private static Map<String, Optional<Quota>> quotasInForce(StackSpec s) {
        Map<String, Optional<Quota>> quotas = new java.util.LinkedHashMap<>();
        if (byAddressAlone(s)) {
            quotas.put("per-address", s.quota());
            return quotas;
        }
        s.tiers().forEach(t -> quotas.put(t.name(), t.quota()));
        quotas.putIfAbsent(StackSpec.KeyTier.ANONYMOUS, s.quota());
        return quotas;
    }

    /** The quota's item of RateLimit-Policy, after the burst limit's; empty for none. */
    private static String quotaItem(Optional<Quota> quota) {
        return quota.map(q -> ", " + q.policyItem()).orElse("");
    }

    /**
     * The quota: counted by lua/quota.lua in the access phase, against the Redis the fleet's limit
     * uses, per client as the per-client limit counts it, each tier at its own quota. At the edge,
     * or with --limit-scope misses at the back end, behind the edge cache, on the key the edge
     * passed (the edge then only hides what the back said in its stored answers).
     *
     * @param window the window of every tier's quota; null where no quota is counted, so that a
     *               template which reads it there fails rather than prints a window nothing uses
     */
    private record QuotaCount(boolean on, boolean fromBack, Quota.Window window, int share, List<QuotaTier> tiers,
            String flags, String keyVariable, boolean exempt, List<String> tierVariable, String defaultTier) {
        static QuotaCount of(Tier tier, StackSpec s) {
            boolean counted = s.hasQuota() && s.front().isPresent();
            boolean atBack = counted && s.scope() == LimitScope.MISSES;
            boolean on = counted && (atBack ? tier == Tier.BACK : tier == Tier.FRONT);
            // The edge in front of a back end that counts: what the back said of the quota is not stored with the answer.
            boolean fromBack = atBack && tier == Tier.FRONT;
            boolean plain = byAddressAlone(s);
            Map<String, Optional<Quota>> quotas = counted ? quotasInForce(s) : Map.of();
            Quota.Window window = quotas.values().stream().flatMap(Optional::stream).findFirst()
                    .map(Quota::window).orElse(null);
            // Redis failing: each edge counts its share; the one back end (scope misses) counts the whole quota.
            int share = tier == Tier.FRONT ? Math.max(1, s.edges()) : 1;
            List<QuotaTier> tiers = new ArrayList<>();
            List<String> flags = new ArrayList<>();
            quotas.forEach((name, quota) -> {
                flags.add((plain ? "" : name + " ") + quota.map(Quota::flag).orElse("none"));
                quota.ifPresent(given -> tiers.add(new QuotaTier(name, given.limit(), given.windowSeconds() * 1000,
                        given.policyName(), Math.max(1, given.limit() / share),
                        "{\"type\":\"" + QUOTA_EXCEEDED + "\",\"title\":\"Request cannot be satisfied as"
                                + " assigned quota has been exceeded\",\"status\":429,\"violated-policies\":[\""
                                + given.policyName() + "\"]}")));
            });
            return new QuotaCount(on, fromBack, window, share, tiers,
                    // For the snippets' comments: "5/h", or each tier's, "gold 3/h, silver none, anonymous 5/h".
                    String.join(", ", flags),
                    plain ? "binary_remote_addr" : "limit_identity", !plain, plain ? List.of() : List.of("limit_tier"),
                    plain ? "per-address" : StackSpec.KeyTier.ANONYMOUS);
        }

        /** The window as lua/quota_window.lua numbers it. */
        int mode() {
            return window.code();
        }
    }

    /** A tier's quota as lua/quota.lua takes it, with the body of its rejection. */
    private record QuotaTier(String name, long limit, long windowMs, String policy, long fallbackLimit,
            String problem) {}

    /**
     * limit_req's {@code rate=} for {@code rate} requests/s shared by {@code share} edges: r/s when it
     * divides evenly, else r/m rounded down, so that the edges together never admit more than the rate.
     */
    public static String rateArgument(int rate, int share) {
        return rate % share == 0 ? rate / share + "r/s" : Math.max(1, rate * 60 / share) + "r/m";
    }

    /** limit_req's burst argument; none for 0, which nginx refuses and which is the same limit. */
    static String burstArgument(int burst) {
        return burst > 0 ? " burst=" + burst : "";
    }

    /**
     * map_hash_bucket_size for keys of up to {@code longestKey} bytes: room for eight of the longest
     * (snippets/shared/map-hash.conf says why). nginx stores each key as a pointer, a 2-byte length and
     * the key, padded to the pointer's 8 bytes (NGX_HASH_ELT_SIZE in ngx_hash.h), ends a bucket with
     * a pointer, and rounds the size up to its cache line (64).
     */
    static int mapHashBucketSize(int longestKey) {
        int element = 8 + roundUp(longestKey + 2, 8);
        return roundUp(8 * element + 8, 64);
    }

    /** map_hash_max_size for {@code keys} keys: twice as many buckets as keys, nginx's default (2048) at least. */
    static int mapHashMaxSize(int keys) {
        return Math.max(2048, 2 * keys);
    }

    private static int roundUp(int n, int multiple) {
        return (n + multiple - 1) / multiple * multiple;
    }

    /** One policy of RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-11, section 3): the rate a second, and the burst. */
    static String policyItem(String name, int rate, int burst) {
        return "\"" + name + "\";q=" + rate + ";w=1;ratecache-burst=" + burst;
    }

    /** What every template of a tier reads: one record per concern, each under the name the templates use. */
    private record Context(Tls tls, String forwardedProto, List<String> trustedProxies, ClientLimit clientLimit,
            Fleet fleet, QuotaCount quota, Lua lua, Balancer balancer, Front front, Back back, String workers,
            int keepalive, String connectTimeout, String readTimeout, String clientTimeout, int rejectStatus,
            int retryAfter, String njsModule, int statusPort) {}

    /** Whether the tier loads the Lua module (snippets/shared/lua-module.conf): for the quota or the fleet's limit. */
    private record Lua(boolean on) {}

    /** The front end, the edge: where it listens, its own limits, its cache and the modules the cache uses. */
    private record Front(String address, int port, OwnLimit limit, boolean behindBalancer, boolean limitConn,
            int limitConnValue, boolean cache, String cacheSize, String cacheInactive, String backgroundUpdate,
            boolean staleProtective, String lockTimeout, boolean purge, String purgeModule, List<String> purgeAllow,
            boolean validatorPrecedence, String headersMoreModule, boolean age, boolean ageNative,
            boolean nativeModule, String staleIfError, boolean staleSignalMap, String ageModule, String ageFromCache,
            boolean invalidateOnWrite, boolean njs) {
        static Front of(StackSpec s, Machine machine) {
            TierPorts ports = s.ports();
            StackSpec.Cache cache = s.cache();
            boolean behindBalancer = s.edges() > 1;
            // Alone, the front end faces the clients; behind the balancer, only the balancer on loopback.
            String address = behindBalancer ? Ports.LOOPBACK : ports.listen();
            // Longer than the slowest endpoint (5 s) plus its wait in the origin's queue.
            String lockTimeout = s.readTimeout() + "s";
            boolean purge = cache.on() && machine.purge();
            // If-None-Match over If-Modified-Since matters only where nginx answers from its cache.
            boolean validatorPrecedence = cache.on() && machine.headersMore();
            // Age on cache hits needs the native module or njs; invalidation on writes needs njs and the
            // purge module. Without them the edge does as plain nginx does.
            boolean njs = machine.njs();
            // The native module (nginx/modules/age) serves Age and the stale-if-error signal alike.
            boolean nativeModule = cache.on() && s.tuning().ageSource() == AgeSource.NATIVE;
            boolean ageNative = nativeModule && cache.age();
            boolean age = ageNative || (cache.on() && cache.age() && njs);
            boolean invalidateOnWrite = cache.on() && njs && machine.purge();
            // Which expired entries the back end drops a failing origin's answer for: exactly those
            // that may be served stale (the module), or every one held (plain nginx).
            String staleIfError = nativeModule ? "$upstream_cache_stale_if_error" : "$edge_stale_if_error";
            boolean staleSignalMap = dropOriginErrors(s) && !nativeModule;
            // The variable the map reads for an answer from the cache: the module's, or the njs js_set's.
            String ageFromCache = ageNative ? "$upstream_cache_age" : "$edge_age_from_script";
            return new Front(address, ports.front(), OwnLimit.of(s.front()), behindBalancer, s.limitConn() > 0,
                    s.limitConn(), cache.on(), cache.size(), EDGE_CACHE_INACTIVE.toMinutes() + "m",
                    cache.backgroundUpdate() ? "on" : "off", cache.stale() == StackSpec.Stale.PROTECTIVE, lockTimeout,
                    purge, PURGE_MODULE.toString(), s.purgeAllow(), validatorPrecedence, HEADERS_MORE_MODULE.toString(),
                    age, ageNative, nativeModule, staleIfError, staleSignalMap, machine.ageModule(), ageFromCache,
                    invalidateOnWrite,
                    // The module is loaded once, where something uses it.
                    (age && !ageNative) || invalidateOnWrite);
        }
    }

    /** The back end: where it listens, its own limit, its origins and what it tells the edge's cache. */
    private record Back(String address, int port, OwnLimit limit, boolean hasFreshness, List<Freshness> freshness,
            List<String> origins, String originHost, boolean leastConn, boolean edgeFreshness,
            boolean dropOriginErrors, String droppedStatuses) {
        static Back of(StackSpec s, Machine machine) {
            StackSpec.Cache cache = s.cache();
            List<String> origins = new ArrayList<>();
            for (URI origin : s.origins()) {
                origins.add(origin.getHost() + ":" + origin.getPort());
            }
            List<Freshness> freshness = new ArrayList<>();
            cache.freshness().forEach((path, seconds) -> freshness.add(new Freshness(path, seconds)));
            return new Back(Ports.LOOPBACK, s.ports().back(), OwnLimit.of(s.back()), !freshness.isEmpty(), freshness,
                    origins, origins.get(0), s.balance() == Balance.LEAST_CONN,
                    // Only the front's edge cache reads X-Accel-Expires.
                    cache.on() && machine.njs(),
                    // Only where the edge cache honours stale-if-error and can use a dropped connection.
                    NginxRenderer.dropOriginErrors(s),
                    // A back end rejection with 503 must stay a rejection, not become a dropped connection.
                    s.rejectStatus() == 503 ? "500 502 504" : "500 502 503 504");
        }
    }

    /** A path's lifetime (--freshness) for an origin that says none. */
    private record Freshness(String path, int seconds) {}

    /** The edge balancer in front of several edges (--edges N). */
    private record Balancer(String address, int port, boolean uriHash, List<String> edges) {
        static Balancer of(Tier tier, StackSpec s) {
            TierPorts ports = s.ports();
            // Asked only of the balancer: choosing free edge ports binds them to look, which rendering another tier needs not.
            List<String> edges = tier != Tier.BALANCER ? List.of()
                    : ports.edgePorts(s.edges()).stream().map(p -> Ports.LOOPBACK + ":" + p).toList();
            return new Balancer(ports.listen(), ports.front(), s.fleet().spread() == EdgeBalance.URI_HASH, edges);
        }
    }

    /** The TLS listener (--tls), on the tier clients connect to, and its plain-HTTP redirect. */
    private record Tls(boolean on, boolean http2, boolean hsts, String certificate, String key, boolean redirect,
            String address, int httpPort, String portSuffix) {
        static Tls of(Tier tier, StackSpec s) {
            TierPorts ports = s.ports();
            boolean on = terminatesTls(tier, s);
            int httpPort = s.tls().map(StackSpec.Tls::httpPort).orElse(0);
            return new Tls(on, s.tls().map(StackSpec.Tls::http2).orElse(false),
                    s.tls().map(StackSpec.Tls::hsts).orElse(false), TLS_DIR + "/" + TLS_CERTIFICATE,
                    TLS_DIR + "/" + TLS_KEY, on && httpPort != 0, ports.listen(), httpPort,
                    ports.front() == 443 ? "" : ":" + ports.front());
        }
    }

    private static Context context(Tier tier, StackSpec s, Machine machine) {
        TierPorts ports = s.ports();
        Fleet fleet = Fleet.of(tier, s, machine);
        QuotaCount quota = QuotaCount.of(tier, s);
        return new Context(Tls.of(tier, s),
                // An edge behind the balancer hears the client's scheme from it; elsewhere the tier's own is the client's.
                tier == Tier.FRONT && s.edges() > 1 ? "$http_x_forwarded_proto" : "$scheme",
                // The one proxy each tier takes X-Forwarded-For from (snippets/shared/real-ip.conf): the back end's
                // is the front end, an edge's the balancer; both on loopback.
                List.of(Ports.LOOPBACK),
                ClientLimit.of(tier, s), fleet, quota, new Lua(quota.on() || fleet.shared()), Balancer.of(tier, s),
                Front.of(s, machine), Back.of(s, machine), s.tuning().workers(), s.connections().keepalive(), "5s",
                s.readTimeout() + "s", s.connections().clientTimeout() + "s", s.rejectStatus(), s.retryAfter(),
                NJS_MODULE.toString(),
                // Behind a balancer an edge has no status server: the balancer's, on the front status port, counts the whole edge.
                tier == Tier.BACK ? ports.backStatus() : ports.frontStatus());
    }
}
