package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.StaleMode;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code --stale protective}: stale content whenever the origin fails, whatever the origin allowed. */
@StackTest
@ExtendWith(SharedOrigin.class)
class ProtectiveStaleTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, ProtectiveStaleTest.class, new StackSwitches().stale(StaleMode.PROTECTIVE));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void responseThatForbidsStaleIsServedStaleWhileTheOriginErrors() throws Exception {
        stack.origin().reset();
        Stacks.Stored entry = Stacks.store(stack, "mustrevalidate");
        String url = entry.url();
        String stored = entry.body();
        stack.origin().fail("mustrevalidate", 500);

        HttpResponse<String> whileFailing = Stacks.firstAnswerNotAHit(stack, url);

        assertThat(whileFailing.statusCode()).isEqualTo(200);
        assertThat(cacheStatus(whileFailing)).isEqualTo("STALE");
        assertThat(whileFailing.body()).isEqualTo(stored);
    }
}
