package dev.ratecache.suite.switches;

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
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import picocli.CommandLine.Mixin;

/**
 * Every switch of the stack, as the command line gives them (a picocli mixin of one group per
 * concern: {@link LimitSwitches}, {@link CacheSwitches}, {@link OriginSwitches},
 * {@link FleetSwitches}, {@link TlsSwitches}, {@link ConnectionSwitches}), checked together here
 * ({@link #problems()}: some checks span groups) and turned into the product-neutral stack spec
 * every edge renders ({@link #spec}). The setters are for code that builds a stack without a
 * command line. The defaults are the reference experiment's setup, with 429 instead of nginx's
 * default 503.
 */
public final class StackSwitches implements WholeNumber.Flags {
    private static final Pattern SIZE = Pattern.compile("\\d{1,9}[kmg]?");
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9._~/-]*");
    private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9.-]+:(\\d{1,5})");
    static final Map<String, WholeNumber> WHOLE_NUMBERS = WholeNumber.byFlag(
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

    @Mixin
    final LimitSwitches limits = new LimitSwitches();

    @Mixin
    final CacheSwitches caching = new CacheSwitches();

    @Mixin
    final OriginSwitches originSwitches = new OriginSwitches();

    @Mixin
    final FleetSwitches fleet = new FleetSwitches();

    @Mixin
    final TlsSwitches tlsSwitches = new TlsSwitches();

    @Mixin
    final ConnectionSwitches connections = new ConnectionSwitches();

    /** The user's own nginx config in the front tier's place (--nginx-conf, read by the command); null: the rendered front. */
    private dev.ratecache.suite.spec.UserFront ownFront;






    /** Problems with the values, each one line naming the flag and the accepted form; empty when all is well. */
    public List<String> problems() {
        List<String> p = new ArrayList<>();
        range(p, "--front-rate", limits.frontRate);
        range(p, "--front-burst", limits.frontBurst);
        range(p, "--back-rate", limits.backRate);
        range(p, "--back-burst", limits.backBurst);
        if (limits.rejectStatus != 429 && limits.rejectStatus != 503) {
            p.add("--reject-status must be 429 or 503 (got " + limits.rejectStatus + ")");
        }
        range(p, "--retry-after", limits.retryAfter);
        range(p, "--limit-conn", limits.limitConn);
        Path ageModule = AgeSource.module();
        if (caching.ageSource == AgeSource.NATIVE && (ageModule == null || !Files.isRegularFile(ageModule))) {
            p.add("--age-source native needs the module ./run-tests.sh builds (" + AgeSource.MODULE
                    + "): run it once as root, or build it as nginx/modules/age/README.md says");
        }
        if (!SIZE.matcher(caching.cacheSize).matches()) {
            p.add("--cache-size must be a size such as 100m or 2g (got '" + caching.cacheSize + "')");
        }
        caching.freshness.forEach((path, seconds) -> {
            if (!PATH.matcher(path).matches()) {
                p.add("--freshness path must start with / and hold no spaces or quotes (got '" + path + "')");
            }
            if (seconds == null || seconds < 1) {
                p.add("--freshness " + path + " needs a whole number of seconds >= 1, e.g. --freshness /hare=3");
            }
        });
        for (String address : caching.purgeAllow) {
            if (!address.matches("[0-9a-fA-F:.]+(/\\d{1,3})?")) {
                p.add("--purge-allow takes IP addresses or CIDR ranges (got '" + address + "')");
            }
        }
        // The command line's converter refused these already; origins set in code are checked here.
        for (URI origin : originSwitches.origins) {
            OriginUrl.problem(origin).ifPresent(why -> p.add("--origin " + why));
        }
        p.addAll(identityProblems());
        for (String cidr : limits.allow) {
            if (!Cidr.valid(cidr)) {
                p.add("--allow takes networks as CIDR, e.g. 10.0.0.0/8 or 2001:db8::/32 (got '" + cidr + "')");
            } else {
                // nginx's geo would warn that these bits are meaningless and allow the whole network.
                Cidr.network(cidr).ifPresent(network -> p.add("--allow " + cidr + " has bits set past its /"
                        + cidr.substring(cidr.indexOf('/') + 1) + " prefix, which nginx ignores: did you mean " + network
                        + " (or " + Cidr.host(cidr) + " for the one address)?"));
            }
        }
        if (limits.limitScope == LimitScope.MISSES && !limits.frontLimit) {
            p.add("--limit-scope misses chooses which requests cost per-client quota, which --no-front-limit turns off:"
                    + " drop one of them");
        }
        range(p, "--edges", fleet.edges);
        p.addAll(fleetProblems());
        p.addAll(quotaProblems());
        p.addAll(tlsProblems());
        range(p, "--keepalive", connections.keepalive);
        range(p, "--read-timeout", connections.readTimeout);
        range(p, "--client-timeout", connections.clientTimeout);
        if (!connections.workers.equals("auto") && !connections.workers.matches("[1-9]\\d{0,2}")) {
            p.add("--workers must be auto or a whole number from 1 to 999 (got '" + connections.workers + "')");
        }
        return p;
    }

    /** The switches that need a key, given without one (by address they would change nothing), and the tiers file's problem. */
    private List<String> identityProblems() {
        List<String> p = new ArrayList<>();
        if (limits.limitKey.byAddress()) {
            String addKey = ": add --limit-key header:NAME, cookie:NAME or arg:NAME";
            if (limits.tiers != null) {
                p.add("--tiers needs a key to put in tiers" + addKey);
            }
            if (limits.missingKey != MissingKey.ADDR) {
                p.add("--missing-key " + limits.missingKey + " needs a key that can be missing" + addKey);
            }
            if (limits.addressCeiling.kind() != AddressCeiling.Kind.AUTO) {
                p.add("--address-ceiling " + limits.addressCeiling + " needs a key to stand beside (by address the limit is"
                        + " the address's own)" + addKey);
            }
            return p;
        }
        if (limits.tiers != null) {
            try {
                TiersFile.read(limits.tiers);
            } catch (TiersFile.Malformed e) {
                p.add("--tiers " + e.getMessage());
            }
        }
        return p;
    }

    /**
     * A --quota that does not parse, a tier's quota (--tiers) that --quota-window cannot lay out, or
     * quotas that the rest of the switches leave nothing to count by.
     */
    private List<String> quotaProblems() {
        List<String> p = new ArrayList<>();
        List<LimitTier> ownQuotas = tiersQuietly().stream().filter(LimitTier::ownQuota).toList();
        if (limits.quota == null && ownQuotas.isEmpty()) {
            if (limits.quotaWindow != Quota.Window.SLIDING) {
                p.add("--quota-window goes with --quota (or a tier's quota= in --tiers): add --quota N/WINDOW ("
                        + Quota.FORM + ")");
            }
            return p;
        }
        if (limits.quota != null) {
            try {
                calendarProblem(Quota.parse(limits.quota, limits.quotaWindow), limits.quota).ifPresent(p::add);
            } catch (IllegalArgumentException e) {
                p.add("--quota: " + e.getMessage());
                return p;
            }
        }
        for (LimitTier t : ownQuotas) {
            t.quotaInForce(Optional.empty(), limits.quotaWindow)
                    .flatMap(q -> calendarProblem(q, "tier '" + t.name() + "'"
                            + (limits.tiers != null ? " of " + limits.tiers.getFileName() : "") + ": quota=" + t.quota()))
                    .ifPresent(p::add);
        }
        if (!limits.frontLimit) {
            p.add((limits.quota != null ? "--quota" : "A tier's quota= (--tiers)") + " sits beside the per-client burst"
                    + " limit, which --no-front-limit turns off: drop one of them");
        }
        return p;
    }

    /** A calendar window over a day: its windows restart at each UTC midnight, so the script would make it a day. */
    private static Optional<String> calendarProblem(Quota quota, String given) {
        if (quota.window() == Quota.Window.CALENDAR && quota.windowSeconds() > 86_400) {
            return Optional.of("--quota-window calendar restarts at each UTC midnight, so its window is a day at most (got "
                    + given + "): give fixed or sliding for a longer one");
        }
        return Optional.empty();
    }

    /** The tiers file's tiers, by key; empty without one, by address, or when it is malformed (which identityProblems says). */
    private List<LimitTier> tiersQuietly() {
        if (limits.limitKey.byAddress()) {
            return List.of();
        }
        try {
            return limitTiers();
        } catch (IllegalStateException e) {
            return List.of();
        }
    }

    /** TLS's flags without --tls, one of the certificate and key without the other, and the files themselves. */
    private List<String> tlsProblems() {
        List<String> p = new ArrayList<>();
        if (!tlsSwitches.tls) {
            for (String flag : List.of(tlsSwitches.tlsCert != null ? "--tls-cert" : "", tlsSwitches.tlsKey != null ? "--tls-key" : "",
                    tlsSwitches.hsts ? "--hsts" : "", !tlsSwitches.http2 ? "--no-http2" : "", tlsSwitches.httpPort != 0 ? "--http-port" : "")) {
                if (!flag.isEmpty()) {
                    p.add(flag + " goes with --tls: add --tls");
                }
            }
            return p;
        }
        if ((tlsSwitches.tlsCert == null) != (tlsSwitches.tlsKey == null)) {
            p.add(tlsSwitches.tlsCert == null ? "--tls-key needs its certificate: add --tls-cert FILE"
                    : "--tls-cert needs its private key: add --tls-key FILE");
        } else if (tlsSwitches.tlsCert != null) {
            TlsFileCheck.problem(tlsSwitches.tlsCert, tlsSwitches.tlsKey).ifPresent(p::add);
        }
        if (tlsSwitches.httpPort != 0) {
            range(p, "--http-port", tlsSwitches.httpPort);
        }
        return p;
    }

    private List<String> fleetProblems() {
        List<String> p = new ArrayList<>();
        if (fleet.fleetLimit != FleetLimit.PER_EDGE && fleet.edges < 2) {
            p.add("--fleet-limit " + fleet.fleetLimit + " needs a fleet: add --edges N with N >= 2");
        } else if (fleet.fleetLimit != FleetLimit.PER_EDGE && !limits.frontLimit) {
            p.add("--fleet-limit " + fleet.fleetLimit + " shares the per-client limit, which --no-front-limit turns off");
        } else if (fleet.fleetLimit != FleetLimit.PER_EDGE && limits.limitScope == LimitScope.MISSES) {
            p.add("--fleet-limit " + fleet.fleetLimit + " is not needed with --limit-scope misses: the one back end"
                    + " already counts each client for the whole fleet");
        } else if (fleet.fleetLimit == FleetLimit.CLIENT_HASH && fleet.edgeBalance == EdgeBalance.URI_HASH) {
            p.add("--fleet-limit client-hash and --edge-balance uri-hash both choose the edge: give one of them");
        }
        if (fleet.fleetRedis != null && fleet.fleetLimit != FleetLimit.SHARED && limits.quota == null
                && tiersQuietly().stream().noneMatch(LimitTier::ownQuota)) {
            p.add("--fleet-redis goes with --fleet-limit shared or --quota (or a tier's quota= in --tiers)");
        } else if (fleet.fleetRedis != null) {
            var hostPort = HOST_PORT.matcher(fleet.fleetRedis);
            int port = hostPort.matches() ? Integer.parseInt(hostPort.group(1)) : 0;
            if (port < 1 || port > 65_535) {
                p.add("--fleet-redis must be HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:6379 (got '"
                        // A password before an @ (Redis's AUTH) is refused unseen, as --origin's is.
                        + (fleet.fleetRedis.contains("@") ? "***" + fleet.fleetRedis.substring(fleet.fleetRedis.lastIndexOf('@'))
                                : fleet.fleetRedis) + "')");
            }
        }
        range(p, "--fleet-redis-timeout", fleet.fleetRedisTimeout);
        return p;
    }

    /**
     * The tiers of {@code --tiers}, in file order, or without it those given in code; empty without
     * either. The file was checked by {@link #problems()}.
     */
    public List<LimitTier> limitTiers() {
        if (limits.tiers == null) {
            return limits.givenTiers;
        }
        try {
            return TiersFile.read(limits.tiers);
        } catch (TiersFile.Malformed e) {
            throw new IllegalStateException("--tiers " + e.getMessage(), e);
        }
    }

    /**
     * The per-client tiers in force for {@code tiers} (a tiers file's): those, then, unless they name
     * one, the anonymous tier at --front-rate, --front-burst and --front-mode. The renderer makes a
     * zone of each; the address ceiling's auto is resolved against them.
     */
    public List<LimitTier> tiersInForce(List<LimitTier> fileTiers) {
        List<LimitTier> all = new ArrayList<>(fileTiers);
        if (all.stream().noneMatch(t -> t.name().equals(LimitTier.ANONYMOUS))) {
            all.add(new LimitTier(LimitTier.ANONYMOUS, limits.frontRate, limits.frontBurst, limits.frontMode, List.of()));
        }
        return all;
    }

    /**
     * The address ceiling beside the key limits of {@code tiers} (a tiers file's), auto resolved
     * against the most generous of {@link #tiersInForce}: what the renderer renders and the model
     * assumes. Its kind is OFF when it is off.
     */
    public AddressCeiling addressCeilingInForce(List<LimitTier> fileTiers) {
        return limits.addressCeiling.resolved(tiersInForce(fileTiers));
    }

    private static void range(List<String> p, String flag, int value) {
        WHOLE_NUMBERS.get(flag).check(p, value);
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WHOLE_NUMBERS;
    }

    /** An independent copy: a matrix changes a few switches per cell on top of the user's. */
    public StackSwitches copy() {
        StackSwitches c = new StackSwitches();
        // Every flag from the annotations, as Flags.differing reads them, so that a flag added is copied too.
        Flags.copy(this, c);
        c.limits.givenTiers = limits.givenTiers;
        c.tlsSwitches.throwawayTls = tlsSwitches.throwawayTls;
        c.ownFront = ownFront;
        return c;
    }

    /** The user's own config as the front tier (--nginx-conf); null for the suite's rendered one. */
    public StackSwitches ownFront(dev.ratecache.suite.spec.UserFront own) { ownFront = own; return this; }
    public Optional<dev.ratecache.suite.spec.UserFront> ownFront() { return Optional.ofNullable(ownFront); }

    // Fluent setters, for tests and other code that builds a scenario without a command line.
    public StackSwitches frontLimit(boolean on) { limits.frontLimit = on; return this; }
    public StackSwitches frontRate(int r) { limits.frontRate = r; return this; }
    public StackSwitches frontBurst(int n) { limits.frontBurst = n; return this; }
    public StackSwitches frontMode(LimitMode m) { limits.frontMode = m; return this; }
    public StackSwitches limitKey(LimitKey k) { limits.limitKey = k; return this; }
    public StackSwitches missingKey(MissingKey m) { limits.missingKey = m; return this; }
    public StackSwitches addressCeiling(AddressCeiling c) { limits.addressCeiling = c; return this; }
    public StackSwitches tiers(Path file) { limits.tiers = file; return this; }
    /** Tiers of keys without a file: a tiers cell's own, which its folder's tiers.txt then names. */
    public StackSwitches tiers(List<LimitTier> given) { limits.givenTiers = List.copyOf(given); return this; }
    public StackSwitches allow(List<String> cidrs) { limits.allow = new ArrayList<>(cidrs); return this; }
    public StackSwitches limitScope(LimitScope s) { limits.limitScope = s; return this; }
    public StackSwitches backLimit(boolean on) { limits.backLimit = on; return this; }
    public StackSwitches backRate(int r) { limits.backRate = r; return this; }
    public StackSwitches backBurst(int n) { limits.backBurst = n; return this; }
    public StackSwitches backMode(LimitMode m) { limits.backMode = m; return this; }
    public StackSwitches rejectStatus(int s) { limits.rejectStatus = s; return this; }
    public StackSwitches retryAfter(int s) { limits.retryAfter = s; return this; }
    public StackSwitches limitConn(int n) { limits.limitConn = n; return this; }
    public StackSwitches cache(boolean on) { caching.cache = on; return this; }
    public StackSwitches cacheSize(String s) { caching.cacheSize = s; return this; }
    public StackSwitches backgroundUpdate(boolean on) { caching.backgroundUpdate = on; return this; }
    public StackSwitches age(boolean on) { caching.age = on; return this; }
    public StackSwitches ageSource(AgeSource a) { caching.ageSource = a; return this; }
    public StackSwitches stale(StaleMode m) { caching.stale = m; return this; }
    public StackSwitches freshness(String path, int seconds) { caching.freshness.put(path, seconds); return this; }
    public StackSwitches purgeAllow(List<String> a) { caching.purgeAllow = new ArrayList<>(a); return this; }
    public StackSwitches origins(List<URI> o) { originSwitches.origins = new ArrayList<>(o); return this; }
    public StackSwitches balance(Balance b) { originSwitches.balance = b; return this; }
    public StackSwitches edges(int n) { fleet.edges = n; return this; }
    public StackSwitches edgeBalance(EdgeBalance b) { fleet.edgeBalance = b; return this; }
    public StackSwitches fleetLimit(FleetLimit f) { fleet.fleetLimit = f; return this; }
    public StackSwitches fleetRedis(String hostPort) { fleet.fleetRedis = hostPort; return this; }
    public StackSwitches fleetRedisTimeout(int ms) { fleet.fleetRedisTimeout = ms; return this; }
    public StackSwitches tls(boolean on) { tlsSwitches.tls = on; return this; }
    public StackSwitches tlsFiles(Path certificate, Path key) { tlsSwitches.tlsCert = certificate; tlsSwitches.tlsKey = key; return this; }
    public StackSwitches http2(boolean on) { tlsSwitches.http2 = on; return this; }
    public StackSwitches hsts(boolean on) { tlsSwitches.hsts = on; return this; }
    public StackSwitches httpPort(int port) { tlsSwitches.httpPort = port; return this; }
    /** The throwaway CA's files the suite made for this run (--tls without --tls-cert). */
    public StackSwitches throwawayTls(TlsFiles files) { tlsSwitches.throwawayTls = files; return this; }
    public StackSwitches keepalive(int n) { connections.keepalive = n; return this; }
    public StackSwitches readTimeout(int s) { connections.readTimeout = s; return this; }
    public StackSwitches clientTimeout(int s) { connections.clientTimeout = s; return this; }
    public StackSwitches workers(String w) { connections.workers = w; return this; }

    public boolean frontLimit() { return limits.frontLimit; }
    public boolean backLimit() { return limits.backLimit; }
    public LimitKey limitKey() { return limits.limitKey; }
    public Path tiersFile() { return limits.tiers; }
    public MissingKey missingKey() { return limits.missingKey; }
    public AddressCeiling addressCeiling() { return limits.addressCeiling; }
    public List<String> allow() { return List.copyOf(limits.allow); }
    public LimitScope limitScope() { return limits.limitScope; }
    public boolean cache() { return caching.cache; }
    public String cacheSize() { return caching.cacheSize; }
    /** What counts the edge's Age, auto resolved: native when run-tests.sh built the module, else njs. */
    public AgeSource ageSourceInForce() { return caching.ageSource.resolved(AgeSource.module()); }
    public int rejectStatus() { return limits.rejectStatus; }
    public int retryAfter() { return limits.retryAfter; }
    public List<URI> origins() { return List.copyOf(originSwitches.origins); }
    public List<String> purgeAllow() { return List.copyOf(caching.purgeAllow); }
    public int edges() { return fleet.edges; }
    public boolean tls() { return tlsSwitches.tls; }
    /** The quota per client; empty without --quota. Ask {@link #problems()} first. */
    public Optional<Quota> quota() {
        return limits.quota == null ? Optional.empty() : Optional.of(Quota.parse(limits.quota, limits.quotaWindow));
    }
    public StackSwitches quota(String quota, Quota.Window window) { limits.quota = quota; limits.quotaWindow = window; return this; }
    public boolean http2() { return tlsSwitches.tls && tlsSwitches.http2; }
    public boolean hsts() { return tlsSwitches.tls && tlsSwitches.hsts; }
    public int httpPort() { return tlsSwitches.tls ? tlsSwitches.httpPort : 0; }
    /**
     * The certificate, key and trust in force with --tls: the user's own, or the throwaway CA's once
     * made; empty without --tls, or before the throwaway is made ({@link #needsThrowawayTls()}).
     */
    public java.util.Optional<TlsFiles> tlsFiles() {
        if (!tlsSwitches.tls) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.ofNullable(tlsSwitches.tlsCert != null ? TlsFiles.own(tlsSwitches.tlsCert, tlsSwitches.tlsKey) : tlsSwitches.throwawayTls);
    }
    /** Whether --tls still waits for its throwaway CA: given without --tls-cert, and none made yet. */
    public boolean needsThrowawayTls() { return tlsSwitches.tls && tlsSwitches.tlsCert == null && tlsSwitches.throwawayTls == null; }
    public EdgeBalance edgeBalance() { return fleet.edgeBalance; }
    public FleetLimit fleetLimit() { return fleet.fleetLimit; }
    /** Whether the edges share each client's bucket in Redis: --fleet-limit shared over a fleet, with the limit on. */
    public boolean fleetShared() { return fleet.edges > 1 && limits.frontLimit && fleet.fleetLimit == FleetLimit.SHARED; }
    /** The Redis of --fleet-limit shared as HOST:PORT; null until given or started. */
    public String fleetRedis() { return fleet.fleetRedis; }
    // What the model of the tiers (predictions, advise) and the back limit's promise need to know.
    /**
     * Whether both tiers limit as the reference experiment did, which the defaults are: the front 100 r/s
     * burst 200 and the back 10 r/s burst 50, both queueing the burst.
     */
    public boolean limitsAsTheReference() {
        StackSwitches reference = new StackSwitches();
        return frontRate() == reference.frontRate() && frontBurst() == reference.frontBurst()
                && frontMode().equals(reference.frontMode()) && backRate() == reference.backRate()
                && backBurst() == reference.backBurst() && backMode().equals(reference.backMode());
    }

    public int frontRate() { return limits.frontRate; }
    public int frontBurst() { return limits.frontBurst; }
    public LimitMode frontMode() { return limits.frontMode; }
    public int backRate() { return limits.backRate; }
    public int backBurst() { return limits.backBurst; }
    public LimitMode backMode() { return limits.backMode; }
    public int limitConn() { return limits.limitConn; }
    public boolean backgroundUpdate() { return caching.backgroundUpdate; }
    public StaleMode stale() { return caching.stale; }
    public int readTimeout() { return connections.readTimeout; }
    /** The --freshness overrides, in the order given. */
    public Map<String, Integer> freshness() { return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(caching.freshness)); }
    public boolean age() { return caching.age; }
    public Balance balance() { return originSwitches.balance; }
    public int fleetRedisTimeout() { return fleet.fleetRedisTimeout; }
    public int keepalive() { return connections.keepalive; }
    public int clientTimeout() { return connections.clientTimeout; }
    public String workers() { return connections.workers; }

    /** A one-line description of the switches that differ from the defaults, for logs and reports. */
    public String describe() {
        if (ownFront != null) {
            // The rendered front's flags do not apply: the user's config is the front.
            return "front tier: your config (" + ownFront.describe() + "), its limits " + (limits.frontLimit ? "on" : "left out")
                    + " and its cache " + (caching.cache ? "on" : "left out")
                    + ", back limit " + (limits.backLimit ? limits.backRate + " r/s burst " + limits.backBurst + " " + limits.backMode : "off")
                    + (tlsSwitches.tls ? ", TLS (throwaway CA where its files are not here)" : "");
        }
        return "front limit " + (limits.frontLimit ? limits.frontRate + " r/s burst " + limits.frontBurst + " " + limits.frontMode : "off")
                + (limits.frontLimit && (!limits.limitKey.byAddress() || !limits.allow.isEmpty() || limits.limitScope == LimitScope.MISSES)
                        ? " keyed by " + (limits.limitKey.byAddress() ? "address" : limits.limitKey + " (missing: " + limits.missingKey
                                + ", address ceiling " + limits.addressCeiling + ")")
                                + (limits.tiers != null ? ", tiers from " + limits.tiers.getFileName() : "")
                                + (limits.allow.isEmpty() ? "" : ", not for " + String.join(" ", limits.allow))
                                + (limits.limitScope == LimitScope.MISSES ? ", counting only edge-cache misses" : "")
                        : "")
                + (limits.quota != null ? ", quota " + limits.quota + " " + limits.quotaWindow : "")
                + (limits.tiers != null && tiersQuietly().stream().anyMatch(LimitTier::ownQuota)
                        ? ", quotas per tier" + (limits.quota == null ? " " + limits.quotaWindow : "") : "")
                + ", back limit " + (limits.backLimit ? limits.backRate + " r/s burst " + limits.backBurst + " " + limits.backMode : "off")
                + ", edge cache " + (caching.cache ? "on (" + caching.cacheSize + (caching.stale == StaleMode.PROTECTIVE ? ", stale protective" : "")
                        + (caching.age ? ", Age " + ageSourceInForce() : ", no Age") + ")" : "off")
                + ", rejections " + limits.rejectStatus
                + (limits.limitConn > 0 ? ", limit_conn " + limits.limitConn : "")
                + (tlsSwitches.tls ? ", TLS " + (tlsSwitches.http2 ? "with HTTP/2" : "HTTP/1.1 only") + (tlsSwitches.tlsCert != null ? " (own certificate)"
                        : " (throwaway CA)") + (tlsSwitches.hsts ? ", HSTS" : "") + (tlsSwitches.httpPort != 0 ? ", http on " + tlsSwitches.httpPort
                                + " redirects" : "") : "")
                + (fleet.edges > 1 ? ", " + fleet.edges + " edges " + (fleet.edgeBalance == EdgeBalance.URI_HASH
                        ? "sharded by URI (hash $request_uri consistent)" : fleet.fleetLimit == FleetLimit.CLIENT_HASH
                                ? "by client (hash of the client)" : "round robin (independent caches)")
                        + ", per-client limit " + fleet.fleetLimit : "");
    }

    /**
     * The stack these switches and {@code ports} describe, for any edge, in no product's words.
     * Ask {@link #problems()} first: the spec takes the values as they are.
     */
    public StackSpec spec(TierPorts ports) {
        List<URI> originUris = origins().isEmpty()
                ? List.of(URI.create("http://" + Ports.LOOPBACK + ":" + ports.origin()))
                : origins();
        List<StackSpec.KeyTier> keyTiers = limitTiers().stream()
                .map(t -> new StackSpec.KeyTier(t.name(), specLimit(t.rate(), t.burst(), t.mode()), t.keys(),
                        t.quotaInForce(quota(), limits.quotaWindow))).toList();
        Optional<StackSpec.Tls> tlsSpec = tls() ? Optional.of(new StackSpec.Tls(tlsFiles(), http2(), hsts(), httpPort())) : Optional.empty();
        return new StackSpec(
                frontLimit() ? Optional.of(specLimit(frontRate(), frontBurst(), frontMode()))
                        : Optional.empty(),
                backLimit() ? Optional.of(specLimit(backRate(), backBurst(), backMode()))
                        : Optional.empty(),
                specKey(limitKey()), missingKey() == MissingKey.REJECT ? StackSpec.Missing.REJECT : StackSpec.Missing.ADDR,
                specCeiling(this), keyTiers, allow(), limitScope(), limitConn(),
                rejectStatus(), retryAfter(),
                new StackSpec.Cache(cache(), cacheSize(),
                        stale() == StaleMode.PROTECTIVE ? StackSpec.Stale.PROTECTIVE : StackSpec.Stale.RFC,
                        backgroundUpdate(), age(), freshness()),
                purgeAllow(), originUris, origins().isEmpty(), balance(), ports,
                new StackSpec.Fleet(edges(), edgeBalance(), fleetLimit(),
                        Optional.ofNullable(fleetRedis()), fleetRedisTimeout()),
                tlsSpec, new StackSpec.Connections(keepalive(), readTimeout(), clientTimeout()),
                new StackSpec.Tuning(workers(), ageSourceInForce()),
                new StackSpec.Said(describe(), Flags.differing(this, new StackSwitches())), quota(),
                Optional.ofNullable(ownFront));
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
    private static Optional<StackSpec.Limit> specCeiling(StackSwitches switches) {
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

    public static final class QuotaWindowConverter extends FlagValue<Quota.Window> {
        public QuotaWindowConverter() { super(text -> choose(Quota.Window.class, "a quota window", text)); }
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