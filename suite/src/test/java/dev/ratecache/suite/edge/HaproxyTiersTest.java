package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * --tiers on HAProxy's front, keyed by a header: each tier of keys its own window, every other key
 * in the anonymous tier at the front's limit. The windows are ones no busy machine slides out of
 * between the first and the last request of a burst: pro 1 r/s, burst 9 (10 per 10 s); free 1 r/s,
 * burst 2 (3 per 3 s); anonymous, the front's 1 r/s, burst 4 (5 per 5 s). Each test sends from an
 * address of its own, and each key has a window of its own.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class HaproxyTiersTest {
    private static final String KEY_HEADER = "X-Api-Key";
    private static Edge.Running stack;
    private static StackPorts ports;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        Path dir = TestDirs.fresh(HaproxyTiersTest.class, "stack");
        Path tiers = Files.write(dir.resolve("tiers.txt"), List.of("pro 1 9 nodelay pro-1", "free 1 2 nodelay free-1"));
        StackSwitches switches = new StackSwitches().frontRate(1).frontBurst(4).frontMode(LimitMode.NODELAY)
                .backLimit(false).limitKey(LimitKey.parse("header:" + KEY_HEADER)).tiers(tiers);
        stack = new HaproxyEdge(Repo.haproxyTemplates()).start(switches.spec(ports), dir.resolve("haproxy"));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    /** {@code n} requests at once from {@code source} with {@code key}, each to a URL of its own; how many passed. */
    private static long passedOf(String source, String key, int n) throws Exception {
        List<Http.Raw> answers = EdgeBehaviours.atOnce(Collections.nCopies(n, (Callable<Http.Raw>) () ->
                Http.raw(source, ports.front(), "GET", Stacks.fresh("hare"), KEY_HEADER + ": " + key)));
        assertThat(answers.stream().filter(a -> a.status() != 200)).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(429);
            assertThat(a.header("Retry-After")).isEqualTo("1");
        });
        return answers.stream().filter(a -> a.status() == 200).count();
    }

    @Test
    void aKeyListedInATierGetsThatTiersBurst() throws Exception {
        assertThat(passedOf("127.0.13.1", "pro-1", 20)).isEqualTo(10);
        assertThat(passedOf("127.0.13.1", "free-1", 6)).isEqualTo(3);
    }

    /** A key is in its tier only as listed, case included (as nginx's edge has it): PRO-1 is anonymous. */
    @Test
    void anyOtherKeyIsInTheAnonymousTierAtTheFrontsLimit() throws Exception {
        assertThat(passedOf("127.0.13.2", "stranger", 10)).isEqualTo(5);
        assertThat(passedOf("127.0.13.2", "PRO-1", 10)).isEqualTo(5);
    }
}
