package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Both Traefik tiers started by the adapter in front of the suite's origin, one behaviour at a
 * time: the per-client limit by address and by key, --allow, the back's one limit for the origin,
 * and the events each tier's log gives, compared with what the clients read and the origin
 * counted. Limits are of 1 r/s, which no busy machine refills within a burst sent at once (a
 * request is held for its token only when half a token, 500 ms, is enough).
 */
@StackTest
@LongTest
@ExtendWith(SharedOrigin.class)
class TraefikEdgeTest {
    private static final String KEY_HEADER = "X-Api-Key";

    /** A started stack, its ports and everything sent through it. */
    record Stack(Edge.Running running, StackPorts ports) implements AutoCloseable {
        List<Http.Raw> burst(String source, int n, String... headers) throws Exception {
            return EdgeBehaviours.atOnce(Collections.nCopies(n, (Callable<Http.Raw>) () ->
                    Http.raw(source, ports.front(), "GET", Stacks.fresh("hare"), headers)));
        }

        @Override
        public void close() {
            running.close();
        }
    }

    static Stack start(OriginServer origin, String name, java.util.function.UnaryOperator<
            dev.ratecache.suite.switches.StackSwitches> switches) throws Exception {
        StackPorts ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        return new Stack(TraefikRenderTest.edge().start(switches.apply(TraefikRenderTest.runnable()).spec(ports),
                TestDirs.fresh(TraefikEdgeTest.class, name)), ports);
    }

    static long ok(List<Http.Raw> answers) {
        return answers.stream().filter(a -> a.status() == 200).count();
    }

    @Test
    void aBurstFromOneAddressPassesBurstPlusOneAndTheRestIs429WithTraefiksRetryAfter(OriginServer origin)
            throws Exception {
        List<Http.Raw> answers;
        try (Stack stack = start(origin, "by-address", s -> s.frontRate(1).frontBurst(4).backLimit(false))) {
            answers = stack.burst("127.0.14.1", 10);
            stack.close();
            List<EdgeEvent> front = stack.running().frontEvents();
            List<EdgeEvent> back = stack.running().backEvents();

            assertThat(ok(answers)).isEqualTo(5);
            assertThat(answers).filteredOn(a -> a.status() != 200).hasSize(5).allSatisfy(a -> {
                assertThat(a.status()).isEqualTo(429);
                // The wait for the next token, 1 s at 1 r/s less the moments since: rounded up, 1.
                assertThat(a.header("Retry-After")).isEqualTo("1");
                assertThat(a.header("X-Retry-In")).isNotNull();
                assertThat(a.header("RateLimit")).isNull();
                assertThat(a.header("RateLimit-Policy")).isNull();
                assertThat(a.header("X-RateLimit-Remaining")).isNull();
            });
            assertThat(origin.counters().requests("hare")).isEqualTo(5);

            // Every request is one front event with the status the client read, the address as key.
            assertThat(front).extracting(EdgeEvent::key, EdgeEvent::status, EdgeEvent::limit)
                    .containsExactlyInAnyOrderElementsOf(answers.stream().map(a -> tuple("127.0.14.1", a.status(),
                            a.status() == 429 ? EdgeEvent.Limit.REJECTED : EdgeEvent.Limit.PASSED)).toList());
            assertThat(front).filteredOn(e -> e.limit() == EdgeEvent.Limit.REJECTED)
                    .allSatisfy(e -> assertThat(e.wentUpstream()).isFalse());
            assertThat(front).filteredOn(e -> e.limit() == EdgeEvent.Limit.PASSED).allSatisfy(e -> {
                assertThat(e.upstreamStatus()).isEqualTo("200");
                assertThat(e.upstreamArrivalMs()).isBetween(e.arrivalMs(), e.endMs());
                assertThat(e.cache()).isEqualTo(EdgeEvent.Cache.NONE);
                assertThat(e.bytes()).isPositive();
            });
            // What reached the origin is the back's events: no limit there, and the client's address as
            // key (Traefik logs the X-Forwarded-For it trusts from the front), as HAProxy's back does.
            assertThat(back).hasSize(5).allSatisfy(e -> {
                assertThat(e.limit()).isEqualTo(EdgeEvent.Limit.NONE);
                assertThat(e.key()).isEqualTo("127.0.14.1");
                assertThat(e.upstreamMs()).isGreaterThanOrEqualTo(99);
            });
        }
    }

    @Test
    void aTiersKeyIsCountedAtItsTiersLimitAndAKeyNoTierListsAtTheAnonymousOne(OriginServer origin) throws Exception {
        java.nio.file.Path tiers = java.nio.file.Files.write(TestDirs.fresh(TraefikEdgeTest.class, "tiers-file")
                .resolve("tiers.txt"), List.of("gold 1 9 nodelay gold.1"));
        try (Stack stack = start(origin, "tiers", s -> s.frontRate(1).frontBurst(4).backLimit(false)
                .limitKey(LimitKey.parse("header:" + KEY_HEADER)).addressCeiling(AddressCeiling.parse("1,99"))
                .tiers(tiers))) {
            // gold: a bucket of 10 for its key; any other valid key, anonymous: the front's 5.
            assertThat(ok(stack.burst("127.0.14.9", 15, KEY_HEADER + ": gold.1"))).isEqualTo(10);
            assertThat(ok(stack.burst("127.0.14.10", 15, KEY_HEADER + ": goldx1"))).isEqualTo(5);
        }
    }

    @Test
    void aKeyHasItsOwnBucketAndARequestWithoutOneIsCountedByItsAddress(OriginServer origin) throws Exception {
        try (Stack stack = start(origin, "by-key", s -> s.frontRate(1).frontBurst(4).backLimit(false)
                .limitKey(LimitKey.parse("header:" + KEY_HEADER)).addressCeiling(AddressCeiling.parse("1,29")))) {
            assertThat(ok(stack.burst("127.0.14.2", 8, KEY_HEADER + ": one"))).isEqualTo(5);
            assertThat(ok(stack.burst("127.0.14.2", 8, KEY_HEADER + ": two"))).isEqualTo(5);
            // No key: by the address, whose own bucket is untouched by the keyed requests.
            assertThat(ok(stack.burst("127.0.14.2", 8))).isEqualTo(5);
            stack.close();
            // The log keeps the address, never the key.
            assertThat(stack.running().frontEvents()).hasSize(24)
                    .allSatisfy(e -> assertThat(e.key()).isEqualTo("127.0.14.2"));
        }
    }

    @Test
    void theCeilingCountsEveryKeyedRequestOfAnAddressEvenOnesTheKeysLimitThenRefuses(OriginServer origin)
            throws Exception {
        // Traefik runs the chain's limits one after the other: the ceiling's token is taken before
        // the key's limit refuses. Ceiling 1 r/s burst 5 (6): key one takes all six of it.
        try (Stack stack = start(origin, "ceiling", s -> s.frontRate(1).frontBurst(4).backLimit(false)
                .limitKey(LimitKey.parse("header:" + KEY_HEADER)).addressCeiling(AddressCeiling.parse("1,5")))) {
            assertThat(ok(stack.burst("127.0.14.3", 6, KEY_HEADER + ": one"))).isEqualTo(5);
            assertThat(ok(stack.burst("127.0.14.3", 4, KEY_HEADER + ": two"))).isZero();
        }
    }

    @Test
    void allowedNetworksAreNeverLimitedAtTheFront(OriginServer origin) throws Exception {
        try (Stack stack = start(origin, "allow", s -> s.frontRate(1).frontBurst(4).backLimit(false)
                .allow(List.of("127.0.15.0/24")))) {
            assertThat(ok(stack.burst("127.0.15.1", 10))).isEqualTo(10);
            assertThat(ok(stack.burst("127.0.14.4", 10))).isEqualTo(5);
            stack.close();
            assertThat(stack.running().frontEvents()).filteredOn(e -> e.key().equals("127.0.15.1"))
                    .hasSize(10).allSatisfy(e -> assertThat(e.limit()).isEqualTo(EdgeEvent.Limit.NONE));
        }
    }

    @Test
    void theBackLimitHoldsTheOriginToOneBucketForAllClients(OriginServer origin) throws Exception {
        try (Stack stack = start(origin, "back", s -> s.frontRate(1).frontBurst(4).backRate(1).backBurst(2))) {
            List<Callable<Http.Raw>> many = new ArrayList<>();
            IntStream.range(0, 10).forEach(i -> many.add(() -> Http.raw("127.0.16." + (i + 1), stack.ports().front(),
                    "GET", Stacks.fresh("hare"))));
            List<Http.Raw> answers = EdgeBehaviours.atOnce(many);
            stack.close();

            assertThat(ok(answers)).isEqualTo(3);
            assertThat(answers).filteredOn(a -> a.status() != 200).hasSize(7)
                    .allSatisfy(a -> assertThat(a.status()).isEqualTo(429));
            assertThat(origin.counters().requests("hare")).isEqualTo(3);
            // The back's rejections reach the front as its upstream's 429 (with the back's X-Retry-In):
            // the front's own limit passed each, one request per address.
            assertThat(stack.running().frontEvents()).hasSize(10).allSatisfy(e -> {
                assertThat(e.limit()).isEqualTo(EdgeEvent.Limit.PASSED);
                assertThat(e.upstreamStatus()).isEqualTo(String.valueOf(e.status()));
            });
            assertThat(stack.running().backEvents()).extracting(EdgeEvent::limit).containsOnly(
                    EdgeEvent.Limit.PASSED, EdgeEvent.Limit.REJECTED).filteredOn(l -> l == EdgeEvent.Limit.REJECTED)
                    .hasSize(7);
        }
    }

    /**
     * The bare form peak sets beside the full front: one router to the back tier, so a burst that the
     * full front's limit of 1 r/s would cut to 5 all reaches the origin, and nothing is logged.
     */
    @Test
    void theBareFormPassesEveryRequestToTheBackTierAndLogsNone(OriginServer origin) throws Exception {
        int port = dev.ratecache.proc.Ports.free();
        java.nio.file.Path dir = TestDirs.fresh(TraefikEdgeTest.class, "bare");
        try (Stack stack = start(origin, "bare-back", s -> s.frontRate(1).frontBurst(4).backLimit(false));
                BareForm.Running bare = TraefikRenderTest.edge().bareForm().orElseThrow().start(
                        TraefikRenderTest.runnable().frontRate(1).frontBurst(4).backLimit(false).spec(stack.ports()),
                        dir.resolve("bare"), port)) {
            long before = origin.counters().requests("hare");
            List<Http.Raw> answers = EdgeBehaviours.atOnce(Collections.nCopies(10, (Callable<Http.Raw>) () ->
                    Http.raw("127.0.17.1", port, "GET", Stacks.fresh("hare"))));

            assertThat(ok(answers)).isEqualTo(10);
            assertThat(origin.counters().requests("hare") - before).isEqualTo(10);
            assertThat(TraefikEdge.accessLog(dir.resolve("bare"), "bare")).doesNotExist();
        }
    }

    @Test
    void aSharedFleetLimitHoldsOneBucketPerClientAcrossEveryEdgeInRedis(OriginServer origin) throws Exception {
        List<Http.Raw> answers;
        try (Stack stack = start(origin, "fleet-shared", s -> s.frontRate(1).frontBurst(4).backLimit(false).edges(3)
                .fleetLimit(dev.ratecache.suite.spec.FleetLimit.SHARED))) {
            answers = stack.burst("127.0.14.7", 15);
            stack.close();
            List<EdgeEvent> front = stack.running().frontEvents();

            // Three edges behind the balancer, one bucket of 5 in Redis: 5 pass, as one edge alone would let.
            assertThat(ok(answers)).isEqualTo(5);
            assertThat(answers).filteredOn(a -> a.status() != 200).allSatisfy(a -> assertThat(a.status()).isEqualTo(429));
            assertThat(origin.counters().requests("hare")).isEqualTo(5);
            // Every edge took its share (round robin), and their logs read as one front tier keyed by the client.
            for (Path log : stack.running().frontAccessLogs()) {
                assertThat(java.nio.file.Files.readAllLines(log)).isNotEmpty();
            }
            assertThat(front).hasSize(15).extracting(EdgeEvent::key).containsOnly("127.0.14.7");
            assertThat(front).filteredOn(e -> e.limit() == EdgeEvent.Limit.PASSED).hasSize(5);
            assertThat(stack.running().backEvents()).hasSize(5).extracting(EdgeEvent::key).containsOnly("127.0.14.7");
        }
    }

    @Test
    void aPerEdgeFleetLimitLetsAClientHaveABucketOnEveryEdge(OriginServer origin) throws Exception {
        try (Stack stack = start(origin, "fleet-per-edge", s -> s.frontRate(1).frontBurst(4).backLimit(false).edges(3)
                .fleetLimit(dev.ratecache.suite.spec.FleetLimit.PER_EDGE))) {
            List<Http.Raw> answers = stack.burst("127.0.14.8", 15);

            // Each edge's own bucket of 5 in its own memory: more than one bucket's worth gets through
            // (the balancer's turns may give an edge one more or one fewer than 5).
            assertThat(ok(answers)).isGreaterThanOrEqualTo(10);
        }
    }
}
