package dev.ratecache.suite.cli;

import dev.ratecache.suite.distributed.LoadHosts;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Poll;
import java.io.PrintWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A JMeter server (jmeter -s) from this checkout's JMeter, on a load host: what a controller's
 * --load-hosts drives. It is JMeter's own distributed mode; this command only fixes its ports,
 * the address it gives the controller, and RMI over SSL, and says what to open and what to give
 * the controller.
 */
@Command(name = "load-server", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Starts a JMeter server from this install on a load host, for a controller's"
                + " ./run-tests.sh --load-hosts. Runs in the foreground; Ctrl-C stops it.", ""})
public final class LoadServerCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--port", paramLabel = "N",
            description = "RMI registry port (JMeter's server_port), the one the controller names. Default: ${DEFAULT-VALUE}.")
    int port = LoadHosts.DEFAULT_PORT;

    @Option(names = "--rmi-port", paramLabel = "N",
            description = "Port of the JMeter engine itself (server.rmi.localport). Default: --port + 1.")
    Integer rmiPort;

    @Option(names = "--bind", paramLabel = "ADDRESS",
            description = "This host's address as the controller reaches it (java.rmi.server.hostname). Default: the"
                    + " address of the default route.")
    String bind;

    @Mixin
    RmiSecurity rmi = new RmiSecurity();

    @Option(names = "--results", paramLabel = "DIR", description = "Where the server's log goes. Default: results/ in the checkout.")
    Path results;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int enginePort = rmiPort != null ? rmiPort : port + 1;
        List<String> problems = new ArrayList<>();
        String address = bind != null ? bind : defaultRouteAddress();
        if (address == null) {
            problems.add("--bind: this host has no default route; give the address the controller reaches, e.g. --bind 10.0.0.5");
        } else {
            Ports.problem(address, port, "--port").ifPresent(problems::add);
            Ports.problem(address, enginePort, "--rmi-port").ifPresent(problems::add);
        }
        if (port == enginePort) {
            problems.add("--port and --rmi-port are both " + port + ": give each its own port");
        }
        RunFolders.notAFolder(RunFolders.results(results), "--results").ifPresent(problems::add);
        rmi.problem().ifPresent(problems::add);
        JMeter jmeter = JMeter.assembled();
        if (!Files.isRegularFile(jmeter.launcher())) {
            problems.add("JMeter is not assembled here (" + jmeter.launcher() + "): run ./mvnw -B package -DskipTests");
        }
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("\n  ", problems));
        }
        if (rmi.plain()) {
            err.println("run-tests.sh load-server: WARNING: --rmi-plain: RMI without SSL; anyone who reaches ports "
                    + port + " and " + enginePort + " can make this JMeter run any code. Use it only on a network you trust.");
        }
        Path store = rmi.keystore();
        Path dir = RunFolders.results(results).resolve("load-server-" + port);
        Files.createDirectories(dir);
        // With the suite's properties (the command's base): the samples made here must carry the
        // columns the controller writes.
        List<String> command = jmeter.command()
                .add("-s", "-j", dir.resolve("jmeter-server.log").toAbsolutePath().toString(),
                        "-Jserver_port=" + port, "-Jserver.rmi.localport=" + enginePort,
                        // The stubs this server hands out carry this address: the controller connects to it.
                        "-Djava.rmi.server.hostname=" + address)
                .add(LoadHosts.rmiArguments(store))
                .build();
        try (ManagedProcess server = ManagedProcess.start("jmeter-server", command, dir, dir.resolve("jmeter-server.out"))) {
            Instant deadline = Instant.now().plusSeconds(60);
            while (!Ports.accepting(address, enginePort) || !Ports.accepting(address, port)) {
                if (!server.isAlive() || Instant.now().isAfter(deadline)) {
                    err.println("run-tests.sh load-server: the JMeter server did not start (see "
                            + dir.resolve("jmeter-server.out") + "):");
                    err.println(server.logTail(10));
                    return 1;
                }
                Poll.pause(100);
            }
            out.println("load-server: JMeter server (pid " + server.pid() + ") ready on " + address + ", RMI "
                    + (store != null ? "over SSL, keystore " + store : "PLAIN (no SSL)"));
            out.println("  open in this host's firewall, from the controller: TCP " + port + " (registry) and TCP "
                    + enginePort + " (engine)");
            out.println("  open in the controller's firewall, from this host: its --client-rmi-port (default 4000)");
            if (store != null) {
                out.println("  the controller needs the same keystore: copy " + store + " there (--rmi-keystore FILE)");
            }
            out.println("  give the controller: ./run-tests.sh --load-hosts " + address + ":" + port
                    + (store == null ? " --rmi-plain" : ""));
            out.println("  log: " + dir.resolve("jmeter-server.log") + "; Ctrl-C stops it");
            out.flush();
            int exit = server.waitFor(Duration.ofDays(3650));
            err.println("run-tests.sh load-server: the JMeter server exited (" + exit + "); see " + dir);
            return exit == 0 ? 0 : 1;
        }
    }

    /** The address this host sends from on its default route: the one other hosts most likely reach. */
    static String defaultRouteAddress() {
        try (DatagramSocket probe = new DatagramSocket()) {
            // TEST-NET-1: never routed to anyone; connect only picks the route and sends nothing.
            probe.connect(InetAddress.getByName("192.0.2.1"), 9);
            String a = probe.getLocalAddress().getHostAddress();
            return a.equals("0.0.0.0") ? null : a;
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
