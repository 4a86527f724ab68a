package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Background update off, and the back end's freshness fallback for origins that send no Cache-Control. */
@StackTest
@ExtendWith(SharedOrigin.class)
class CacheSwitchesTest {
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, CacheSwitchesTest.class, new StackSwitches()
                .backgroundUpdate(false)
                .freshness("/bare", 2)
                .freshness("/hare", 99));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    void expiredEntryIsRevalidatedWithIfNoneMatchWhileTheClientWaits() throws Exception {
        stack.origin().reset();
        String url = Stacks.store(stack, "quick").url();
        long stored = stack.origin().counters().requests("quick");

        HttpResponse<String> expired = Stacks.firstAnswerNotAHit(stack, url);

        assertThat(cacheStatus(expired)).isEqualTo("REVALIDATED");
        assertThat(stack.origin().counters().notModified("quick")).isEqualTo(1);
        assertThat(stack.origin().counters().requests("quick")).isEqualTo(stored + 1);
    }

    @Test
    void expiredEntryWhoseContentChangedIsReplacedAndCountedExpired() throws Exception {
        String url = Stacks.store(stack, "quick").url();
        // The origin comes back with new content (a new ETag): revalidation gets a 200, not a 304.
        stack.origin().stop();
        StackPorts ports = stack.ports();
        List<String> args = new java.util.ArrayList<>(SharedOrigin.ENDPOINTS);
        args.add("--origin.content-version=v2");
        try (OriginServer changed = OriginServer.start(ports.origin(), ports.management(), 10,
                TestDirs.fresh(getClass(), "changed").resolve("origin.log"), args)) {
            HttpResponse<String> expired = Stacks.firstAnswerNotAHit(stack, url);

            assertThat(cacheStatus(expired)).isEqualTo("EXPIRED");
            assertThat(expired.headers().firstValue("ETag")).hasValue("\"quick-v2\"");
            assertThat(changed.counters().notModified("quick")).isZero();
        } finally {
            stack.origin().start();
        }
    }

    @Test
    void originWithoutCacheControlGetsItsPathsFreshnessFromTheBackEnd() throws Exception {
        HttpResponse<String> first = Http.get(stack.frontUri(), "/bare?fallback");
        HttpResponse<String> second = Http.get(stack.frontUri(), "/bare?fallback");

        assertThat(first.headers().firstValue("Cache-Control")).hasValue("max-age=2");
        assertThat(first.headers().firstValue("Expires")).isPresent();
        assertThat(cacheStatus(first)).isEqualTo("MISS");
        assertThat(cacheStatus(second)).isEqualTo("HIT");
    }

    @Test
    void originsOwnCacheControlIsNeverOverridden() {
        HttpResponse<String> hare = Http.get(stack.frontUri(), "/hare?own");

        assertThat(hare.headers().allValues("Cache-Control")).containsExactly("public, max-age=3, stale-while-revalidate=60, stale-if-error=600");
    }
}
