package dev.ratecache.suite.cli;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.distributed.LoadHosts;
import dev.ratecache.suite.distributed.Probe;
import dev.ratecache.suite.jmeter.JMeter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * --load-hosts and the RMI options that go with it. The flags are checked with the rest of the
 * input ({@link #problems}); the hosts themselves, over the network and by running JMeter, in a
 * step of their own once the input is known good ({@link #check}).
 */
final class LoadHostOptions {
    @Option(names = "--load-hosts", paramLabel = "HOST[:PORT]", split = ",",
            description = "Run each plan through the JMeter servers on these hosts (./run-tests.sh load-server there),"
                    + " JMeter's own distributed mode: each host runs the whole plan, JMeter merges the results here."
                    + " Needs --listen with an address the hosts reach. PORT defaults to 1099.")
    List<String> hosts = new ArrayList<>();

    @Mixin
    RmiSecurity rmi = new RmiSecurity();

    @Option(names = "--client-rmi-port", paramLabel = "N",
            description = "With --load-hosts: this controller's RMI port, which the load hosts connect back to with the"
                    + " samples (client.rmi.localport; JMeter uses it and the next few). 0: any free port."
                    + " Default: ${DEFAULT-VALUE}.")
    int clientRmiPort = 0;

    boolean given() {
        return !hosts.isEmpty();
    }

    /** What is wrong with the flags, one line each; {@code listen} is the front's --listen. Touches no network. */
    List<String> problems(String listen) {
        List<String> problems = new ArrayList<>();
        LoadHosts.parse(hosts, problems);
        if (listen.equals(Ports.LOOPBACK)) {
            problems.add("--load-hosts: the load hosts cannot reach " + Ports.LOOPBACK + " here: give --listen ADDRESS,"
                    + " an address of this machine they reach");
        }
        if (clientRmiPort < 0 || clientRmiPort > 65535) {
            problems.add("--client-rmi-port must be 0 or a TCP port (got " + clientRmiPort + ")");
        }
        rmi.problem().ifPresent(problems::add);
        return problems;
    }

    /**
     * The step that checks the hosts, reported as it goes on {@code out}: each host reachable, then
     * the probe plan run through them (their JMeter version and the plan properties read on the
     * load side, against this controller's). Returns the remote to run through; every problem goes
     * to {@code problems}, one line naming its host. Only for flags without {@link #problems}.
     */
    JMeter.Remote check(Path probeDir, PrintWriter out, PrintWriter err, List<String> problems) {
        List<String> parsed = LoadHosts.parse(hosts, new ArrayList<>());
        out.println("checking load hosts " + String.join(", ", parsed) + " ...");
        out.flush();
        for (String host : parsed) {
            LoadHosts.unreachable(host).ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            return null;
        }
        try {
            if (rmi.plain()) {
                err.println("run-tests.sh: WARNING: --rmi-plain: RMI to the load hosts without SSL; anyone on the"
                        + " network can talk to their JMeter servers");
            }
            Path store = rmi.keystore();
            JMeter.Remote remote = new JMeter.Remote(parsed, LoadHosts.localAddressTowards(parsed.get(0)),
                    clientRmiPort, LoadHosts.rmiArguments(store));
            JMeter jmeter = JMeter.assembled();
            Map<String, List<String>> perHost = Probe.problemsPerHost(jmeter, remote, jmeter.version(), probeDir);
            perHost.forEach((host, wrong) -> {
                if (wrong.isEmpty()) {
                    out.println("  " + host + " ok: JMeter " + jmeter.version() + ", the plans' properties as here");
                }
                problems.addAll(wrong);
            });
            out.flush();
            return remote;
        } catch (IOException e) {
            problems.add("--load-hosts: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("--load-hosts: interrupted while probing the load hosts");
        }
        return null;
    }

    /** RMI as the banner names it. */
    String transport() {
        return rmi.plain() ? "PLAIN" : "over SSL";
    }
}
