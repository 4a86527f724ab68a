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

/** --origin: the tiers in front of origins the suite did not start, spread round robin. */
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
}
