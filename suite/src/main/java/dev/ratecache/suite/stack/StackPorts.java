package dev.ratecache.suite.stack;

import dev.ratecache.suite.net.Ports;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The ports the stack listens on, all on 127.0.0.1. Flags of run-tests.sh, defaults as in the reference setup. */
public final class StackPorts {
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

    public int front() { return front; }
    public int back() { return back; }
    public int origin() { return origin; }
    public int management() { return management; }
    public int frontStatus() { return frontStatus; }
    public int backStatus() { return backStatus; }

    public StackPorts front(int port) { front = port; return this; }

    /**
     * Why the stack can't start on these ports, one line each naming the flag to change; empty
     * when it can. The origin's ports are left out when the origin is the user's own.
     */
    public List<String> problems(boolean ownOrigin) {
        Map<String, Integer> wanted = new LinkedHashMap<>();
        wanted.put("--front-port", front);
        wanted.put("--back-port", back);
        wanted.put("--front-status-port", frontStatus);
        wanted.put("--back-status-port", backStatus);
        if (ownOrigin) {
            wanted.put("--origin-port", origin);
            wanted.put("--management-port", management);
        }
        List<String> problems = new ArrayList<>();
        Map<Integer, String> seen = new LinkedHashMap<>();
        wanted.forEach((flag, port) -> {
            String other = seen.putIfAbsent(port, flag);
            if (other != null) {
                problems.add(flag + " and " + other + " are both " + port + ": give each its own port");
            } else {
                Ports.problem(port, flag).ifPresent(problems::add);
            }
        });
        return problems;
    }
}
