package dev.ratecache.suite.stack;

import dev.ratecache.proc.ProcCpu;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.nginx.ThrowawayCa;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The whole path: origin, back end, front end, started in that order and stopped in reverse.
 * When the switches name a user's own origin, the suite's origin is not started. The tiers are any
 * edge product's, through its adapter from the stack spec ({@link #aroundEdge}); what only one
 * product has (nginx's servers, a fleet's balancer) its own tiers give ({@link #tiers(Class)}).
 *
 * <pre>{@code
 * try (Stack stack = Stack.start(new StackSwitches(), StackPorts.free(), dir)) {
 *     HttpClient.newHttpClient().send(GET(stack.front().resolve("/hare")), ...);
 * }
 * }</pre>
 */
public final class Stack implements AutoCloseable {
    private final StackPorts ports;
    private final OriginServer origin;
    private final boolean ownsOrigin;
    private final Edge.Running tiers;
    private final String product;
    /** The spec the tiers were started from, with the throwaway CA's files when the stack made them. */
    private final StackSpec spec;

    private Stack(StackPorts ports, OriginServer origin, boolean ownsOrigin, Edge.Running tiers, String product,
            StackSpec spec) {
        this.ports = ports;
        this.origin = origin;
        this.ownsOrigin = ownsOrigin;
        this.tiers = tiers;
        this.product = product;
        this.spec = spec;
    }

    /**
     * Starts fresh tiers of the reference product (new processes, empty cache) in {@code dir} in
     * front of an origin that is already running and that {@link #close()} leaves running: a matrix
     * keeps one origin for all its cells. {@code origin} is null when the switches name the user's own origins.
     */
    public static Stack around(OriginServer origin, StackSwitches switches, StackPorts ports, Path dir)
            throws IOException {
        return aroundEdge(EdgeProduct.DEFAULT.adapter(), switches.spec(ports), origin, ports, dir);
    }

    /**
     * Starts {@code edge}'s two tiers from {@code spec} in {@code dir}/PRODUCT (nginx/, haproxy/,
     * varnish/), in front of an origin that is already running and that {@link #close()} leaves
     * running; TLS without a certificate gets a throwaway CA in {@code dir}/tls first. The caller
     * has asked {@link Edge#refusal} first.
     */
    public static Stack aroundEdge(Edge edge, StackSpec spec, OriginServer origin, StackPorts ports, Path dir)
            throws IOException {
        StackSpec withTls = withTls(spec, dir);
        Edge.Running started = edge.start(withTls, dir.resolve(edge.name()));
        return new Stack(ports, origin, false, started, edge.name(), withTls);
    }

    /** Starts everything with the origin's default settings and 10 request threads. */
    public static Stack start(StackSwitches switches, StackPorts ports, Path dir) throws IOException {
        return start(switches, ports, dir, 10, List.of());
    }

    /**
     * Starts everything with the reference product's tiers; {@code originArgs} are extra Spring Boot
     * arguments for the suite's origin.
     */
    public static Stack start(StackSwitches switches, StackPorts ports, Path dir, int originThreads,
            List<String> originArgs) throws IOException {
        return start(EdgeProduct.DEFAULT, switches, ports, dir, originThreads, originArgs);
    }

    /**
     * Starts everything with {@code product}'s tiers, through its adapter in {@code dir}/PRODUCT
     * (nginx/, haproxy/, varnish/). The caller has asked {@link EdgeProduct#refusal} first.
     */
    public static Stack start(EdgeProduct product, StackSwitches switches, StackPorts ports, Path dir,
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
            Stack tiers = aroundEdge(product.adapter(), switches.spec(ports), origin, ports, dir);
            return new Stack(ports, origin, true, tiers.tiers, tiers.product, tiers.spec);
        } catch (IOException | RuntimeException e) {
            if (origin != null) {
                origin.close();
            }
            throw e;
        }
    }

    /**
     * {@code spec} with its TLS files: as given, or with a throwaway CA made in {@code dir}/tls for
     * TLS without a certificate, for the address clients reach the edge on.
     */
    public static StackSpec withTls(StackSpec spec, Path dir) throws IOException {
        if (!spec.needsThrowawayTls()) {
            return spec;
        }
        return spec.withTlsFiles(ThrowawayCa.write(dir.resolve("tls"), List.of(spec.ports().listen())));
    }

    public URI frontUri() {
        return tiers.frontUri();
    }

    /** The certificate, key and trust of --tls (tls/ca.pem in the run folder for the throwaway CA); empty without it. */
    public Optional<TlsFiles> tls() { return spec.tls().flatMap(StackSpec.Tls::files); }
    public URI backUri() { return URI.create("http://" + dev.ratecache.proc.Ports.LOOPBACK + ":" + ports.back()); }
    public StackPorts ports() { return ports; }
    /** The spec the tiers run, with what starting them made: the throwaway CA, nginx's fleet Redis. */
    public StackSpec spec() { return tiers.runningSpec(spec); }
    /** The edge product whose tiers these are, as --edge names it. */
    public String product() { return product; }

    /** The running tiers, whichever product's: what the product gives beyond the stack's own questions. */
    public Edge.Running tiers() {
        return tiers;
    }

    /** The running tiers as the product's own type, for what only that product has; throws when they are another's. */
    public <T extends Edge.Running> T tiers(Class<T> type) {
        if (!type.isInstance(tiers)) {
            throw new IllegalStateException("the tiers are " + product + "'s, not " + type.getName() + "'s");
        }
        return type.cast(tiers);
    }

    /** The front tier's PID, whichever product it is: nginx's master (the first edge's with several), or the product's. */
    public long frontPid() {
        return tiers.pids().get(0);
    }

    /** The back tier's PID, whichever product it is. */
    public long backPid() {
        return tiers.pids().get(1);
    }

    /** CPU seconds the front tier's processes have used (every edge, and the balancer in front of several). */
    public double frontCpuSeconds() {
        return tiers.frontPids().stream().mapToDouble(ProcCpu::treeSeconds).sum();
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
        return tiers.frontEvents();
    }

    /** Every request the back tier logged; complete once the stack is closed. */
    public List<EdgeEvent> backEvents() throws IOException {
        return tiers.backEvents();
    }

    /** See {@link Edge.Running#reloadFront}. */
    public long reloadFront(StackSpec spec) throws IOException, InterruptedException {
        return tiers.reloadFront(spec);
    }

    /** See {@link Edge.Running#frontWorkers}. */
    public List<Long> frontWorkers() {
        return tiers.frontWorkers();
    }

    /** See {@link Edge.Running#frontCacheFolder}. */
    public Optional<Path> frontCacheFolder() {
        return tiers.frontCacheFolder();
    }

    /** The suite's origin; empty when the stack fronts a user's own origin. */
    public Optional<OriginServer> ownOrigin() { return Optional.ofNullable(origin); }

    /** The suite's origin, for tests that always start it. */
    public OriginServer origin() {
        return ownOrigin().orElseThrow(() -> new IllegalStateException("this stack fronts a user's own origin"));
    }

    @Override
    public void close() {
        tiers.close();
        if (origin != null && ownsOrigin) {
            origin.close();
        }
    }
}
