package dev.ratecache.suite.nginx;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.suite.spec.TlsFiles;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * Every switch of the two Nginx tiers. The same object is the command line's flags (a picocli
 * mixin) and the renderer's input, so a flag and a template variable can't drift apart. The
 * defaults are the reference experiment's setup, with 429 instead of nginx's default 503.
 */
public final class NginxSwitches implements WholeNumber.Flags {
    private static final Pattern SIZE = Pattern.compile("\\d{1,9}[kmg]?");
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9._~/-]*");
    private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9.-]+:(\\d{1,5})");
    private static final Map<String, WholeNumber> WHOLE_NUMBERS = WholeNumber.byFlag(
            WholeNumber.of("--front-rate", 1, LimitTier.MAX_RATE),
            WholeNumber.of("--front-burst", 0, LimitTier.MAX_BURST),
            WholeNumber.of("--back-rate", 1, 100_000),
            WholeNumber.of("--back-burst", 0, 1_000_000),
            WholeNumber.of("--retry-after", 1, 86_400),
            WholeNumber.of("--limit-conn", 0, 1_000_000),
            WholeNumber.of("--edges", 1, 32),
            WholeNumber.of("--fleet-redis-timeout", 1, 10_000),
            WholeNumber.of("--http-port", 1, 65_535),
            WholeNumber.of("--keepalive", 1, 10_000),
            WholeNumber.of("--read-timeout", 1, 3_600),
            WholeNumber.of("--client-timeout", 1, 3_600));

    @Option(names = "--front-limit", negatable = true, fallbackValue = "true",
            description = "Per-client rate limit at the front end (--no-front-limit turns it off). Default: on.")
    boolean frontLimit = true;

    @Option(names = "--front-rate", paramLabel = "R", description = "Front end rate, requests/s per client. Default: ${DEFAULT-VALUE}.")
    int frontRate = 100;

    @Option(names = "--front-burst", paramLabel = "N", description = "Front end burst, requests. Default: ${DEFAULT-VALUE}.")
    int frontBurst = 200;

    @Option(names = "--front-mode", paramLabel = "MODE", converter = LimitModeConverter.class,
            description = "Front end burst handling: queue, nodelay or delay=N. Default: queue.")
    LimitMode frontMode = LimitMode.QUEUE;

    @Option(names = "--limit-key", paramLabel = "KEY", converter = LimitKeyConverter.class,
            description = "What the per-client limit counts by: addr (the client's address), header:NAME, cookie:NAME or"
                    + " arg:NAME (a key the client sends). A key over 256 bytes or with control characters counts as"
                    + " missing. Default: addr.")
    LimitKey limitKey = LimitKey.ADDR;

    @Option(names = "--missing-key", paramLabel = "ACTION", converter = MissingKeyConverter.class,
            description = "A request without a valid key: addr (limited by its address, at the anonymous tier's rate)"
                    + " or reject (401 with a one-line body). Default: addr.")
    MissingKey missingKey = MissingKey.ADDR;

    @Option(names = "--address-ceiling", paramLabel = "auto|off|RATE[,BURST]", converter = AddressCeilingConverter.class,
            description = "With a key other than addr, a per-address limit kept beside the key's, so that a client"
                    + " cannot rotate keys to escape it: auto (ten times the most generous tier's rate and burst),"
                    + " RATE[,BURST] (burst twice the rate if left out) or off. Default: auto.")
    AddressCeiling addressCeiling = AddressCeiling.AUTO;

    @Option(names = "--tiers", paramLabel = "FILE",
            description = "Tiers of keys, each its own limit: one a line, NAME RATE BURST MODE KEYS (KEYS comma-separated"
                    + " or @FILE, one a line). Unknown keys get the tier named anonymous, or the --front-rate limit. Needs"
                    + " a --limit-key other than addr.")
    Path tiers;

    /**
     * Tiers given in code rather than by a file (a tiers cell's own): what {@link #limitTiers()} gives
     * while no --tiers file is named. Not a flag.
     */
    private List<LimitTier> givenTiers = List.of();

    @Option(names = "--allow", paramLabel = "CIDR", split = ",",
            description = "Networks never limited per client (the back end's limit for the whole origin still applies).")
    List<String> allow = new ArrayList<>();

    @Option(names = "--limit-scope", paramLabel = "SCOPE", converter = LimitScopeConverter.class,
            description = "Which requests cost per-client quota: all (counted at the edge, before its cache) or misses"
                    + " (counted at the back end, so edge-cache hits are free). Default: all.")
    LimitScope limitScope = LimitScope.ALL;

    @Option(names = "--back-limit", negatable = true, fallbackValue = "true",
            description = "Rate limit for the app server as a whole at the back end (--no-back-limit turns it off). Default: on.")
    boolean backLimit = true;

    @Option(names = "--back-rate", paramLabel = "R", description = "Back end rate, requests/s for all clients together. Default: ${DEFAULT-VALUE}.")
    int backRate = 10;

    @Option(names = "--back-burst", paramLabel = "N", description = "Back end burst, requests. Default: ${DEFAULT-VALUE}.")
    int backBurst = 50;

    @Option(names = "--back-mode", paramLabel = "MODE", converter = LimitModeConverter.class,
            description = "Back end burst handling: queue, nodelay or delay=N. Default: queue.")
    LimitMode backMode = LimitMode.QUEUE;

    @Option(names = "--reject-status", paramLabel = "CODE",
            description = "Status of a rate-limit rejection: 429 or 503 (nginx's default, as in the reference experiment). Default: ${DEFAULT-VALUE}.")
    int rejectStatus = 429;

    @Option(names = "--retry-after", paramLabel = "SECONDS", description = "Retry-After sent with every rejection. Default: ${DEFAULT-VALUE}.")
    int retryAfter = 1;

    @Option(names = "--limit-conn", paramLabel = "N",
            description = "Concurrent connections per client at the front end; 0 is off. Default: off.")
    int limitConn = 0;

    @Option(names = "--cache", negatable = true, fallbackValue = "true",
            description = "Edge cache at the front end (--no-cache turns it off). Default: on.")
    boolean cache = true;

    @Option(names = "--cache-size", paramLabel = "SIZE", description = "Edge cache size on disk, e.g. 100m, 2g. Default: ${DEFAULT-VALUE}.")
    String cacheSize = "100m";

    @Option(names = "--background-update", negatable = true, fallbackValue = "true",
            description = "Refresh an expired edge-cache entry in the background while serving the stale one"
                    + " (--no-background-update makes the client wait for the revalidation). Default: on.")
    boolean backgroundUpdate = true;

    @Option(names = "--age", negatable = true, fallbackValue = "true",
            description = "Send Age on every answer from the edge cache (RFC 9111 section 5.1), so that a client"
                    + " cache behind it counts freshness right (--no-age saves the work on each cache hit: with njs"
                    + " about a quarter of the HIT path's CPU, see nginx/README.md). Default: on.")
    boolean age = true;

    @Option(names = "--age-source", paramLabel = "SOURCE", converter = AgeSourceConverter.class,
            description = "What counts the edge's Age: native (nginx/modules/age, which ./run-tests.sh builds against"
                    + " Debian's nginx), njs (nginx/njs/age.js) or auto (native when it is built, else njs)."
                    + " Default: auto.")
    AgeSource ageSource = AgeSource.AUTO;

    @Option(names = "--stale", paramLabel = "MODE", converter = StaleModeConverter.class,
            description = "When the edge cache serves expired entries: rfc (only as the origin's stale-while-revalidate"
                    + " and stale-if-error allow) or protective (whenever the origin fails or an entry is being refreshed,"
                    + " whatever the origin allowed: availability over correctness). Default: rfc.")
    StaleMode stale = StaleMode.RFC;

    @Option(names = "--freshness", paramLabel = "PATH=SECONDS",
            description = "Freshness the back end gives PATH when the origin sends no Cache-Control; repeatable, e.g. --freshness /hare=3 --freshness /tortoise=10.")
    Map<String, Integer> freshness = new LinkedHashMap<>();

    @Option(names = "--purge-allow", paramLabel = "ADDRESS", split = ",",
            description = "Addresses allowed to PURGE a URL from the edge cache. Default: 127.0.0.1.")
    List<String> purgeAllow = new ArrayList<>(List.of("127.0.0.1"));

    @Option(names = "--origin", paramLabel = "URL", converter = OriginConverter.class,
            description = "Proxy to this HTTP origin (http://host:port) instead of starting the suite's own; repeatable for several origins.")
    List<URI> origins = new ArrayList<>();

    @Option(names = "--balance", paramLabel = "METHOD", converter = BalanceConverter.class,
            description = "How the back end spreads requests over several origins: round-robin or least-conn. Default: round-robin.")
    Balance balance = Balance.ROUND_ROBIN;

    @Option(names = "--edges", paramLabel = "N",
            description = "Front end tiers (edges), each its own nginx with its own cache and per-client limit, behind one"
                    + " balancing nginx on the front port; 1 is no balancer. Default: ${DEFAULT-VALUE}.")
    int edges = 1;

    @Option(names = "--edge-balance", paramLabel = "METHOD", converter = EdgeBalanceConverter.class,
            description = "With --edges N > 1, how the balancer spreads requests: round-robin (independent caches) or"
                    + " uri-hash (hash $request_uri consistent: each URL cached on one edge). A matrix run given --edges"
                    + " without it runs each edge-cache cell both ways. Default: round-robin.")
    EdgeBalance edgeBalance = EdgeBalance.ROUND_ROBIN;

    @Option(names = "--fleet-limit", paramLabel = "STRATEGY", converter = FleetLimitConverter.class,
            description = "With --edges N > 1, how the per-client limit holds across the edges: per-edge (each counts"
                    + " alone: a client gets up to N times its limit), client-hash (the balancer sends each client to"
                    + " one edge), split (each edge rate/N and burst/N) or shared (one bucket per client in Redis,"
                    + " each edge falling back to its split limit when Redis fails). Default: ${DEFAULT-VALUE}.")
    FleetLimit fleetLimit = FleetLimit.PER_EDGE;

    @Option(names = "--fleet-redis", paramLabel = "HOST:PORT",
            description = "With --fleet-limit shared, the Redis the edges share; without it the suite starts its own"
                    + " redis-server on a free port.")
    String fleetRedis;

    @Option(names = "--fleet-redis-timeout", paramLabel = "MS",
            description = "With --fleet-limit shared, how long an edge waits on Redis (connect, send, read) before it"
                    + " falls back to its split limit. Default: ${DEFAULT-VALUE}.")
    int fleetRedisTimeout = 50;

    @Option(names = "--tls", negatable = true, fallbackValue = "true",
            description = "Terminate TLS (1.2 and 1.3) where clients connect: the front end, or the balancer with --edges"
                    + " N > 1. Without --tls-cert and --tls-key the suite makes a throwaway CA and a certificate for"
                    + " 127.0.0.1 and localhost in the run folder (tls/ca.pem is the CA to trust). Default: off.")
    boolean tls = false;

    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "With --tls, your own certificate (PEM, the server's first, then any intermediates).")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE",
            description = "With --tls, the private key of --tls-cert (PEM, unencrypted).")
    Path tlsKey;

    @Option(names = "--http2", negatable = true, fallbackValue = "true",
            description = "With --tls, HTTP/2 beside HTTP/1.1 on the TLS port, chosen by ALPN (--no-http2 keeps only"
                    + " HTTP/1.1). Default: on.")
    boolean http2 = true;

    @Option(names = "--hsts", negatable = true, fallbackValue = "true",
            description = "With --tls, send Strict-Transport-Security (a year). Off by default: a browser that saw it"
                    + " refuses the host over http, and with a throwaway certificate, at all, for that year.")
    boolean hsts = false;

    @Option(names = "--http-port", paramLabel = "PORT",
            description = "With --tls, a cleartext port that answers every request with a redirect (301) to https on"
                    + " the front port; 0 is none. Default: 0.")
    int httpPort = 0;

    /** The throwaway CA's files, once the suite made them for --tls without --tls-cert; not a flag. */
    TlsFiles throwawayTls;

    @Option(names = "--keepalive", paramLabel = "N", description = "Idle kept-alive connections each tier holds to the next. Default: ${DEFAULT-VALUE}.")
    int keepalive = 32;

    @Option(names = "--read-timeout", paramLabel = "SECONDS", description = "How long a tier waits for the next one's response. Default: ${DEFAULT-VALUE}.")
    int readTimeout = 60;

    @Option(names = "--client-timeout", paramLabel = "SECONDS",
            description = "How long a tier waits on a client that stalls while sending its headers or body, or reading the response. Default: ${DEFAULT-VALUE}.")
    int clientTimeout = 10;

    @Option(names = "--workers", paramLabel = "N|auto", description = "nginx worker processes per tier. Default: ${DEFAULT-VALUE}.")
    String workers = "auto";

    /** Problems with the values, each one line naming the flag and the accepted form; empty when all is well. */
    public List<String> problems() {
        List<String> p = new ArrayList<>();
        range(p, "--front-rate", frontRate);
        range(p, "--front-burst", frontBurst);
        range(p, "--back-rate", backRate);
        range(p, "--back-burst", backBurst);
        if (rejectStatus != 429 && rejectStatus != 503) {
            p.add("--reject-status must be 429 or 503 (got " + rejectStatus + ")");
        }
        range(p, "--retry-after", retryAfter);
        range(p, "--limit-conn", limitConn);
        Path ageModule = NginxRenderer.ageModule();
        if (ageSource == AgeSource.NATIVE && (ageModule == null || !Files.isRegularFile(ageModule))) {
            p.add("--age-source native needs the module ./run-tests.sh builds (" + NginxRenderer.AGE_MODULE
                    + "): run it once as root, or build it as nginx/modules/age/README.md says");
        }
        if (!SIZE.matcher(cacheSize).matches()) {
            p.add("--cache-size must be a size such as 100m or 2g (got '" + cacheSize + "')");
        }
        freshness.forEach((path, seconds) -> {
            if (!PATH.matcher(path).matches()) {
                p.add("--freshness path must start with / and hold no spaces or quotes (got '" + path + "')");
            }
            if (seconds == null || seconds < 1) {
                p.add("--freshness " + path + " needs a whole number of seconds >= 1, e.g. --freshness /hare=3");
            }
        });
        for (String address : purgeAllow) {
            if (!address.matches("[0-9a-fA-F:.]+(/\\d{1,3})?")) {
                p.add("--purge-allow takes IP addresses or CIDR ranges (got '" + address + "')");
            }
        }
        // The command line's converter refused these already; origins set in code are checked here.
        for (URI origin : origins) {
            OriginUrl.problem(origin).ifPresent(why -> p.add("--origin " + why));
        }
        p.addAll(identityProblems());
        for (String cidr : allow) {
            if (!Cidr.valid(cidr)) {
                p.add("--allow takes networks as CIDR, e.g. 10.0.0.0/8 or 2001:db8::/32 (got '" + cidr + "')");
            } else {
                // nginx's geo would warn that these bits are meaningless and allow the whole network.
                Cidr.network(cidr).ifPresent(network -> p.add("--allow " + cidr + " has bits set past its /"
                        + cidr.substring(cidr.indexOf('/') + 1) + " prefix, which nginx ignores: did you mean " + network
                        + " (or " + Cidr.host(cidr) + " for the one address)?"));
            }
        }
        if (limitScope == LimitScope.MISSES && !frontLimit) {
            p.add("--limit-scope misses chooses which requests cost per-client quota, which --no-front-limit turns off:"
                    + " drop one of them");
        }
        range(p, "--edges", edges);
        p.addAll(fleetProblems());
        p.addAll(tlsProblems());
        range(p, "--keepalive", keepalive);
        range(p, "--read-timeout", readTimeout);
        range(p, "--client-timeout", clientTimeout);
        if (!workers.equals("auto") && !workers.matches("[1-9]\\d{0,2}")) {
            p.add("--workers must be auto or a whole number from 1 to 999 (got '" + workers + "')");
        }
        return p;
    }

    /** The switches that need a key, given without one (by address they would change nothing), and the tiers file's problem. */
    private List<String> identityProblems() {
        List<String> p = new ArrayList<>();
        if (limitKey.byAddress()) {
            String addKey = ": add --limit-key header:NAME, cookie:NAME or arg:NAME";
            if (tiers != null) {
                p.add("--tiers needs a key to put in tiers" + addKey);
            }
            if (missingKey != MissingKey.ADDR) {
                p.add("--missing-key " + missingKey + " needs a key that can be missing" + addKey);
            }
            if (addressCeiling.kind() != AddressCeiling.Kind.AUTO) {
                p.add("--address-ceiling " + addressCeiling + " needs a key to stand beside (by address the limit is"
                        + " the address's own)" + addKey);
            }
            return p;
        }
        if (tiers != null) {
            try {
                TiersFile.read(tiers);
            } catch (TiersFile.Malformed e) {
                p.add("--tiers " + e.getMessage());
            }
        }
        return p;
    }

    /** TLS's flags without --tls, one of the certificate and key without the other, and the files themselves. */
    private List<String> tlsProblems() {
        List<String> p = new ArrayList<>();
        if (!tls) {
            for (String flag : List.of(tlsCert != null ? "--tls-cert" : "", tlsKey != null ? "--tls-key" : "",
                    hsts ? "--hsts" : "", !http2 ? "--no-http2" : "", httpPort != 0 ? "--http-port" : "")) {
                if (!flag.isEmpty()) {
                    p.add(flag + " goes with --tls: add --tls");
                }
            }
            return p;
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            p.add(tlsCert == null ? "--tls-key needs its certificate: add --tls-cert FILE"
                    : "--tls-cert needs its private key: add --tls-key FILE");
        } else if (tlsCert != null) {
            TlsFileCheck.problem(tlsCert, tlsKey).ifPresent(p::add);
        }
        if (httpPort != 0) {
            range(p, "--http-port", httpPort);
        }
        return p;
    }

    private List<String> fleetProblems() {
        List<String> p = new ArrayList<>();
        if (fleetLimit != FleetLimit.PER_EDGE && edges < 2) {
            p.add("--fleet-limit " + fleetLimit + " needs a fleet: add --edges N with N >= 2");
        } else if (fleetLimit != FleetLimit.PER_EDGE && !frontLimit) {
            p.add("--fleet-limit " + fleetLimit + " shares the per-client limit, which --no-front-limit turns off");
        } else if (fleetLimit != FleetLimit.PER_EDGE && limitScope == LimitScope.MISSES) {
            p.add("--fleet-limit " + fleetLimit + " is not needed with --limit-scope misses: the one back end"
                    + " already counts each client for the whole fleet");
        } else if (fleetLimit == FleetLimit.CLIENT_HASH && edgeBalance == EdgeBalance.URI_HASH) {
            p.add("--fleet-limit client-hash and --edge-balance uri-hash both choose the edge: give one of them");
        }
        if (fleetRedis != null && fleetLimit != FleetLimit.SHARED) {
            p.add("--fleet-redis goes with --fleet-limit shared");
        } else if (fleetRedis != null) {
            var hostPort = HOST_PORT.matcher(fleetRedis);
            int port = hostPort.matches() ? Integer.parseInt(hostPort.group(1)) : 0;
            if (port < 1 || port > 65_535) {
                p.add("--fleet-redis must be HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:6379 (got '"
                        // A password before an @ (Redis's AUTH) is refused unseen, as --origin's is.
                        + (fleetRedis.contains("@") ? "***" + fleetRedis.substring(fleetRedis.lastIndexOf('@'))
                                : fleetRedis) + "')");
            }
        }
        range(p, "--fleet-redis-timeout", fleetRedisTimeout);
        return p;
    }

    /**
     * The tiers of {@code --tiers}, in file order, or without it those given in code; empty without
     * either. The file was checked by {@link #problems()}.
     */
    public List<LimitTier> limitTiers() {
        if (tiers == null) {
            return givenTiers;
        }
        try {
            return TiersFile.read(tiers);
        } catch (TiersFile.Malformed e) {
            throw new IllegalStateException("--tiers " + e.getMessage(), e);
        }
    }

    /**
     * The per-client tiers in force for {@code tiers} (a tiers file's): those, then, unless they name
     * one, the anonymous tier at --front-rate, --front-burst and --front-mode. The renderer makes a
     * zone of each; the address ceiling's auto is resolved against them.
     */
    public List<LimitTier> tiersInForce(List<LimitTier> tiers) {
        List<LimitTier> all = new ArrayList<>(tiers);
        if (all.stream().noneMatch(t -> t.name().equals(LimitTier.ANONYMOUS))) {
            all.add(new LimitTier(LimitTier.ANONYMOUS, frontRate, frontBurst, frontMode, List.of()));
        }
        return all;
    }

    /**
     * The address ceiling beside the key limits of {@code tiers} (a tiers file's), auto resolved
     * against the most generous of {@link #tiersInForce}: what the renderer renders and the model
     * assumes. Its kind is OFF when it is off.
     */
    public AddressCeiling addressCeilingInForce(List<LimitTier> tiers) {
        return addressCeiling.resolved(tiersInForce(tiers));
    }

    private static void range(List<String> p, String flag, int value) {
        WHOLE_NUMBERS.get(flag).check(p, value);
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WHOLE_NUMBERS;
    }

    /** An independent copy: a matrix changes a few switches per cell on top of the user's. */
    public NginxSwitches copy() {
        NginxSwitches c = new NginxSwitches();
        // Every flag from the annotations, as Flags.differing reads them, so that a flag added is copied too.
        Flags.copy(this, c);
        c.givenTiers = givenTiers;
        c.throwawayTls = throwawayTls;
        return c;
    }

    // Fluent setters, for tests and other code that builds a scenario without a command line.
    public NginxSwitches frontLimit(boolean on) { frontLimit = on; return this; }
    public NginxSwitches frontRate(int r) { frontRate = r; return this; }
    public NginxSwitches frontBurst(int n) { frontBurst = n; return this; }
    public NginxSwitches frontMode(LimitMode m) { frontMode = m; return this; }
    public NginxSwitches limitKey(LimitKey k) { limitKey = k; return this; }
    public NginxSwitches missingKey(MissingKey m) { missingKey = m; return this; }
    public NginxSwitches addressCeiling(AddressCeiling c) { addressCeiling = c; return this; }
    public NginxSwitches tiers(Path file) { tiers = file; return this; }
    /** Tiers of keys without a file: a tiers cell's own, which its folder's tiers.txt then names. */
    public NginxSwitches tiers(List<LimitTier> given) { givenTiers = List.copyOf(given); return this; }
    public NginxSwitches allow(List<String> cidrs) { allow = new ArrayList<>(cidrs); return this; }
    public NginxSwitches limitScope(LimitScope s) { limitScope = s; return this; }
    public NginxSwitches backLimit(boolean on) { backLimit = on; return this; }
    public NginxSwitches backRate(int r) { backRate = r; return this; }
    public NginxSwitches backBurst(int n) { backBurst = n; return this; }
    public NginxSwitches backMode(LimitMode m) { backMode = m; return this; }
    public NginxSwitches rejectStatus(int s) { rejectStatus = s; return this; }
    public NginxSwitches retryAfter(int s) { retryAfter = s; return this; }
    public NginxSwitches limitConn(int n) { limitConn = n; return this; }
    public NginxSwitches cache(boolean on) { cache = on; return this; }
    public NginxSwitches cacheSize(String s) { cacheSize = s; return this; }
    public NginxSwitches backgroundUpdate(boolean on) { backgroundUpdate = on; return this; }
    public NginxSwitches age(boolean on) { age = on; return this; }
    public NginxSwitches ageSource(AgeSource a) { ageSource = a; return this; }
    public NginxSwitches stale(StaleMode m) { stale = m; return this; }
    public NginxSwitches freshness(String path, int seconds) { freshness.put(path, seconds); return this; }
    public NginxSwitches purgeAllow(List<String> a) { purgeAllow = new ArrayList<>(a); return this; }
    public NginxSwitches origins(List<URI> o) { origins = new ArrayList<>(o); return this; }
    public NginxSwitches balance(Balance b) { balance = b; return this; }
    public NginxSwitches edges(int n) { edges = n; return this; }
    public NginxSwitches edgeBalance(EdgeBalance b) { edgeBalance = b; return this; }
    public NginxSwitches fleetLimit(FleetLimit f) { fleetLimit = f; return this; }
    public NginxSwitches fleetRedis(String hostPort) { fleetRedis = hostPort; return this; }
    public NginxSwitches fleetRedisTimeout(int ms) { fleetRedisTimeout = ms; return this; }
    public NginxSwitches tls(boolean on) { tls = on; return this; }
    public NginxSwitches tlsFiles(Path certificate, Path key) { tlsCert = certificate; tlsKey = key; return this; }
    public NginxSwitches http2(boolean on) { http2 = on; return this; }
    public NginxSwitches hsts(boolean on) { hsts = on; return this; }
    public NginxSwitches httpPort(int port) { httpPort = port; return this; }
    /** The throwaway CA's files the suite made for this run (--tls without --tls-cert). */
    public NginxSwitches throwawayTls(TlsFiles files) { throwawayTls = files; return this; }
    public NginxSwitches keepalive(int n) { keepalive = n; return this; }
    public NginxSwitches readTimeout(int s) { readTimeout = s; return this; }
    public NginxSwitches clientTimeout(int s) { clientTimeout = s; return this; }
    public NginxSwitches workers(String w) { workers = w; return this; }

    public boolean frontLimit() { return frontLimit; }
    public boolean backLimit() { return backLimit; }
    public LimitKey limitKey() { return limitKey; }
    public Path tiersFile() { return tiers; }
    public MissingKey missingKey() { return missingKey; }
    public AddressCeiling addressCeiling() { return addressCeiling; }
    public List<String> allow() { return List.copyOf(allow); }
    public LimitScope limitScope() { return limitScope; }
    public boolean cache() { return cache; }
    public String cacheSize() { return cacheSize; }
    /** What counts the edge's Age, auto resolved: native when run-tests.sh built the module, else njs. */
    public AgeSource ageSourceInForce() { return ageSource.resolved(NginxRenderer.ageModule()); }
    public int rejectStatus() { return rejectStatus; }
    public int retryAfter() { return retryAfter; }
    public List<URI> origins() { return List.copyOf(origins); }
    public List<String> purgeAllow() { return List.copyOf(purgeAllow); }
    public int edges() { return edges; }
    public boolean tls() { return tls; }
    public boolean http2() { return tls && http2; }
    public boolean hsts() { return tls && hsts; }
    public int httpPort() { return tls ? httpPort : 0; }
    /**
     * The certificate, key and trust in force with --tls: the user's own, or the throwaway CA's once
     * made; empty without --tls, or before the throwaway is made ({@link #needsThrowawayTls()}).
     */
    public java.util.Optional<TlsFiles> tlsFiles() {
        if (!tls) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.ofNullable(tlsCert != null ? TlsFiles.own(tlsCert, tlsKey) : throwawayTls);
    }
    /** Whether --tls still waits for its throwaway CA: given without --tls-cert, and none made yet. */
    public boolean needsThrowawayTls() { return tls && tlsCert == null && throwawayTls == null; }
    public EdgeBalance edgeBalance() { return edgeBalance; }
    public FleetLimit fleetLimit() { return fleetLimit; }
    /** Whether the edges share each client's bucket in Redis: --fleet-limit shared over a fleet, with the limit on. */
    public boolean fleetShared() { return edges > 1 && frontLimit && fleetLimit == FleetLimit.SHARED; }
    /** The Redis of --fleet-limit shared as HOST:PORT; null until given or started. */
    public String fleetRedis() { return fleetRedis; }
    // What the model of the tiers (predictions, advise) and the back limit's promise need to know.
    public int frontRate() { return frontRate; }
    public int frontBurst() { return frontBurst; }
    public LimitMode frontMode() { return frontMode; }
    public int backRate() { return backRate; }
    public int backBurst() { return backBurst; }
    public LimitMode backMode() { return backMode; }
    public int limitConn() { return limitConn; }
    public boolean backgroundUpdate() { return backgroundUpdate; }
    public StaleMode stale() { return stale; }
    public int readTimeout() { return readTimeout; }
    /** The --freshness overrides, in the order given. */
    public Map<String, Integer> freshness() { return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(freshness)); }
    public boolean age() { return age; }
    public Balance balance() { return balance; }
    public int fleetRedisTimeout() { return fleetRedisTimeout; }
    public int keepalive() { return keepalive; }
    public int clientTimeout() { return clientTimeout; }
    public String workers() { return workers; }

    /** A one-line description of the switches that differ from the defaults, for logs and reports. */
    public String describe() {
        return "front limit " + (frontLimit ? frontRate + " r/s burst " + frontBurst + " " + frontMode : "off")
                + (frontLimit && (!limitKey.byAddress() || !allow.isEmpty() || limitScope == LimitScope.MISSES)
                        ? " keyed by " + (limitKey.byAddress() ? "address" : limitKey + " (missing: " + missingKey
                                + ", address ceiling " + addressCeiling + ")")
                                + (tiers != null ? ", tiers from " + tiers.getFileName() : "")
                                + (allow.isEmpty() ? "" : ", not for " + String.join(" ", allow))
                                + (limitScope == LimitScope.MISSES ? ", counting only edge-cache misses" : "")
                        : "")
                + ", back limit " + (backLimit ? backRate + " r/s burst " + backBurst + " " + backMode : "off")
                + ", edge cache " + (cache ? "on (" + cacheSize + (stale == StaleMode.PROTECTIVE ? ", stale protective" : "")
                        + (age ? ", Age " + ageSourceInForce() : ", no Age") + ")" : "off")
                + ", rejections " + rejectStatus
                + (limitConn > 0 ? ", limit_conn " + limitConn : "")
                + (tls ? ", TLS " + (http2 ? "with HTTP/2" : "HTTP/1.1 only") + (tlsCert != null ? " (own certificate)"
                        : " (throwaway CA)") + (hsts ? ", HSTS" : "") + (httpPort != 0 ? ", http on " + httpPort
                                + " redirects" : "") : "")
                + (edges > 1 ? ", " + edges + " edges " + (edgeBalance == EdgeBalance.URI_HASH
                        ? "sharded by URI (hash $request_uri consistent)" : fleetLimit == FleetLimit.CLIENT_HASH
                                ? "by client (hash of the client)" : "round robin (independent caches)")
                        + ", per-client limit " + fleetLimit : "");
    }

    /**
     * The stack these switches and {@code ports} describe, for any edge, in no product's words.
     * Ask {@link #problems()} first: the spec takes the values as they are.
     */
    public StackSpec spec(TierPorts ports) {
        List<URI> origins = origins().isEmpty()
                ? List.of(URI.create("http://" + Ports.LOOPBACK + ":" + ports.origin()))
                : origins();
        List<StackSpec.KeyTier> tiers = limitTiers().stream()
                .map(t -> new StackSpec.KeyTier(t.name(), specLimit(t.rate(), t.burst(), t.mode()), t.keys())).toList();
        Optional<StackSpec.Tls> tls = tls() ? Optional.of(new StackSpec.Tls(tlsFiles(), http2(), hsts(), httpPort())) : Optional.empty();
        return new StackSpec(
                frontLimit() ? Optional.of(specLimit(frontRate(), frontBurst(), frontMode()))
                        : Optional.empty(),
                backLimit() ? Optional.of(specLimit(backRate(), backBurst(), backMode()))
                        : Optional.empty(),
                specKey(limitKey()), missingKey() == MissingKey.REJECT ? StackSpec.Missing.REJECT : StackSpec.Missing.ADDR,
                specCeiling(this), tiers, allow(), limitScope(), limitConn(),
                rejectStatus(), retryAfter(),
                new StackSpec.Cache(cache(), cacheSize(),
                        stale() == StaleMode.PROTECTIVE ? StackSpec.Stale.PROTECTIVE : StackSpec.Stale.RFC,
                        backgroundUpdate(), age(), freshness()),
                purgeAllow(), origins, origins().isEmpty(), balance(), ports,
                new StackSpec.Fleet(edges(), edgeBalance(), fleetLimit(),
                        Optional.ofNullable(fleetRedis()), fleetRedisTimeout()),
                tls, new StackSpec.Connections(keepalive(), readTimeout(), clientTimeout()),
                new StackSpec.Tuning(workers(), ageSourceInForce()),
                new StackSpec.Said(describe(), Flags.differing(this, new NginxSwitches())));
    }

    private static StackSpec.Key specKey(LimitKey key) {
        return switch (key.kind()) {
            case ADDR -> StackSpec.Key.ADDR;
            case HEADER -> new StackSpec.Key(StackSpec.Source.HEADER, key.name());
            case COOKIE -> new StackSpec.Key(StackSpec.Source.COOKIE, key.name());
            case ARG -> new StackSpec.Key(StackSpec.Source.ARG, key.name());
        };
    }

    /** Resolved as nginx's edge resolves it: auto against the tiers in force. */
    private static Optional<StackSpec.Limit> specCeiling(NginxSwitches switches) {
        AddressCeiling c = switches.addressCeilingInForce(switches.limitTiers());
        return switches.limitKey().byAddress() || c.kind() == AddressCeiling.Kind.OFF ? Optional.empty()
                : Optional.of(new StackSpec.Limit(c.rate(), c.burst(), StackSpec.Mode.NODELAY, 0));
    }

    private static StackSpec.Limit specLimit(int rate, int burst, LimitMode mode) {
        return switch (mode.kind()) {
            case QUEUE -> new StackSpec.Limit(rate, burst, StackSpec.Mode.QUEUE, 0);
            case NODELAY -> new StackSpec.Limit(rate, burst, StackSpec.Mode.NODELAY, 0);
            case DELAY -> new StackSpec.Limit(rate, burst, StackSpec.Mode.DELAY, mode.delay());
        };
    }

    // picocli makes each converter from its class, so each flag's is a class of its own.

    public static final class LimitKeyConverter extends FlagValue<LimitKey> {
        public LimitKeyConverter() { super(LimitKey::parse); }
    }

    public static final class AddressCeilingConverter extends FlagValue<AddressCeiling> {
        public AddressCeilingConverter() { super(AddressCeiling::parse); }
    }

    public static final class LimitModeConverter extends FlagValue<LimitMode> {
        public LimitModeConverter() { super(LimitMode::parse); }
    }

    public static final class MissingKeyConverter extends FlagValue<MissingKey> {
        public MissingKeyConverter() { super(text -> choose(MissingKey.class, "a missing-key action", text)); }
    }

    public static final class LimitScopeConverter extends FlagValue<LimitScope> {
        public LimitScopeConverter() { super(text -> choose(LimitScope.class, "a limit scope", text)); }
    }

    public static final class StaleModeConverter extends FlagValue<StaleMode> {
        public StaleModeConverter() { super(text -> choose(StaleMode.class, "a stale mode", text)); }
    }

    public static final class EdgeBalanceConverter extends FlagValue<EdgeBalance> {
        public EdgeBalanceConverter() { super(text -> choose(EdgeBalance.class, "an edge balance", text)); }
    }

    public static final class FleetLimitConverter extends FlagValue<FleetLimit> {
        public FleetLimitConverter() { super(text -> choose(FleetLimit.class, "a fleet limit", text)); }
    }

    public static final class AgeSourceConverter extends FlagValue<AgeSource> {
        public AgeSourceConverter() { super(text -> choose(AgeSource.class, "an Age source", text)); }
    }

    public static final class OriginConverter extends FlagValue<URI> {
        public OriginConverter() { super(OriginUrl::parse); }
    }

    public static final class BalanceConverter extends FlagValue<Balance> {
        public BalanceConverter() { super(text -> choose(Balance.class, "a balance method", text)); }
    }
}