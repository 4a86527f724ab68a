package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --tiers on Envoy's front: a tier's key its own bucket at the tier's numbers, any other key the
 * anonymous tier's (the front's here). 1 r/s, so no busy machine refills a token within a burst.
 */
@StackTest
@LongTest
@ExtendWith(SharedOrigin.class)
class EnvoyTiersTest {
    private static final String KEY_HEADER = "X-Api-Key";

    @Test
    void aTiersKeyIsCountedAtItsTiersLimitAndAnyOtherKeyAtTheAnonymousOne(OriginServer origin) throws Exception {
        Path dir = TestDirs.fresh(getClass(), "tiers");
        Path tiers = Files.write(dir.resolve("tiers.txt"), List.of("gold 1 9 nodelay gold.1"));
        StackPorts ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        try (Edge.Running stack = EnvoyRenderTest.edge().start(EnvoyRenderTest.nodelay().frontRate(1).frontBurst(4)
                .backLimit(false).cache(false).limitKey(LimitKey.parse("header:" + KEY_HEADER))
                .addressCeiling(AddressCeiling.parse("1,99")).tiers(tiers).spec(ports), dir.resolve("stack"))) {
            // gold: a bucket of 10 for its key; any other key: the front's 5.
            assertThat(passed(burst(ports, "127.0.27.1", KEY_HEADER + ": gold.1"))).isEqualTo(10);
            assertThat(passed(burst(ports, "127.0.27.2", KEY_HEADER + ": goldx1"))).isEqualTo(5);
        }
    }

    private static List<Http.Raw> burst(StackPorts ports, String source, String header) throws Exception {
        return EdgeBehaviours.atOnce(Collections.nCopies(15, (Callable<Http.Raw>) () ->
                Http.raw(source, ports.front(), "GET", Stacks.fresh("hare"), header)));
    }

    private static long passed(List<Http.Raw> answers) {
        return answers.stream().filter(a -> a.status() == 200).count();
    }
}
