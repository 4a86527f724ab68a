package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static dev.ratecache.suite.stack.Stacks.fresh;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The edge's stale-if-error signal where the native module is not loaded (plain nginx, Age by njs):
 * the edge says "1" for any expired entry it holds (snippets/front/stale-if-error-signal-value.conf).
 * EdgeStaleRulesTest holds the exact signal of the module.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class StaleIfErrorWithoutTheModuleTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, StaleIfErrorWithoutTheModuleTest.class,
                new StackSwitches().ageSource(AgeSource.NJS).readTimeout(2));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void staleIfErrorStillServesTheExpiredEntryWhileTheOriginErrors() throws Exception {
        Stacks.Stored entry = Stacks.store(stack, "sie");
        stack.origin().fail("sie", 500);

        HttpResponse<String> whileFailing = Stacks.firstAnswerNotAHit(stack, entry.url());

        assertThat(whileFailing.statusCode()).isEqualTo(200);
        assertThat(cacheStatus(whileFailing)).isEqualTo("STALE");
        assertThat(whileFailing.body()).isEqualTo(entry.body());
    }

    @Test
    void anExpiredEntryThatMayNotBeServedStaleGetsTheEdgesOwn502() throws Exception {
        String url = Stacks.store(stack, "plain").url();
        stack.origin().fail("plain", 500);

        HttpResponse<String> whileFailing = Stacks.firstAnswerNotAHit(stack, url);

        assertThat(whileFailing.statusCode()).isEqualTo(502);
        assertThat(cacheStatus(whileFailing)).isEqualTo("EXPIRED");
    }

    @Test
    void withNothingStoredTheOriginsOwnStatusReachesTheClient() throws Exception {
        String url = fresh("plain");
        stack.origin().fail("plain", 503);

        HttpResponse<String> answer = Http.get(stack.frontUri(), url);

        assertThat(answer.statusCode()).isEqualTo(503);
        assertThat(cacheStatus(answer)).isEqualTo("MISS");
    }
}
