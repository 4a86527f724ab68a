package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --limit-scope misses on HAProxy's tiers ({@link EdgeMissesBehaviours}): the per-client limit in the back's tables. */
@StackTest
class HaproxyMissesTest extends EdgeMissesBehaviours {
    @Override
    Edge edge() {
        return new HaproxyEdge(Repo.haproxyTemplates());
    }

    @Override
    StackSwitches base() {
        return new StackSwitches().frontMode(LimitMode.NODELAY);
    }

    @Override
    String subnet() {
        return "127.0.14";
    }

    /**
     * X-Limit-Key from a client is not believed: the front removes it, so a keyless client naming
     * another's key in it is counted by its own address and spends none of that key's quota.
     */
    @Test
    void aClientsOwnXLimitKeyIsReplacedByTheFront() throws Exception {
        List<Http.Raw> spoofed = atOnce(2 * THRESHOLD, () -> get("127.0.14.3", Stacks.fresh("hare"), "X-Limit-Key: victim"));

        assertThat(passed(spoofed)).isEqualTo(THRESHOLD);
        assertThat(passed(atOnce(THRESHOLD, () -> get("127.0.14.4", Stacks.fresh("hare"), KEY_HEADER + ": victim"))))
                .isEqualTo(THRESHOLD);
    }
}
