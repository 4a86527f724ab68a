package dev.ratecache.suite.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.stack.FleetLog;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --fleet-limit shared across hosts: three edges, each its own nginx on its own host (a network
 * namespace), behind the balancer, with the back end and the one Redis on the controller (this
 * JVM's namespace, on the bridge). The edges' configs are rendered by the suite and changed as
 * README's "Running on several machines" tells a user to: each edge listens on its host's address,
 * reaches the back end and Redis at the controller's, and takes X-Forwarded-For from the balancer's
 * address. One client's bucket then holds across the hosts.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class FleetAcrossHostsTest {
    private static final int EDGES = 3;
    private static final int BURST = 5;
    private static final int SENT = 30;
    private static final String CLIENT = "127.0.0.22";

    private static NetnsHosts hosts;
    private static RedisServer redis;
    private static final List<NginxServer> TIERS = new ArrayList<>();
    private static StackPorts ports;

    @BeforeAll
    static void fleet(OriginServer origin) throws Exception {
        FleetLog.requireSharedLimit();
        hosts = NetnsHosts.make("f", 232, EDGES);
        Path dir = TestDirs.fresh(FleetAcrossHostsTest.class, "fleet");
        redis = RedisServer.start(dir.resolve("redis"), 0, hosts.bridgeAddress());
        StackSwitches switches = new StackSwitches().edges(EDGES).fleetLimit(FleetLimit.SHARED)
                .fleetRedis(hosts.bridgeAddress() + ":" + redis.port()).frontRate(1).frontBurst(BURST)
                .frontMode(LimitMode.NODELAY).backLimit(false);
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());

        NginxServer back = NginxServer.prepare(Tier.BACK, switches.spec(ports), dir.resolve("back"));
        // The back end on the bridge too, for the edges; on loopback still, where the suite waits for it.
        edit(back, "back-end.conf", "    listen 127.0.0.1:" + ports.back() + ";",
                "    listen 127.0.0.1:" + ports.back() + ";\n    listen " + hosts.bridgeAddress() + ":" + ports.back() + ";");
        TIERS.add(back.start());

        List<Integer> edgePorts = ports.edgePorts(EDGES);
        for (int i = 0; i < EDGES; i++) {
            NginxServer edge = NginxServer.prepare(Tier.FRONT, switches.spec(ports.edge(i, EDGES)), dir.resolve("edge-" + i));
            String host = hosts.address(i);
            edit(edge, "front-end.conf", "listen 127.0.0.1:" + edgePorts.get(i) + ";", "listen " + host + ":" + edgePorts.get(i) + ";");
            edit(edge, "front-end.conf", "server 127.0.0.1:" + ports.back() + ";", "server " + hosts.bridgeAddress() + ":" + ports.back() + ";");
            // The balancer reaches the edges from its address on the bridge.
            edit(edge, "snippets/shared/real-ip.conf", "set_real_ip_from 127.0.0.1;", "set_real_ip_from " + hosts.bridgeAddress() + ";");
            TIERS.add(edge.startOn(hosts.launcher(i), host));
        }

        NginxServer balancer = NginxServer.prepare(Tier.BALANCER, switches.spec(ports), dir.resolve("balancer"));
        for (int i = 0; i < EDGES; i++) {
            edit(balancer, "edge-balancer.conf", "server 127.0.0.1:" + edgePorts.get(i) + ";",
                    "server " + hosts.address(i) + ":" + edgePorts.get(i) + ";");
        }
        TIERS.add(balancer.start());
    }

    /** Replaces {@code from} with {@code to} in one rendered file of {@code tier}, which must hold it. */
    private static void edit(NginxServer tier, String file, String from, String to) throws IOException {
        Path conf = tier.prefix().resolve("conf").resolve(file);
        String text = Files.readString(conf);
        assertThat(text).as(conf.toString()).contains(from);
        Files.writeString(conf, text.replace(from, to));
    }

    @AfterAll
    static void stop() {
        for (int i = TIERS.size() - 1; i >= 0; i--) {
            TIERS.get(i).close();
        }
        TIERS.clear();
        if (redis != null) {
            redis.close();
        }
        if (hosts != null) {
            hosts.close();
        }
    }

    @Test
    void oneClientsBucketHoldsAcrossTheHosts() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < SENT; i++) {
            statuses.add(Http.raw(CLIENT, ports.front(), "GET", "/hare?host=" + i).status());
        }
        // The edges write their buffered logs as they stop.
        List<Path> logs = new ArrayList<>();
        for (NginxServer edge : TIERS.subList(1, 1 + EDGES)) {
            edge.close();
            logs.add(edge.accessLog());
        }
        List<JsonNode> lines = FleetLog.clientLines(logs, CLIENT);

        // Every edge served the client, each saw its real address, and Redis decided every request.
        assertThat(lines).hasSize(SENT);
        assertThat(FleetLog.edgesSeen(lines)).isEqualTo(EDGES);
        assertThat(FleetLog.fleetOutcomes(lines)).containsOnly("PASSED", "REJECTED");
        long admitted = statuses.stream().filter(s -> s == 200).count();
        assertThat(admitted).isGreaterThanOrEqualTo(BURST + 1).isLessThanOrEqualTo(FleetLog.promised(lines, 1, BURST));
        // Per edge, it would have been burst + 1 on each host: three times as many.
        assertThat(admitted).isLessThan((long) EDGES * (BURST + 1));
    }
}
