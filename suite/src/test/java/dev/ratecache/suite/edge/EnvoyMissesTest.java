package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import org.junit.jupiter.api.Test;

/** --limit-scope misses on Envoy's tiers ({@link EdgeMissesBehaviours}): the per-client limit in the back's filters. */
@StackTest
@LongTest
class EnvoyMissesTest extends EdgeMissesBehaviours {
    @Override
    Edge edge() {
        return EnvoyRenderTest.edge();
    }

    @Override
    StackSwitches base() {
        return EnvoyRenderTest.nodelay();
    }

    @Override
    String subnet() {
        return "127.0.26";
    }

    /**
     * X-Ratecache-Client from a client is not believed: the front sets it to the connection's peer,
     * so a keyless client naming another's address in it is counted by its own and spends none of
     * that address's bucket.
     */
    @Test
    void aClientsOwnXRatecacheClientIsReplacedByTheFront() throws Exception {
        assertThat(passed(atOnce(2 * THRESHOLD, () -> get("127.0.26.3", Stacks.fresh("hare"),
                "X-Ratecache-Client: 127.0.26.4")))).isEqualTo(THRESHOLD);
        assertThat(passed(atOnce(THRESHOLD, () -> get("127.0.26.4", Stacks.fresh("hare"))))).isEqualTo(THRESHOLD);
    }
}
