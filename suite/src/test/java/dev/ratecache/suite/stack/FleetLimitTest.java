package dev.ratecache.suite.stack;

import dev.ratecache.suite.edge.NginxEdge;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One client's promise across three edges behind a round-robin balancer (--fleet-limit): each
 * edge's own limit_req counts alone and lets the client through about three times; client-hash,
 * split and shared hold it to rate plus burst, and shared falls back to split when Redis dies.
 *
 * <p>The client sends {@link #SENT} requests one after another at 1 request/s with a burst of
 * {@link #BURST}, nodelay. What may pass is judged from the edges' own logs: the promise allows
 * burst + 1 at once and one more for every whole second between the first and the last admitted
 * request, however slowly a busy machine sent them.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class FleetLimitTest {
    private static final int EDGES = 3;
    private static final int BURST = 5;
    private static final int SENT = 30;
    private static final String CLIENT = "127.0.0.21";

    private static OriginServer origin;

    @BeforeAll
    static void origin(OriginServer shared) {
        origin = shared;
    }

    private static StackSwitches fleet(FleetLimit strategy) {
        // The back limit off: only the per-client limit decides.
        return new StackSwitches().edges(EDGES).fleetLimit(strategy).frontRate(1).frontBurst(BURST)
                .frontMode(LimitMode.NODELAY).backLimit(false);
    }

    private static Stack start(String name, StackSwitches switches) throws Exception {
        return Stacks.around(origin, TestDirs.fresh(FleetLimitTest.class, name), switches);
    }

    /** {@link #SENT} requests from {@link #CLIENT}, one after another; the statuses, in order. */
    private static List<Integer> send(Stack stack) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < SENT; i++) {
            statuses.add(Http.raw(CLIENT, stack.ports().front(), "GET", "/hare?i=" + i).status());
        }
        return statuses;
    }

    private static List<JsonNode> clientLines(Stack stack) throws Exception {
        return FleetLog.clientLines(stack.tiers().frontAccessLogs(), CLIENT);
    }

    private static long promised(List<JsonNode> lines) {
        return FleetLog.promised(lines, 1, BURST);
    }

    private static long admitted(List<Integer> statuses) {
        return statuses.stream().filter(s -> s == 200).count();
    }

    @Test
    void perEdgeLetsAClientThroughOncePerEdge() throws Exception {
        List<Integer> statuses;
        List<JsonNode> lines;
        try (Stack stack = start("per-edge", fleet(FleetLimit.PER_EDGE))) {
            statuses = send(stack);
            stack.close();
            lines = clientLines(stack);
        }
        // Each edge admits its own burst + 1: the client gets about three times its limit.
        assertThat(admitted(statuses)).isGreaterThanOrEqualTo((long) EDGES * (BURST + 1))
                .isGreaterThan(promised(lines));
        assertThat(statuses).contains(429);
    }

    @Test
    void clientHashSendsEachClientToOneEdge() throws Exception {
        List<Integer> statuses;
        List<JsonNode> lines;
        try (Stack stack = start("client-hash", fleet(FleetLimit.CLIENT_HASH))) {
            assertThat(Files.readString(stack.tiers(NginxEdge.Tiers.class).balancer().orElseThrow().prefix().resolve("conf/edge-balancer.conf")))
                    .contains("include snippets/balancer/client-hash.conf;");
            statuses = send(stack);
            stack.close();
            lines = clientLines(stack);
        }
        assertThat(FleetLog.edgesSeen(lines)).isEqualTo(1);
        assertThat(admitted(statuses)).isGreaterThanOrEqualTo(BURST + 1).isLessThanOrEqualTo(promised(lines));
    }

    @Test
    void splitGivesEachEdgeItsShareOfRateAndBurst() throws Exception {
        List<Integer> statuses;
        List<JsonNode> lines;
        try (Stack stack = start("split", fleet(FleetLimit.SPLIT))) {
            // 1 r/s over 3 edges is 20 r/m each; a burst of 5 is 1 each, rounded down so the fleet never admits more.
            assertThat(Files.readString(stack.tiers(NginxEdge.Tiers.class).front().prefix().resolve("conf/snippets/shared/address-limit-zone.conf")))
                    .contains("rate=20r/m;");
            assertThat(Files.readString(stack.tiers(NginxEdge.Tiers.class).front().prefix().resolve("conf/snippets/shared/address-limit.conf")))
                    .contains("limit_req zone=per_client burst=1 nodelay;");
            statuses = send(stack);
            stack.close();
            lines = clientLines(stack);
        }
        assertThat(FleetLog.edgesSeen(lines)).isEqualTo(EDGES);
        assertThat(admitted(statuses)).isGreaterThanOrEqualTo(EDGES).isLessThanOrEqualTo(promised(lines));
    }

    @Test
    void sharedHoldsTheClientToOneLimitAcrossTheEdges() throws Exception {
        FleetLog.requireSharedLimit();
        List<Integer> statuses;
        List<JsonNode> lines;
        List<Http.Raw> rejections = new ArrayList<>();
        try (Stack stack = start("shared", fleet(FleetLimit.SHARED))) {
            assertThat(stack.tiers(NginxEdge.Tiers.class).fleetRedis()).isPresent();
            statuses = send(stack);
            rejections.add(Http.raw(CLIENT, stack.ports().front(), "GET", "/hare?over"));
            stack.close();
            lines = clientLines(stack);
        }
        assertThat(FleetLog.edgesSeen(lines)).isEqualTo(EDGES);
        assertThat(admitted(statuses)).isGreaterThanOrEqualTo(BURST + 1).isLessThanOrEqualTo(promised(lines));
        assertThat(FleetLog.fleetOutcomes(lines)).containsOnly("PASSED", "REJECTED");
        // The fleet's rejection reads as limit_req's: the status, when to retry, and the policy.
        Http.Raw rejected = rejections.get(0);
        assertThat(rejected.status()).isEqualTo(429);
        assertThat(rejected.header("Retry-After")).isEqualTo("1");
        assertThat(rejected.header("RateLimit-Policy")).isEqualTo("\"per-address\";q=1;w=1;ratecache-burst=" + BURST);
    }

    @Test
    void sharedCountsAKeyInItsTierAcrossTheEdges() throws Exception {
        FleetLog.requireSharedLimit();
        Path tiers = TestDirs.fresh(FleetLimitTest.class, "tiers").resolve("tiers.txt");
        Files.writeString(tiers, "pro 1 " + BURST + " nodelay fleet-pro-key\n");
        List<Integer> statuses = new ArrayList<>();
        List<JsonNode> lines;
        Http.Raw last;
        // Unknown keys (the anonymous tier) get 50 r/s: were the key counted outside its tier, all would pass.
        try (Stack stack = start("shared-tiers", fleet(FleetLimit.SHARED).frontRate(50).frontBurst(50)
                .limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers))) {
            for (int i = 0; i < SENT; i++) {
                statuses.add(Http.raw(CLIENT, stack.ports().front(), "GET", "/hare?k=" + i, "X-Api-Key: fleet-pro-key")
                        .status());
            }
            last = Http.raw(CLIENT, stack.ports().front(), "GET", "/hare?k=last", "X-Api-Key: fleet-pro-key");
            stack.close();
            lines = clientLines(stack);
        }
        assertThat(FleetLog.edgesSeen(lines)).isEqualTo(EDGES);
        assertThat(admitted(statuses)).isGreaterThanOrEqualTo(BURST + 1).isLessThanOrEqualTo(promised(lines));
        assertThat(last.status()).isEqualTo(429);
        assertThat(last.header("RateLimit-Policy")).startsWith("\"pro\";q=1;w=1;ratecache-burst=" + BURST);
    }

    @Test
    void sharedQueuesAsLimitReqDoes() throws Exception {
        FleetLog.requireSharedLimit();
        List<Integer> statuses;
        List<JsonNode> lines;
        // Queue mode: what exceeds the rate within the burst waits for its turn instead of passing at once.
        try (Stack stack = start("shared-queue", fleet(FleetLimit.SHARED).frontMode(LimitMode.QUEUE).frontRate(5)
                .frontBurst(2))) {
            statuses = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                statuses.add(Http.raw(CLIENT, stack.ports().front(), "GET", "/hare?q=" + i).status());
            }
            stack.close();
            lines = clientLines(stack);
        }
        assertThat(statuses).containsOnly(200);
        assertThat(FleetLog.fleetOutcomes(lines)).contains("PASSED", "DELAYED");
        // A delayed request waited at least most of its turn (200 ms a request at 5 r/s) at the edge.
        assertThat(lines).filteredOn(e -> e.path("fleet").asText().equals("DELAYED"))
                .allSatisfy(e -> assertThat(e.path("request_time").asDouble()).isGreaterThanOrEqualTo(0.1));
    }

    @Test
    void sharedFallsBackToTheSplitLimitWhenRedisDies() throws Exception {
        FleetLog.requireSharedLimit();
        List<Integer> statuses;
        List<JsonNode> lines;
        try (Stack stack = start("shared-fallback", fleet(FleetLimit.SHARED))) {
            assertThat(Http.raw(CLIENT, stack.ports().front(), "GET", "/hare?before").status()).isEqualTo(200);
            stack.tiers(NginxEdge.Tiers.class).fleetRedis().orElseThrow().close();
            statuses = send(stack);
            stack.close();
            lines = clientLines(stack);
        }
        // Fail open with a ceiling: every request after Redis died was counted by its edge's split zone. The one
        // request Redis counted before is not in those zones, so one more than the promise may pass.
        assertThat(FleetLog.fleetOutcomes(lines)).containsOnlyOnce("PASSED")
                .filteredOn("FALLBACK"::equals).hasSize(SENT);
        assertThat(admitted(statuses)).isGreaterThanOrEqualTo(EDGES).isLessThanOrEqualTo(promised(lines) + 1);
        assertThat(statuses).contains(429);
    }

    @Test
    void sharedFallsBackWhenRedisIsSlowerThanItsTimeout() throws Exception {
        FleetLog.requireSharedLimit();
        List<JsonNode> lines;
        try (Stack stack = start("shared-slow", fleet(FleetLimit.SHARED).fleetRedisTimeout(50))) {
            RedisServer redis = stack.tiers(NginxEdge.Tiers.class).fleetRedis().orElseThrow();
            assertThat(Http.raw(CLIENT, stack.ports().front(), "GET", "/hare?before").status()).isEqualTo(200);
            redis.pause();
            try {
                for (int i = 0; i < EDGES; i++) {
                    assertThat(Http.raw(CLIENT, stack.ports().front(), "GET", "/hare?slow=" + i).status()).isEqualTo(200);
                }
            } finally {
                redis.resume();
            }
            stack.close();
            lines = clientLines(stack);
        }
        List<JsonNode> fellBack = lines.stream().filter(e -> e.path("fleet").asText().equals("FALLBACK")).toList();
        assertThat(fellBack).hasSize(EDGES);
        // Each waited its 50 ms on the hung Redis, not the client library's default of a minute: 2 s is
        // the slack a busy machine may need.
        assertThat(fellBack).allSatisfy(e -> assertThat(e.path("request_time").asDouble()).isLessThan(2.0));
    }
}
