package dev.ratecache.suite.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Poll;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.stack.FleetLog;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * address. One client's bucket then holds across the hosts, and so does one client's quota.
 *
 * <p>One stack serves both tests. The per-client limit is by key (X-Api-Key) so that the quota's
 * client can have a tier of its own: the fleet test's client sends no key, so it is counted by its
 * address in the anonymous tier at 1 r/s and burst 5, as by address alone, and the address ceiling
 * is off, so that nothing but the fleet's buckets holds it. The quota ({@value #QUOTA} requests in
 * {@value #QUOTA_WINDOW} s, sliding) is the same for every client; the fleet test's client sends
 * only {@value #SENT} requests, so it can never spend it, and its 200s and 429s stay the burst
 * limit's alone. The quota's client has a key in a tier whose burst takes every request it sends,
 * so its 429s are the quota's alone. A window of 10 minutes, from a fresh Redis: nothing slides out
 * while the test runs (and a sliding window's turn, were the test to straddle one, changes neither
 * what is admitted nor what is left for the next 20 s).
 */
@StackTest
@LongTest
@ExtendWith(SharedOrigin.class)
class FleetAcrossHostsTest {
    private static final int EDGES = 3;
    private static final int BURST = 5;
    private static final int SENT = 30;
    private static final String CLIENT = "127.0.0.22";
    /** The quota: the fleet test's client, which sends {@link #SENT} requests, cannot spend it. */
    private static final int QUOTA = SENT;
    private static final int QUOTA_WINDOW = 600;
    /** Requests the quota's client sends past its quota. */
    private static final int OVER = 3;
    private static final String QUOTA_CLIENT = "127.0.0.23";
    private static final String QUOTA_KEY = "fleet-quota-key";
    /** The quota's client's tier: a burst that takes all it sends, so that only the quota refuses it. */
    private static final LimitTier METERED = new LimitTier("metered", 1, QUOTA + OVER, LimitMode.NODELAY, List.of(QUOTA_KEY));
    private static final Pattern REMAINING = Pattern.compile("\"quota\";r=(\\d+);t=(\\d+)");
    private static final String QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";
    /** How long the edges may take to write their buffered logs (flush=1s) before a test reads them. */
    private static final long LOG_WAIT_MS = 15_000;

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
                .frontMode(LimitMode.NODELAY).backLimit(false)
                .limitKey(LimitKey.parse("header:X-Api-Key")).tiers(List.of(METERED)).addressCeiling(AddressCeiling.OFF)
                .quota(QUOTA + "/" + QUOTA_WINDOW + "s", Quota.Window.SLIDING);
        assertThat(switches.problems()).isEmpty();
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

    /**
     * Every line the edges logged for {@code client} once they hold {@code count}. The edges keep
     * running (both tests share them): each is told to reopen its logs (USR1), which writes out its
     * buffered lines at once, as the buffer's flush=1s would within a second. Past
     * {@link #LOG_WAIT_MS}, what they hold then.
     */
    private static List<JsonNode> logged(String client, int count) throws IOException, InterruptedException {
        List<NginxServer> edges = TIERS.subList(1, 1 + EDGES);
        for (NginxServer edge : edges) {
            ManagedProcess.run(List.of("kill", "-USR1", String.valueOf(edge.pid())), Duration.ofSeconds(10)).stdoutIfSucceeded();
        }
        List<Path> logs = edges.stream().map(NginxServer::accessLog).toList();
        long deadline = System.nanoTime() + LOG_WAIT_MS * 1_000_000;
        while (true) {
            try {
                List<JsonNode> lines = FleetLog.clientLines(logs, client);
                if (lines.size() >= count || System.nanoTime() > deadline) {
                    return lines;
                }
            } catch (IOException halfWritten) {
                if (System.nanoTime() > deadline) {
                    throw halfWritten;
                }
            }
            Poll.pause(100);
        }
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
        List<JsonNode> lines = logged(CLIENT, SENT);

        // Every edge served the client, each saw its real address, and Redis decided every request.
        assertThat(lines).hasSize(SENT);
        assertThat(FleetLog.edgesSeen(lines)).isEqualTo(EDGES);
        assertThat(FleetLog.fleetOutcomes(lines)).containsOnly("PASSED", "REJECTED");
        long admitted = statuses.stream().filter(s -> s == 200).count();
        assertThat(admitted).isGreaterThanOrEqualTo(BURST + 1).isLessThanOrEqualTo(FleetLog.promised(lines, 1, BURST));
        // Per edge, it would have been burst + 1 on each host: three times as many.
        assertThat(admitted).isLessThan((long) EDGES * (BURST + 1));
        // The quota beside it never refused this client: the 429s were all the burst limit's.
        assertThat(lines).extracting(l -> l.get("quota").asText()).doesNotContain("REJECTED");
    }

    @Test
    void oneClientsQuotaHoldsAcrossTheHosts() throws Exception {
        List<Http.Raw> answers = new ArrayList<>();
        // /quick: the shared origin's 10 ms endpoint, each URI its own, so every admitted request is a miss.
        for (int i = 0; i < QUOTA + OVER; i++) {
            answers.add(Http.raw(QUOTA_CLIENT, ports.front(), "GET", "/quick?quota=" + i, "X-Api-Key: " + QUOTA_KEY));
        }
        // In the order sent (by each request's own URI: two answers can end in the same millisecond).
        List<JsonNode> lines = new ArrayList<>(logged(QUOTA_CLIENT, QUOTA + OVER));
        lines.sort(Comparator.comparingInt(l -> Integer.parseInt(l.get("uri").asText().replace("/quick?quota=", ""))));

        // Exactly the quota admitted, fleet-wide, in the order sent; the rest refused.
        List<Integer> expected = new ArrayList<>();
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < QUOTA + OVER; i++) {
            expected.add(i < QUOTA ? 200 : 429);
            left.add(Math.max(0, QUOTA - 1 - i));
        }
        assertThat(answers).extracting(Http.Raw::status).containsExactlyElementsOf(expected);
        // What is left counts down by one a request whichever host answered, to 0 on the rejections:
        // one count in Redis (were each edge counting alone, each would count down from its share).
        assertThat(answers).extracting(FleetAcrossHostsTest::remaining).containsExactlyElementsOf(left);
        for (Http.Raw refused : answers.subList(QUOTA, QUOTA + OVER)) {
            // A sliding window: until the next window, plus the share of it this one's count takes to slide out.
            assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, QUOTA_WINDOW + QUOTA_WINDOW / QUOTA);
            assertThat(refused.header("Content-Type")).isEqualTo("application/problem+json");
            JsonNode problem = new ObjectMapper().readTree(refused.body());
            assertThat(problem.get("type").asText()).isEqualTo(QUOTA_EXCEEDED);
            assertThat(problem.get("violated-policies").get(0).asText()).isEqualTo("quota");
            assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"metered\";q=1;w=1;ratecache-burst=" + (QUOTA + OVER)
                    + ", \"quota\";q=" + QUOTA + ";w=" + QUOTA_WINDOW);
        }

        // Every edge logged the client by its own address; Redis decided every request: the shared
        // burst limit passed them all, and the quota passed exactly its number, across the hosts.
        assertThat(lines).hasSize(QUOTA + OVER);
        assertThat(FleetLog.edgesSeen(lines)).isEqualTo(EDGES);
        assertThat(FleetLog.fleetOutcomes(lines)).containsOnly("PASSED");
        List<String> quota = new ArrayList<>();
        for (int i = 0; i < QUOTA + OVER; i++) {
            quota.add(i < QUOTA ? "PASSED" : "REJECTED");
        }
        assertThat(lines).extracting(l -> l.get("quota").asText()).containsExactlyElementsOf(quota);
        assertThat(lines).extracting(l -> l.get("status").asInt()).containsExactlyElementsOf(expected);
        // Every host admitted part of the quota, and each that refused had admitted less than all of it
        // itself: it refused for what the other hosts had admitted.
        for (int edge = 0; edge < EDGES; edge++) {
            int e = edge;
            long admittedHere = lines.subList(0, QUOTA).stream().filter(l -> l.get("edge").asInt() == e).count();
            assertThat(admittedHere).as("admitted by edge %d", e).isBetween(1L, QUOTA - 1L);
        }
    }

    private static int remaining(Http.Raw answer) {
        Matcher m = REMAINING.matcher(String.join(", ", answer.allValues("RateLimit")));
        assertThat(m.find()).as(answer.headers().toString()).isTrue();
        // The seconds until the window that counts it ends.
        assertThat(Integer.parseInt(m.group(2))).isBetween(1, QUOTA_WINDOW);
        return Integer.parseInt(m.group(1));
    }
}
