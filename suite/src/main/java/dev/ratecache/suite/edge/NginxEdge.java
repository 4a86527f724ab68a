package dev.ratecache.suite.edge;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.model.Rate;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.nginx.StubStatus;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.suite.switches.LimitMode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * nginx's tiers behind the stack spec, the suite's first edge and its reference: the back end, the
 * front end (or with {@code edges > 1} that many edges behind a balancing nginx), each a real nginx
 * master in its own prefix folder, from the templates in nginx/. It can do everything the spec
 * says, so it refuses nothing. Besides the tiers it starts what they need: the Redis a fleet shares
 * when the spec names none. TLS needs its files in the spec: the stack makes a throwaway CA first.
 */
public final class NginxEdge implements Edge {
    private final Path templates;
    /** The machine the rendered configs name; null for this one, probed when they are rendered. */
    private final NginxRenderer.Machine machine;

    public NginxEdge(Path templates) {
        this(templates, null);
    }

    /** Renders configs for {@code machine} (render --portable); starting tiers always renders them for this one. */
    public NginxEdge(Path templates, NginxRenderer.Machine machine) {
        this.templates = templates;
        this.machine = machine;
    }

    @Override
    public String name() {
        return "nginx";
    }

    @Override
    public Optional<String> notInstalled() {
        // The suite does not run without nginx: its start checks it long before a product's question.
        return Optional.empty();
    }

    @Override
    public String version() {
        return NginxServer.version();
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.allOf(Capability.class);
    }

    @Override
    public String slowClientBound(SlowClient attack, StackSpec spec) {
        int t = spec.connections().clientTimeout();
        String perClient = spec.front().map(l -> "limit_req " + l.rate() + " r/s, burst " + l.burst() + " per client")
                .orElse("no per-client limit_req") + (spec.limitConn() > 0 ? ", limit_conn " + spec.limitConn() : "");
        return switch (attack) {
            case HEADERS -> "client_header_timeout " + t + "s, for the whole header from its first byte";
            case BODY -> "client_body_timeout " + t + "s between two reads; " + perClient;
            case READ -> "send_timeout " + t + "s between two writes; " + perClient;
        };
    }

    @Override
    public Optional<String> refusal(StackSpec spec) {
        return Optional.empty();
    }

    /** One nginx of the stack: its tier, the spec it is rendered from, and its folder in the stack's. */
    private record TierAt(Tier tier, StackSpec spec, String folder) {}

    /**
     * The nginx processes of {@code spec}, front first: the front end, or the balancer and each edge
     * on its own port; then the back end.
     */
    private static List<TierAt> layout(StackSpec spec) {
        List<TierAt> tiers = new ArrayList<>();
        if (spec.edges() == 1) {
            tiers.add(new TierAt(Tier.FRONT, spec, "front"));
        } else {
            tiers.add(new TierAt(Tier.BALANCER, spec, "balancer"));
            for (int i = 0; i < spec.edges(); i++) {
                tiers.add(new TierAt(Tier.FRONT, edgeSpec(spec, i), "front-" + (i + 1)));
            }
        }
        tiers.add(new TierAt(Tier.BACK, spec, "back"));
        return tiers;
    }

    /**
     * Renders each tier into its own folder of {@code dir}: back/, front/ (or front-1/ ... front-N/
     * and balancer/ for a fleet); returns their top-level files, front first (the balancer, with a fleet).
     */
    @Override
    public List<Path> render(StackSpec spec, Path dir) throws IOException {
        NginxRenderer renderer = machine == null ? new NginxRenderer(templates) : new NginxRenderer(templates, machine);
        List<Path> files = new ArrayList<>();
        for (TierAt t : layout(spec)) {
            files.add(renderer.render(t.tier(), t.spec(), dir.resolve(t.folder())));
        }
        return files;
    }

    /** The spec as edge {@code i} (0-based) of a fleet sees it: its own port, on the loopback. */
    public static StackSpec edgeSpec(StackSpec spec, int i) {
        return spec.withPorts(spec.ports().edge(i, spec.edges()));
    }

    /**
     * Starts the back end, then the front end (each edge, then the balancer: each tier once what it
     * sends to accepts), each checked with {@code nginx -t} first, in {@code dir}/back,
     * {@code dir}/front (front-N, balancer); the fleet's Redis in {@code dir}/fleet-redis.
     */
    @Override
    public Tiers start(StackSpec spec, Path dir) throws IOException {
        List<AutoCloseable> started = new ArrayList<>();
        try {
            ProductTemplates.WithFleetRedis withRedis = ProductTemplates.startFleetRedis(spec, dir, started);
            spec = withRedis.spec();
            RedisServer fleetRedis = withRedis.server();
            List<TierAt> layout = layout(spec);
            NginxServer back = null;
            NginxServer balancer = null;
            List<NginxServer> fronts = new ArrayList<>();
            for (int i = layout.size() - 1; i >= 0; i--) {
                TierAt t = layout.get(i);
                NginxServer server = NginxServer.prepare(t.tier(), t.spec(), dir.resolve(t.folder())).start();
                started.add(server);
                switch (t.tier()) {
                    case BACK -> back = server;
                    case BALANCER -> balancer = server;
                    case FRONT -> fronts.add(0, server);
                }
            }
            return new Tiers(spec, dir, back, fronts, balancer, fleetRedis);
        } catch (IOException | RuntimeException e) {
            ProductTemplates.closeInReverse(started);
            throw e;
        } catch (InterruptedException e) {
            ProductTemplates.closeInReverse(started);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the tiers", e);
        }
    }

    /**
     * nginx's started tiers: what every edge's give (front URI, PIDs, events), and nginx's own
     * servers for what only nginx has (its status servers, its error logs, a fleet's balancer).
     */
    public static final class Tiers implements Edge.Running {
        private final StackSpec spec;
        private final Path dir;
        private final NginxServer back;
        private final List<NginxServer> fronts;
        private final NginxServer balancer;
        private final RedisServer fleetRedis;

        private Tiers(StackSpec spec, Path dir, NginxServer back, List<NginxServer> fronts, NginxServer balancer,
                RedisServer fleetRedis) {
            this.spec = spec;
            this.dir = dir;
            this.back = back;
            this.fronts = List.copyOf(fronts);
            this.balancer = balancer;
            this.fleetRedis = fleetRedis;
        }

        @Override
        public URI frontUri() {
            TierPorts ports = spec.ports();
            // 0.0.0.0 listens everywhere; a client on this machine reaches it on loopback.
            String host = ports.listen().equals("0.0.0.0") ? Ports.LOOPBACK : ports.listen();
            return URI.create((spec.tls().isPresent() ? "https://" : "http://") + host + ":" + ports.front());
        }

        /** The front's PID (the first edge's with several), then the back's. */
        @Override
        public List<Long> pids() {
            return List.of(fronts.get(0).pid(), back.pid());
        }

        /** Every edge's and the balancer's PIDs: what the front tier's CPU is the sum of. */
        @Override
        public List<Long> frontPids() {
            List<Long> pids = new ArrayList<>(fronts.stream().map(NginxServer::pid).toList());
            if (balancer != null) {
                pids.add(balancer.pid());
            }
            return pids;
        }

        @Override
        public List<EdgeEvent> frontEvents() throws IOException {
            return NginxLog.events(fronts.stream().map(NginxServer::accessLog).toList());
        }

        /** The first edge's: rendered and checked with nginx -t first, so the moment returned is the signal's. */
        @Override
        public long reloadFront(StackSpec spec) throws IOException, InterruptedException {
            NginxServer front = fronts.get(0);
            front.rewrite(spec);
            long signalled = System.currentTimeMillis();
            front.reload();
            return signalled;
        }

        @Override
        public List<Long> frontWorkers() {
            return fronts.get(0).workers();
        }

        /** proxy_cache_path's folder, relative to the prefix (snippets/front/cache-zone.conf). */
        @Override
        public Optional<Path> frontCacheFolder() {
            return Optional.of(fronts.get(0).prefix().resolve("cache"));
        }

        @Override
        public List<EdgeEvent> backEvents() throws IOException {
            return NginxLog.events(back.accessLog());
        }

        /** The spec the tiers run: the one given, with the fleet's Redis the start made. */
        public StackSpec spec() {
            return spec;
        }

        public NginxServer back() {
            return back;
        }

        /** The front end tiers: one, or the edges behind the balancer. */
        public List<NginxServer> fronts() {
            return fronts;
        }

        public Optional<NginxServer> balancer() {
            return Optional.ofNullable(balancer);
        }

        /** The Redis the edges share, when the start made it. */
        public Optional<RedisServer> fleetRedis() {
            return Optional.ofNullable(fleetRedis);
        }

        /** The certificate, key and trust in force with TLS. */
        public Optional<TlsFiles> tls() {
            return spec.tls().flatMap(StackSpec.Tls::files);
        }

        /**
         * Stops the balancer, the edges, the back end and the fleet's Redis, in that order; a fleet's
         * edges' logs, complete now, are merged in the order their requests ended into
         * edges-access.log, to read as one front tier's.
         */
        @Override
        public void close() {
            if (balancer != null) {
                balancer.close();
            }
            fronts.forEach(NginxServer::close);
            back.close();
            if (fleetRedis != null) {
                fleetRedis.close();
            }
            if (fronts.size() > 1) {
                try {
                    NginxLog.merged(fronts.stream().map(NginxServer::accessLog).toList(), dir.resolve("edges-access.log"));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException("cannot merge the edges' logs into " + dir, e);
                }
            }
        }

        /** The front end tier; with several edges, the first of them. */
        public NginxServer front() {
            return fronts.get(0);
        }

        @Override
        public StackSpec runningSpec(StackSpec started) {
            return spec;
        }

        @Override
        public List<Long> companionPids() {
            return fleetRedis().map(r -> List.of(r.pid())).orElse(List.of());
        }

        @Override
        public List<Path> frontAccessLogs() {
            return fronts.stream().map(NginxServer::accessLog).toList();
        }

        @Override
        public Optional<Path> frontConfigFolder() {
            return Optional.of(front().prefix().resolve("conf"));
        }
    }

    /** Both stub_status pages, and the front end's access log: the status page counts no cache HIT. */
    @Override
    public LiveCounters liveCounters(Edge.Running tiers, StackSpec spec, Path dir, int rejectStatus) {
        int frontStatus = spec.ports().frontStatus();
        int backStatus = spec.ports().backStatus();
        AccessLogTail frontLog = new AccessLogTail(tiers.frontAccessLogs().get(0), rejectStatus);
        return new LiveCounters() {
            @Override public Reading read() throws IOException {
                return new Reading(stub(frontStatus), stub(backStatus), frontLog.read());
            }

            @Override public int polls() {
                return 1;
            }

            @Override public String source() {
                return "front access log";
            }
        };
    }

    private static OptionalLong stub(int port) {
        return StubStatus.fetch(port).map(s -> OptionalLong.of(s.requests())).orElse(OptionalLong.empty());
    }

    @Override
    public Optional<String> statusPage() {
        return Optional.of("/nginx_status");
    }

    @Override
    public String runFolderGuide() {
        return "nginx/*/conf: rendered configs; nginx/*/logs, origin.log: logs";
    }

    @Override
    public boolean runsOwnNginxConfig() {
        return true;
    }

    @Override
    public String displayName() {
        return "nginx";
    }

    @Override
    public String limiter() {
        return "leaky bucket (limit_req)";
    }

    @Override
    public LimitSpec limiterModel(int rate, int burst, LimitMode mode, int status) {
        return mode.limitReq(Rate.perSecond(rate), burst, status);
    }

    @Override
    public EdgeCacheSpec cacheModel(StackSpec spec) {
        // proxy_cache_lock_timeout and _age are the read timeout, as NginxRenderer renders them.
        return new EdgeCacheSpec(true, spec.readTimeout() * 1000L, spec.readTimeout() * 1000L,
                spec.cache().stale() == StackSpec.Stale.PROTECTIVE, spec.cache().backgroundUpdate(),
                NginxRenderer.EDGE_CACHE_INACTIVE.toMillis());
    }
}
