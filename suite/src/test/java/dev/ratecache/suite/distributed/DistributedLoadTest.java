package dev.ratecache.suite.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.cli.RunTestsAccess;
import dev.ratecache.suite.cli.RunTestsCommand;
import dev.ratecache.suite.edge.NginxLog;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Distributed load on this machine, with network namespaces as hosts: two namespaces joined to a
 * bridge by veth pairs, each running ./run-tests.sh load-server (a JMeter server over RMI with
 * SSL); the controller (this JVM) and the stack in the root namespace, the front end on the
 * bridge's address. Everything made here is named with a prefix of this run's own and removed by
 * that name when the class ends, also when it fails. Skipped, saying why, where namespaces cannot
 * be made (not root, or no ip netns).
 */
@StackTest
@LongTest
class DistributedLoadTest {
    private static final int RATE = 1;
    private static final int BURST = 20;
    private static final int USERS = 5;
    private static final int LOOPS = 20;
    /** The stress plan with the front end's per-client limit alone: no back limit, no caches. */
    private static final String CELL = "stress/front-on.back-off.server-off.client-off";

    /** a and b run load-server; c runs a bare JMeter server, without the suite's properties. */
    private static final int HOSTS = 3;
    private static final int BARE = 2;
    private static final List<ManagedProcess> SERVERS = new ArrayList<>();
    private static NetnsHosts hosts;
    private static Path dir;

    @BeforeAll
    static void hosts() throws Exception {
        hosts = NetnsHosts.make("d", 231, HOSTS);
        dir = TestDirs.fresh(DistributedLoadTest.class, "run");
        for (int i = 0; i < HOSTS; i++) {
            // ip netns exec execs the command in its place: the PID held is the server's own.
            List<String> command = new ArrayList<>(hosts.launcher(i));
            command.addAll(i == BARE ? bareJMeterServer(address(i))
                    : List.of(ManagedProcess.javaBinary(),
                            "-Dratecache.home=" + Repo.root(), "-cp", System.getProperty("java.class.path"),
                            RunTestsCommand.class.getName(), "load-server", "--port", "1099", "--bind", address(i),
                            "--results", dir.resolve("servers").toString()));
            SERVERS.add(ManagedProcess.start("load-server-" + i, command, dir, dir.resolve("load-server-" + i + ".out")));
        }
        for (int i = 0; i < SERVERS.size(); i++) {
            if (i == BARE) {
                awaitAccepting(SERVERS.get(i), address(i));
            } else {
                awaitReady(SERVERS.get(i));
            }
        }
    }

    /**
     * What load-server runs, with JMeter's default heap and without -q jmeter/suite.properties: a
     * host set up by hand and missing the suite's properties.
     */
    private static List<String> bareJMeterServer(String address) throws IOException, InterruptedException {
        return JMeter.assembled().command().heap().withoutSuiteProperties()
                .add("-s", "-j", dir.resolve("bare-jmeter-server.log").toString(), "-Jserver_port=1099",
                        "-Jserver.rmi.localport=1100", "-Djava.rmi.server.hostname=" + address)
                .add(LoadHosts.rmiArguments(LoadHosts.ensureKeystore(LoadHosts.defaultKeystore())))
                .build();
    }

    /** Waits for the bare JMeter server's two ports. */
    private static void awaitAccepting(ManagedProcess server, String address) {
        org.awaitility.Awaitility.await("the bare JMeter server's ports").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    if (!server.isAlive()) {
                        throw new AssertionError("the bare JMeter server did not start:\n" + server.logTail(100));
                    }
                    return dev.ratecache.proc.Ports.accepting(address, 1099)
                            && dev.ratecache.proc.Ports.accepting(address, 1100);
                });
    }

    private static String address(int i) {
        return hosts.address(i);
    }

    /** Waits for load-server's "ready" line: the JMeter server accepts on both its ports. */
    private static void awaitReady(ManagedProcess server) {
        org.awaitility.Awaitility.await("load-server's ready line").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    if (!server.isAlive()) {
                        throw new AssertionError("load-server did not start:\n" + server.logTail(100));
                    }
                    return Files.exists(server.log()) && Files.readString(server.log()).contains("ready on");
                });
    }

    /**
     * Stops the load servers by their PID (SIGTERM: their JMeter server goes with them; SIGKILL to
     * what is left after the grace period), then removes the hosts.
     */
    @AfterAll
    static void removeHosts() {
        SERVERS.forEach(ManagedProcess::close);
        SERVERS.clear();
        if (hosts != null) {
            hosts.close();
        }
    }

    @Test
    void twoLoadHostsDriveTheStressPlanAndEachHasItsOwnPerClientLimit() throws Exception {
        StackPorts p = StackPorts.free();
        Path results = dir.resolve("results");
        StringWriter text = new StringWriter();
        List<String> args = new ArrayList<>(List.of("--load-hosts",
                address(0) + ":1099," + address(1) + ":1099", "--listen", hosts.bridgeAddress(), "--results", results.toString(),
                "--matrix", "full", "--only", CELL, "--profile", "quick", "--no-dashboards", "-Jusers=" + USERS, "-Jloops=" + LOOPS,
                "-Jrampup=0", "--front-rate", String.valueOf(RATE), "--front-burst", String.valueOf(BURST),
                "--front-mode", "nodelay", "--no-back-limit"));
        args.addAll(p.flags());
        int exit = RunTestsAccess.execute(new PrintWriter(text, true), args.toArray(String[]::new));
        assertThat(exit).as(text.toString()).isZero();

        Path run = Files.list(results).filter(d -> d.getFileName().toString().matches("\\d{8}-\\d{6}"))
                .findFirst().orElseThrow();
        Path cell = run.resolve("cells/" + CELL.replace('/', '-'));
        // The sample counts add up: each host ran the whole plan, JMeter merged them here.
        JsonNode perHost = new ObjectMapper().readTree(cell.resolve("load-hosts.json").toFile());
        assertThat(perHost.path(address(0) + ":1099").asLong()).isEqualTo(USERS * LOOPS);
        assertThat(perHost.path(address(1) + ":1099").asLong()).isEqualTo(USERS * LOOPS);
        assertThat(dev.ratecache.jtl.JtlSummary.read(cell.resolve("jmeter/results.jtl")).samples())
                .isEqualTo(2L * USERS * LOOPS);
        // ... and the report counts them per host.
        assertThat(Files.readString(run.resolve("report.md"))).contains("## Samples per load host")
                .contains(address(0) + ":1099 " + USERS * LOOPS).contains(address(1) + ":1099 " + USERS * LOOPS);

        // The front end saw one address per load host, and limited each on its own.
        Map<String, List<JsonNode>> byClient = new TreeMap<>();
        for (JsonNode e : NginxLog.entries(cell.resolve("nginx/front/logs/access.log"))) {
            byClient.computeIfAbsent(e.path("client").asText(), k -> new ArrayList<>()).add(e);
        }
        assertThat(byClient.keySet()).containsExactlyInAnyOrder(address(0), address(1));
        long admittedTotal = 0;
        for (var entry : byClient.entrySet()) {
            List<JsonNode> lines = entry.getValue();
            long admitted = lines.stream().filter(l -> l.path("status").asInt() == 200).count();
            double span = lines.get(lines.size() - 1).path("msec").asDouble() - lines.get(0).path("msec").asDouble();
            // Its own bucket: the whole burst and at most the rate over its span.
            assertThat(admitted).as(entry.getKey()).isBetween((long) BURST + 1, BURST + 1 + RATE * (long) Math.ceil(span + 1));
            assertThat(lines.stream().filter(l -> l.path("status").asInt() == 429).count()).as(entry.getKey()).isPositive();
            admittedTotal += admitted;
        }
        // One shared bucket could not have admitted this many.
        assertThat(admittedTotal).isGreaterThan(2L * BURST);
    }

    @Test
    void aLoadHostWithoutTheSuitesPropertiesIsRefusedInOneLineBeforeAnythingStarts() throws Exception {
        Path results = dir.resolve("refused");
        StringWriter text = new StringWriter();
        // Free ports: the refusal must be the host's, whatever else runs on this machine.
        List<String> args = new ArrayList<>(List.of("--load-hosts", address(BARE) + ":1099",
                "--listen", hosts.bridgeAddress(), "--results", results.toString(), "--only", "stress/no-caching", "--profile", "quick"));
        args.addAll(StackPorts.free().flags());
        int exit = RunTestsAccess.execute(new PrintWriter(text, true), args.toArray(String[]::new));

        assertThat(exit).as(text.toString()).isEqualTo(2);
        // JMeter's own defaults do not have the client cache's mode the plans rely on.
        assertThat(text.toString()).contains("load host " + address(BARE) + ":1099 lacks the plan property"
                + " cache_manager.cached_resource_mode=RETURN_200_CACHE (it has (unset))")
                .contains("start its JMeter with -q jmeter/suite.properties, as load-server does");
        // Refused before anything started: no run folder.
        assertThat(results).satisfiesAnyOf(r -> assertThat(r).doesNotExist(),
                r -> assertThat(Files.list(r).filter(d -> d.getFileName().toString().matches("\\d{8}-\\d{6}"))).isEmpty());
    }
}
