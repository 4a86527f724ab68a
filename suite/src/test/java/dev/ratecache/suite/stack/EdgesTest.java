package dev.ratecache.suite.stack;

import dev.ratecache.suite.edge.NginxEdge;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.edge.NginxLog;
import dev.ratecache.suite.matrix.EdgeHitShare;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --edges 2 with both balance modes: two front end tiers behind one balancing nginx. Round robin
 * gives each edge its own copy of every URL (the origin sees a URL once per edge per lifetime);
 * uri-hash shards the cache (once per lifetime). Either way the edges see the client's address,
 * not the balancer's, and the one back end still limits the sum of all edges.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class EdgesTest {
    private static final int URLS = 6;
    private static final int ASKS = 4;
    /** URLs for the sharded cache: enough that ketama puts some on each edge whatever their ports. */
    private static final int SHARDED_URLS = 24;

    private static OriginServer origin;

    @BeforeAll
    static void origin(OriginServer shared) {
        origin = shared;
    }

    /** Two edges with {@code switches}, tiers of the test's own (the switches differ) around the shared origin. */
    private static Stack start(String name, StackSwitches switches) throws Exception {
        return Stacks.around(origin, TestDirs.fresh(EdgesTest.class, name), switches.edges(2));
    }

    /**
     * Each of {@link #URLS} URLs of /hare (fresh 3 s) asked {@link #ASKS} times in a row, well
     * within its lifetime; returns how often the origin was reached for them.
     */
    private static long askEachUrlRepeatedly(Stack stack) throws Exception {
        return askEachUrlRepeatedly(stack, URLS);
    }

    private static long askEachUrlRepeatedly(Stack stack, int urls) throws Exception {
        for (int u = 0; u < urls; u++) {
            for (int i = 0; i < ASKS; i++) {
                assertThat(Http.get(stack.frontUri(), "/hare?u=" + u).statusCode()).isEqualTo(200);
            }
        }
        return Stacks.reached(stack, "hare");
    }

    @Test
    void roundRobinGivesEachEdgeItsOwnCopy() throws Exception {
        try (Stack stack = start("round-robin", new StackSwitches().frontLimit(false))) {
            assertThat(stack.tiers(NginxEdge.Tiers.class).fronts()).hasSize(2);
            assertThat(stack.tiers(NginxEdge.Tiers.class).balancer()).isPresent();

            long reached = askEachUrlRepeatedly(stack);
            stack.close();

            // Consecutive requests alternate between the edges: each misses every URL once.
            assertThat(reached).isEqualTo(2L * URLS);
            for (Path log : stack.tiers().frontAccessLogs()) {
                assertThat(urls(log)).hasSize(URLS);
            }
            // Half the answers were hits: the first ask on each edge missed, the second hit.
            assertThat(EdgeHitShare.hitPct(stack.frontEvents())).isEqualTo(50.0);
        }
    }

    @Test
    void uriHashShardsTheCacheSoEachUrlReachesTheOriginOnce() throws Exception {
        try (Stack stack = start("uri-hash",
                new StackSwitches().frontLimit(false).edgeBalance(EdgeBalance.URI_HASH))) {
            long reached = askEachUrlRepeatedly(stack, SHARDED_URLS);
            stack.close();

            assertThat(reached).isEqualTo(SHARDED_URLS);
            Set<String> first = urls(stack.tiers().frontAccessLogs().get(0));
            Set<String> second = urls(stack.tiers().frontAccessLogs().get(1));
            // Every URL lives on exactly one edge, and ketama spreads them over both: the edges' ports are
            // free ones chosen now, so which URL goes where changes from run to run, but with 24 URLs all on
            // one edge is a chance of about one in ten million (with 6 it was one in thirty).
            assertThat(first).doesNotContainAnyElementsOf(second);
            assertThat(first.size() + second.size()).isEqualTo(SHARDED_URLS);
            assertThat(first).isNotEmpty();
            assertThat(second).isNotEmpty();
            assertThat(EdgeHitShare.hitPct(stack.frontEvents())).isEqualTo(100.0 * (ASKS - 1) / ASKS);
        }
    }

    @Test
    void theEdgesSeeTheClientAndLimitItThoughTheBalancerSitsBetween() throws Exception {
        // 2 r/s, burst 3, nodelay, no cache: a burst of 10 from one address on one URL.
        StackSwitches switches = new StackSwitches().frontRate(2).frontBurst(3).frontMode(LimitMode.NODELAY)
                .cache(false).edgeBalance(EdgeBalance.URI_HASH).backLimit(false);
        try (Stack stack = start("client-address", switches)) {
            List<Http.Raw> one = burst(stack, "127.0.0.31", 10, "X-Forwarded-For: 203.0.113.9");
            List<Http.Raw> other = burst(stack, "127.0.0.32", 4);

            // One URL, so one edge: its per-client bucket admits 1 + burst of the 10, as a single front end would.
            assertThat(RateLimitTest.count(one, 200)).isEqualTo(4);
            assertThat(RateLimitTest.count(one, 429)).isEqualTo(6);
            // Another client has its own bucket on the same edge: the key is the client, not the balancer.
            assertThat(RateLimitTest.count(other, 200)).isEqualTo(4);
            stack.close();
            List<String> clients = new ArrayList<>();
            for (Path log : stack.tiers().frontAccessLogs()) {
                NginxLog.entries(log).forEach(e -> clients.add(e.path("client").asText()));
            }
            // The address a client claims in X-Forwarded-For is replaced by the balancer.
            assertThat(Set.copyOf(clients)).containsExactlyInAnyOrder("127.0.0.31", "127.0.0.32");
        }
    }

    @Test
    void theOneBackLimitProtectsTheOriginFromAllEdgesTogether() throws Exception {
        // Back limit 1 r/s burst 2 nodelay; the edges' own limits and caches out of the way.
        StackSwitches switches = new StackSwitches().frontLimit(false).cache(false)
                .backRate(1).backBurst(2).backMode(LimitMode.NODELAY);
        try (Stack stack = start("back-limit", switches)) {
            List<String> paths = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                paths.add("/hare?b=" + i);
            }
            List<java.net.http.HttpResponse<String>> answers = Http.burst(stack.frontUri(), paths);
            long reached = Stacks.reached(stack, "hare");
            stack.close();

            Set<String> edgesUsed = new java.util.HashSet<>();
            for (JsonNode e : NginxLog.entries(stack.tiers(NginxEdge.Tiers.class).balancer().orElseThrow().accessLog())) {
                edgesUsed.add(e.path("upstream").asText());
            }
            assertThat(edgesUsed).as("the burst went through both edges").hasSize(2);
            // 1 + burst 2 reach the origin (one more if a second passes during the burst), whichever edge sent them.
            assertThat(reached).isBetween(3L, 4L);
            assertThat(answers.stream().filter(r -> r.statusCode() == 429).count()).isGreaterThanOrEqualTo(8);
        }
    }

    @Test
    void theEdgesAreStoppedWithTheStack() throws Exception {
        Stack stack = start("stop", new StackSwitches());
        List<NginxServer> all = new ArrayList<>(stack.tiers(NginxEdge.Tiers.class).fronts());
        all.add(stack.tiers(NginxEdge.Tiers.class).balancer().orElseThrow());
        stack.close();
        assertThat(all).noneMatch(NginxServer::isRunning);
        assertThat(Files.readString(stack.tiers(NginxEdge.Tiers.class).balancer().orElseThrow().prefix().resolve("conf/edge-balancer.conf")))
                .contains("server 127.0.0.1:" + stack.ports().edgePorts(2).get(0) + ";")
                .doesNotContain("hash $request_uri");
    }

    /** {@code count} requests for /hare at once from {@code source}: one URL, so one edge under uri-hash. */
    private static List<Http.Raw> burst(Stack stack, String source, int count, String... headers) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(count);
        try {
            List<java.util.concurrent.Future<Http.Raw>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(pool.submit(() -> Http.raw(source, stack.ports().front(), "GET", "/hare", headers)));
            }
            List<Http.Raw> answers = new ArrayList<>();
            for (var f : futures) {
                answers.add(f.get());
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Set<String> urls(Path log) throws Exception {
        return NginxLog.entries(log).stream().map(e -> e.path("uri").asText()).collect(Collectors.toSet());
    }
}
