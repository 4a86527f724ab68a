package dev.ratecache.suite.stack;

import dev.ratecache.proc.Ports;
import dev.ratecache.proc.ProcCpu;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.edge.NginxLog;
import dev.ratecache.suite.edge.StackSpec;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.nginx.ThrowawayCa;
import dev.ratecache.suite.nginx.TlsFiles;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The whole path: origin, back end, front end, started in that order and stopped in reverse.
 * When the switches name a user's own origin, the suite's origin is not started. The tiers are
 * nginx's, or another edge product's through its adapter ({@link #aroundEdge}): then only the
 * product-neutral accessors apply (front URI, PIDs, events), not the nginx servers.
 *
 * <pre>{@code
 * try (Stack stack = Stack.start(new NginxSwitches(), StackPorts.free(), dir)) {
 *     HttpClient.newHttpClient().send(GET(stack.front().resolve("/hare")), ...);
 * }
 * }</pre>
 */
public final class Stack implements AutoCloseable {
    private final StackPorts ports;
    private final OriginServer origin;
    private final NginxServer back;
    /** The front end tiers: one, or with --edges N the N edges behind {@link #balancer}. */
    private final List<NginxServer> fronts;
    /** The balancing nginx on the front port with --edges N > 1; null with one edge. */
    private final NginxServer balancer;

    /** The Redis the edges share with --fleet-limit shared, when the suite started it; null otherwise. */
    private final RedisServer fleetRedis;

    private final boolean ownsOrigin;

    /** Another product's tiers, through its adapter; null for nginx's. */
    private final Edge.Running edgeTiers;
    private final String product;

    /** The certificate, key and trust of --tls; null without it. */
    private final TlsFiles tls;

    private Stack(StackPorts ports, OriginServer origin, NginxServer back, List<NginxServer> fronts,
            NginxServer balancer, RedisServer fleetRedis, boolean ownsOrigin, TlsFiles tls) {
        this(ports, origin, back, fronts, balancer, fleetRedis, ownsOrigin, tls, null, "nginx");
    }

    private Stack(StackPorts ports, OriginServer origin, NginxServer back, List<NginxServer> fronts,
            NginxServer balancer, RedisServer fleetRedis, boolean ownsOrigin, TlsFiles tls, Edge.Running edgeTiers,
            String product) {
        this.edgeTiers = edgeTiers;
        this.product = product;
        this.tls = tls;
        this.ports = ports;
        this.origin = origin;
        this.back = back;
        this.fronts = List.copyOf(fronts);
        this.balancer = balancer;
        this.fleetRedis = fleetRedis;
        this.ownsOrigin = ownsOrigin;
    }

    /**
     * Starts fresh tiers (new processes, empty cache) in {@code dir} in front of an origin that is
     * already running and that {@link #close()} leaves running: a matrix keeps one origin for all
     * its cells. {@code origin} is null when the switches name the user's own origins.
     */
    public static Stack around(OriginServer origin, NginxSwitches switches, StackPorts ports, Path dir)
            throws IOException {
        List<AutoCloseable> started = new ArrayList<>();
        try {
            RedisServer fleetRedis = null;
            if (switches.fleetShared() && switches.fleetRedis() == null) {
                fleetRedis = RedisServer.start(dir.resolve("fleet-redis"), Ports.free());
                started.add(fleetRedis);
                switches = switches.copy().fleetRedis(Ports.LOOPBACK + ":" + fleetRedis.port());
            }
            switches = withTls(switches, ports, dir);
            TlsFiles tls = switches.tlsFiles().orElse(null);
            NginxServer back = NginxServer.prepare(Tier.BACK, switches, ports, dir.resolve("nginx/back")).start();
            started.add(back);
            int edges = switches.edges();
            if (edges == 1) {
                NginxServer front = NginxServer.prepare(Tier.FRONT, switches, ports, dir.resolve("nginx/front")).start();
                return new Stack(ports, origin, back, List.of(front), null, null, false, tls);
            }
            List<NginxServer> fronts = new ArrayList<>();
            for (int i = 0; i < edges; i++) {
                NginxServer front = NginxServer.prepare(Tier.FRONT, switches, ports.edge(i, edges),
                        dir.resolve("nginx/front-" + (i + 1))).start();
                started.add(front);
                fronts.add(front);
            }
            NginxServer balancer = NginxServer.prepare(Tier.BALANCER, switches, ports, dir.resolve("nginx/balancer"))
                    .start();
            return new Stack(ports, origin, back, fronts, balancer, fleetRedis, false, tls);
        } catch (IOException | RuntimeException e) {
            closeQuietly(started.toArray(AutoCloseable[]::new));
            throw e;
        } catch (InterruptedException e) {
            closeQuietly(started.toArray(AutoCloseable[]::new));
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the tiers", e);
        }
    }

    /**
     * Starts {@code edge}'s two tiers from {@code spec} in {@code dir}/PRODUCT (haproxy/, varnish/),
     * in front of an origin that is already running and that {@link #close()} leaves running, as
     * {@link #around} does nginx's. The caller has asked {@link Edge#refusal} first.
     */
    public static Stack aroundEdge(Edge edge, StackSpec spec, OriginServer origin, StackPorts ports, Path dir)
            throws IOException {
        Edge.Running tiers = edge.start(spec, dir.resolve(edge.name()));
        return new Stack(ports, origin, null, List.of(), null, null, false, null, tiers, edge.name());
    }

    /** Starts everything with the origin's default settings and 10 request threads. */
    public static Stack start(NginxSwitches switches, StackPorts ports, Path dir) throws IOException {
        return start(switches, ports, dir, 10, List.of());
    }

    /** Starts everything with nginx's tiers; {@code originArgs} are extra Spring Boot arguments for the suite's origin. */
    public static Stack start(NginxSwitches switches, StackPorts ports, Path dir, int originThreads,
            List<String> originArgs) throws IOException {
        return start(EdgeProduct.NGINX, switches, ports, dir, originThreads, originArgs);
    }

    /**
     * Starts everything with {@code product}'s tiers: nginx's, or another product's through its
     * adapter in {@code dir}/PRODUCT (haproxy/, varnish/). The caller has asked
     * {@link EdgeProduct#refusal} first.
     */
    public static Stack start(EdgeProduct product, NginxSwitches switches, StackPorts ports, Path dir,
            int originThreads, List<String> originArgs) throws IOException {
        List<String> problems = switches.problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        Files.createDirectories(dir);
        OriginServer origin = null;
        if (switches.origins().isEmpty()) {
            origin = OriginServer.start(ports.origin(), ports.management(), originThreads,
                    dir.resolve("origin.log"), originArgs);
        }
        try {
            Optional<Edge> edge = product.adapter();
            Stack tiers = edge.isPresent() ? aroundEdge(edge.get(), StackSpec.from(switches, ports), origin, ports, dir)
                    : around(origin, switches, ports, dir);
            if (tiers.edgeTiers != null) {
                return new Stack(ports, origin, null, List.of(), null, null, true, null, tiers.edgeTiers, tiers.product);
            }
            return new Stack(ports, origin, tiers.back, tiers.fronts, tiers.balancer, tiers.fleetRedis, true, tiers.tls);
        } catch (IOException | RuntimeException e) {
            closeQuietly(origin);
            throw e;
        }
    }

    /**
     * {@code switches} with their TLS files: as given, or with a throwaway CA made in {@code dir}/tls
     * for --tls without --tls-cert, for the addresses clients reach the edge on.
     */
    public static NginxSwitches withTls(NginxSwitches switches, StackPorts ports, Path dir) throws IOException {
        if (!switches.needsThrowawayTls()) {
            return switches;
        }
        return switches.copy().throwawayTls(ThrowawayCa.write(dir.resolve("tls"), List.of(ports.listen())));
    }

    private static void closeQuietly(AutoCloseable... started) {
        for (AutoCloseable c : started) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // Already failing; the first error is the one worth reporting.
                }
            }
        }
    }

    public URI frontUri() {
        if (edgeTiers != null) {
            return edgeTiers.frontUri();
        }
        // 0.0.0.0 listens everywhere; a client on this machine reaches it on loopback.
        String host = ports.listen().equals("0.0.0.0") ? Ports.LOOPBACK : ports.listen();
        return URI.create((tls != null ? "https://" : "http://") + host + ":" + ports.front());
    }

    /** The certificate, key and trust of --tls (tls/ca.pem in the run folder for the throwaway CA); empty without it. */
    public Optional<TlsFiles> tls() { return Optional.ofNullable(tls); }
    public URI backUri() { return uri(ports.back()); }
    public StackPorts ports() { return ports; }
    /** The edge product whose tiers these are, as --edge names it. */
    public String product() { return product; }
    /** The front end tier; with several edges, the first of them (see {@link #fronts()}). */
    public NginxServer frontEnd() { return nginx(fronts.isEmpty() ? null : fronts.get(0)); }
    /** Every front end tier: one, or the edges behind the balancer; none when the tiers are another product's. */
    public List<NginxServer> fronts() { return fronts; }
    /** The edge balancer; empty with one edge. */
    public Optional<NginxServer> balancer() { return Optional.ofNullable(balancer); }
    /** The front end tiers' access logs, one per edge. */
    public List<Path> frontAccessLogs() { return fronts.stream().map(NginxServer::accessLog).toList(); }
    public NginxServer backEnd() { return nginx(back); }

    private NginxServer nginx(NginxServer server) {
        if (edgeTiers != null) {
            throw new IllegalStateException("the tiers are " + product + "'s, not nginx's");
        }
        return server;
    }

    /** The front tier's PID, whichever product it is: nginx's master (the first edge's with several), or the product's. */
    public long frontPid() {
        return edgeTiers != null ? edgeTiers.pids().get(0) : frontEnd().pid();
    }

    /** The back tier's PID, whichever product it is. */
    public long backPid() {
        return edgeTiers != null ? edgeTiers.pids().get(1) : back.pid();
    }

    /** CPU seconds the front tier's processes have used (every edge, and the balancer in front of several). */
    public double frontCpuSeconds() {
        if (edgeTiers != null) {
            return ProcCpu.treeSeconds(frontPid());
        }
        double sum = fronts.stream().mapToDouble(f -> ProcCpu.treeSeconds(f.pid())).sum();
        return sum + balancer().map(b -> ProcCpu.treeSeconds(b.pid())).orElse(0.0);
    }

    /** CPU seconds the back tier's processes have used. */
    public double backCpuSeconds() {
        return ProcCpu.treeSeconds(backPid());
    }

    /**
     * Every request the front tier logged (every edge's, in the order they ended), whichever product
     * it is; complete once the stack is closed.
     */
    public List<EdgeEvent> frontEvents() throws IOException {
        return edgeTiers != null ? edgeTiers.frontEvents() : NginxLog.events(frontAccessLogs());
    }

    /** Every request the back tier logged; complete once the stack is closed. */
    public List<EdgeEvent> backEvents() throws IOException {
        return edgeTiers != null ? edgeTiers.backEvents() : NginxLog.events(back.accessLog());
    }
    /** The Redis the edges share with --fleet-limit shared, when the suite started it. */
    public Optional<RedisServer> fleetRedis() { return Optional.ofNullable(fleetRedis); }

    /** The suite's origin; empty when the stack fronts a user's own origin. */
    public Optional<OriginServer> ownOrigin() { return Optional.ofNullable(origin); }

    /** The suite's origin, for tests that always start it. */
    public OriginServer origin() {
        return ownOrigin().orElseThrow(() -> new IllegalStateException("this stack fronts a user's own origin"));
    }

    private static URI uri(int port) {
        return URI.create("http://" + Ports.LOOPBACK + ":" + port);
    }

    @Override
    public void close() {
        if (edgeTiers != null) {
            edgeTiers.close();
        }
        if (balancer != null) {
            balancer.close();
        }
        fronts.forEach(NginxServer::close);
        if (back != null) {
            back.close();
        }
        if (fleetRedis != null) {
            fleetRedis.close();
        }
        if (origin != null && ownsOrigin) {
            origin.close();
        }
    }
}
