package dev.ratecache.suite.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --origin: the tiers in front of origins the suite did not start, spread round robin; and the suite's own, slowed. */
@StackTest
class OriginsTest {

    @Test
    void twoOriginsGivenByUrlShareTheLoadRoundRobin() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "round-robin");
        try (OriginServer a = OriginServer.start(Ports.free(), Ports.free(), 10, dir.resolve("a.log"), List.of());
                OriginServer b = OriginServer.start(Ports.free(), Ports.free(), 10, dir.resolve("b.log"), List.of());
                Stack stack = Stack.start(new StackSwitches().origins(List.of(a.uri(), b.uri())).cache(false),
                        StackPorts.free(), dir)) {
            assertThat(stack.ownOrigin()).isEmpty();

            for (int i = 0; i < 10; i++) {
                assertThat(Http.get(stack.frontUri(), "/hare").statusCode()).isEqualTo(200);
            }

            assertThat(a.counters().requests("hare")).isEqualTo(5);
            assertThat(b.counters().requests("hare")).isEqualTo(5);
        }
    }

    @Test
    void anOriginDelaySetAfterTheProfilesIsTheOneTheOriginServes() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "delay");
        // The quick profile's 10 ms, then --origin-delay hare=400ms: Spring would join the two and bind neither.
        List<String> args = new java.util.ArrayList<>(dev.ratecache.suite.matrix.Profile.QUICK.originArgs());
        args.addAll(new dev.ratecache.suite.origin.OriginDelays(
                java.util.Map.of("hare", java.time.Duration.ofMillis(400))).originArgs());
        try (OriginServer origin = OriginServer.start(Ports.free(), Ports.free(), 10, dir.resolve("origin.log"), args)) {
            long start = System.nanoTime();
            assertThat(Http.get(origin.uri(), "/hare").statusCode()).isEqualTo(200);

            // A lower bound only: a busy machine makes an answer later, never sooner than its delay.
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(400);
            assertThat(origin.counters().requests("hare")).isEqualTo(1);
        }
    }
}
