package dev.ratecache.suite.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.jmeter.JMeter;
import dev.ratecache.suite.matrix.EdgeHitShare;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The load plan (10 users over /snail, /hare and /tortoise) through two edges, round robin and
 * sharded by URI. /snail (fresh 60 s) and /tortoise (fresh 10 s) outlive the run: sharded, the
 * origin sees each once; with independent caches, once per edge, so twice. The origin answers
 * them in 200 ms here instead of 5 s and 2 s, so the run stays short; their lifetimes are the
 * reference's.
 */
@StackTest
@LongTest
class EdgesLoadPlanTest {
    private static final int EDGES = 2;

    record Outcome(Map<String, Long> reached, double hitPct, long samples, double seconds) {}

    private static Outcome run(EdgeBalance balance) throws Exception {
        Path dir = TestDirs.fresh(EdgesLoadPlanTest.class, balance.toString());
        try (Stack stack = Stack.start(new StackSwitches().edges(EDGES).edgeBalance(balance), StackPorts.free(), dir, 10,
                List.of("--origin.endpoints.snail.delay=200ms", "--origin.endpoints.tortoise.delay=200ms"))) {
            Map<String, String> props = new LinkedHashMap<>(Plan.LOAD.paths());
            props.putAll(Map.of("host", "127.0.0.1", "port", String.valueOf(stack.ports().front()),
                    "users", "10", "loops", "5", "rampup", "1"));
            JMeter.Run run = JMeter.assembled().run(Plan.LOAD.file(), props, dir.resolve("jmeter"));
            assertThat(run.exitCode()).isZero();
            Map<String, Long> reached = new LinkedHashMap<>();
            for (String endpoint : List.of("snail", "tortoise", "hare")) {
                reached.put(endpoint, Stacks.reached(stack, endpoint));
            }
            stack.close();
            // The samples' span (wallMs), first request to last response: what the lifetimes are measured
            // against (JMeter's own start, 5 s and more on a loaded machine, is not part of it).
            JtlSummary summary = JtlSummary.read(run.jtl());
            return new Outcome(reached, EdgeHitShare.hitPct(stack.frontEvents()), summary.samples(),
                    summary.wallMs() / 1000.0);
        }
    }

    @Test
    void shardedEdgesSendEachUrlToTheOriginOncePerLifetimeIndependentOnesOncePerEdge() throws Exception {
        Outcome independent = run(EdgeBalance.ROUND_ROBIN);
        Outcome sharded = run(EdgeBalance.URI_HASH);

        assertThat(independent.samples()).isEqualTo(150);
        assertThat(sharded.samples()).isEqualTo(150);
        // Both runs are shorter than /tortoise's 10 s lifetime, so every long-lived URL is fetched once per cache.
        assertThat(independent.seconds()).isLessThan(10);
        assertThat(sharded.seconds()).isLessThan(10);
        assertThat(sharded.reached()).containsEntry("snail", 1L).containsEntry("tortoise", 1L);
        assertThat(independent.reached()).containsEntry("snail", (long) EDGES).containsEntry("tortoise", (long) EDGES);
        // /hare (fresh 3 s): at most once per lifetime (plus the first), and per edge when independent.
        long lifetimes = (long) Math.ceil(sharded.seconds() / 3.0) + 1;
        assertThat(sharded.reached().get("hare")).isLessThanOrEqualTo(lifetimes);
        assertThat(independent.reached().get("hare")).isLessThanOrEqualTo(EDGES * ((long) Math.ceil(independent.seconds() / 3.0) + 1));
        long total = independent.reached().values().stream().mapToLong(Long::longValue).sum();
        long totalSharded = sharded.reached().values().stream().mapToLong(Long::longValue).sum();
        assertThat(totalSharded).isLessThan(total);
        assertThat(sharded.hitPct()).isGreaterThan(independent.hitPct());
    }
}
