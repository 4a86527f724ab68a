package dev.ratecache.suite.stack;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.spec.TierPorts;
import dev.ratecache.suite.switches.Flags;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The ports the stack listens on, all on 127.0.0.1 but the front port, which listens on
 * {@code --listen}. Flags of run-tests.sh, defaults as in the reference setup.
 */
public final class StackPorts implements TierPorts {
    @Option(names = "--listen", paramLabel = "ADDRESS",
            description = "Address the front port listens on (the edge balancer's with --edges); give one that load"
                    + " hosts reach, e.g. with --load-hosts. The other tiers stay on 127.0.0.1. Default: ${DEFAULT-VALUE}.")
    String listen = Ports.LOOPBACK;

    @Option(names = "--edge-ports", paramLabel = "PORT", split = ",",
            description = "With --edges N > 1: the N front end tiers' ports on 127.0.0.1, behind the balancer on the front"
                    + " port. Default: free ports chosen at start.")
    List<Integer> edgePorts = new ArrayList<>();

    @Option(names = "--front-port", paramLabel = "PORT", description = "Front end port. Default: ${DEFAULT-VALUE}.")
    int front = 80;

    @Option(names = "--back-port", paramLabel = "PORT", description = "Back end port. Default: ${DEFAULT-VALUE}.")
    int back = 9080;

    @Option(names = "--origin-port", paramLabel = "PORT", description = "The suite's origin app server port. Default: ${DEFAULT-VALUE}.")
    int origin = 8080;

    @Option(names = "--management-port", paramLabel = "PORT",
            description = "The origin's management port (health, counters, metrics); never proxied. Default: ${DEFAULT-VALUE}.")
    int management = 8081;

    @Option(names = "--front-status-port", paramLabel = "PORT", description = "Front end stub_status port (loopback only). Default: ${DEFAULT-VALUE}.")
    int frontStatus = 8180;

    @Option(names = "--back-status-port", paramLabel = "PORT", description = "Back end stub_status port (loopback only). Default: ${DEFAULT-VALUE}.")
    int backStatus = 9180;

    /** Every port chosen free now: for tests, which must never collide with anything. */
    private int httpPort;

    public static StackPorts free() {
        StackPorts p = new StackPorts();
        p.front = Ports.free();
        p.back = Ports.free();
        p.origin = Ports.free();
        p.management = Ports.free();
        p.frontStatus = Ports.free();
        p.backStatus = Ports.free();
        return p;
    }

    @Override public int front() { return front; }
    @Override public int back() { return back; }
    @Override public int origin() { return origin; }
    public int management() { return management; }
    @Override public int frontStatus() { return frontStatus; }
    @Override public int backStatus() { return backStatus; }

    public StackPorts front(int port) { front = port; return this; }

    /** The ports of an origin that is already running, e.g. one shared by several stacks. */
    public StackPorts origin(int port, int managementPort) {
        origin = port;
        management = managementPort;
        return this;
    }
    @Override public String listen() { return listen; }
    public StackPorts listen(String address) { listen = address; return this; }

    /**
     * The ports of {@code n} edges behind the balancer: the ones given with --edge-ports, or free
     * ones chosen now and kept, so that the balancer's config and the edges agree.
     */
    @Override
    public synchronized List<Integer> edgePorts(int n) {
        while (edgePorts.size() < n) {
            edgePorts.add(Ports.free());
        }
        return List.copyOf(edgePorts.subList(0, n));
    }

    /** Gives the edges these ports, as --edge-ports does. */
    public StackPorts edgePorts(List<Integer> ports) {
        edgePorts = new ArrayList<>(ports);
        return this;
    }

    /** These ports as edge {@code i} (0-based) of several sees them: its own port, no status port of its own. */
    @Override
    public StackPorts edge(int i, int n) {
        StackPorts p = copy();
        p.front = edgePorts(n).get(i);
        p.listen = Ports.LOOPBACK;
        return p;
    }

    @Override
    public List<String> flags() {
        return Flags.differing(this, new StackPorts());
    }

    /** An independent copy. */
    public StackPorts copy() {
        StackPorts p = new StackPorts();
        p.listen = listen;
        p.edgePorts = new ArrayList<>(edgePorts);
        p.front = front;
        p.back = back;
        p.origin = origin;
        p.management = management;
        p.frontStatus = frontStatus;
        p.backStatus = backStatus;
        p.httpPort = httpPort;
        return p;
    }

    /**
     * What is wrong with these ports as flags, one line each naming the flag to change: not an
     * address, not a port, one port given to two tiers, edge ports that do not fit --edges. Binds
     * nothing; {@link #unavailable} says which of them this machine cannot give. The origin's
     * ports are left out when the origin is the user's own.
     */
    public List<String> problems(boolean ownOrigin, int edges) {
        List<String> problems = new ArrayList<>();
        if (!listen.matches("[0-9a-fA-F:.]+")) {
            problems.add("--listen takes an IP address of this machine (got '" + listen + "')");
        }
        if (!edgePorts.isEmpty() && (edges < 2 || edgePorts.size() != edges)) {
            problems.add("--edge-ports gives " + edgePorts.size() + " port(s) for --edges " + edges
                    + ": give one per edge, or leave it out");
        }
        Map<Integer, String> seen = new LinkedHashMap<>();
        wanted(ownOrigin).forEach((flag, port) -> {
            String other = seen.putIfAbsent(port, flag);
            if (other != null) {
                problems.add(flag + " and " + other + " are both " + port + ": give each its own port");
            } else {
                Ports.notATcpPort(port, flag).ifPresent(problems::add);
            }
        });
        return problems;
    }

    /**
     * {@link #problems(boolean, int)} of the stack {@code switches} make: their origin (the suite's
     * own or not), their edges and their --http-port, which is kept to be checked with the rest.
     * The one check of render, up and a run.
     */
    public List<String> problems(StackSwitches switches) {
        httpPort(switches.httpPort());
        return problems(switches.origins().isEmpty(), switches.edges());
    }

    /**
     * The ports, valid as flags ({@link #problems}), that this user cannot bind now: taken, or
     * privileged, or on an address that is not this machine's. One line each naming the flag; each
     * port is bound for a moment to see.
     */
    public List<String> unavailable(boolean ownOrigin) {
        List<String> problems = new ArrayList<>();
        if (!Ports.LOOPBACK.equals(listen)) {
            // The front port on --listen; checked on its own address too.
            Ports.problem(listen, front, "--front-port (on --listen " + listen + ")").ifPresent(problems::add);
        }
        wanted(ownOrigin).forEach((flag, port) -> Ports.problem(port, flag).ifPresent(problems::add));
        return problems;
    }

    /**
     * The cleartext port that redirects to https (--http-port, a switch of the TLS edge, 0 for none):
     * checked with the stack's own ports, for clashes and for being free.
     */
    public StackPorts httpPort(int port) { httpPort = port; return this; }

    /** Flag to port, for every port the stack would listen on. */
    private Map<String, Integer> wanted(boolean ownOrigin) {
        Map<String, Integer> wanted = new LinkedHashMap<>();
        wanted.put("--front-port", front);
        if (httpPort != 0) {
            wanted.put("--http-port", httpPort);
        }
        wanted.put("--back-port", back);
        wanted.put("--front-status-port", frontStatus);
        wanted.put("--back-status-port", backStatus);
        if (ownOrigin) {
            wanted.put("--origin-port", origin);
            wanted.put("--management-port", management);
        }
        for (int i = 0; i < edgePorts.size(); i++) {
            wanted.put("--edge-ports (edge " + (i + 1) + ")", edgePorts.get(i));
        }
        return wanted;
    }

    /** The stack's own ports, which nothing else of the run may take (the app cache's Redis). */
    public boolean isOneOf(int port) {
        return wanted(true).containsValue(port);
    }
}
