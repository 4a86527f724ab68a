package dev.ratecache.suite.edge;

import static dev.ratecache.suite.edge.EdgeStack.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Waits;
import dev.ratecache.suite.stack.Stacks;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * An edge that serves stale content (capabilities STALE_WHILE_REVALIDATE and STALE_IF_ERROR)
 * serves an expired entry only where the origin allowed it (RFC 9111 section 4.2.4, RFC 5861):
 * swr allows it for a minute while the entry is refreshed, swrbrief for a second, sie for a
 * minute while the origin fails; must-revalidate, proxy-revalidate and s-maxage forbid it,
 * whatever a stale-if-error beside them says. All fresh for 1 s. An edge without the capability
 * has its own test that it answers a MISS. nginx's edge: stack/EdgeStaleRulesTest.
 */
interface EdgeStale extends EdgeStack {

    @Test
    default void staleWhileRevalidateServesTheExpiredEntryAndRefreshesItBehind() throws Exception {
        Stacks.Stored entry = stored("swr");
        long before = reached("swr");

        Http.Raw expired = firstAnswerNotAHit(entry.url());

        assertThat(cacheStatus(expired)).isEqualTo("STALE");
        assertThat(expired.body()).isEqualTo(entry.body());
        // The refresh behind asked the origin with If-None-Match and got a 304.
        await().atMost(Duration.ofSeconds(5)).until(() -> origin().counters().notModified("swr") == 1);
        assertThat(cacheStatus(get(entry.url()))).isEqualTo("HIT");
        assertThat(reached("swr")).isEqualTo(before + 1);
    }

    /** Looking would refresh the entry (a STALE answer starts a refresh), so the test lets the window pass. */
    @Test
    default void pastItsStaleWhileRevalidateWindowTheClientWaitsForTheOrigin() throws Exception {
        String url = stored("swrbrief").url();
        long before = reached("swrbrief");
        // max-age=1 plus stale-while-revalidate=1: nothing may serve it stale after that.
        Waits.outlast(Duration.ofSeconds(2));

        Http.Raw expired = get(url);

        assertThat(cacheStatus(expired)).isNotIn("HIT", "STALE");
        assertThat(reached("swrbrief")).isEqualTo(before + 1);
    }

    @Test
    default void staleIfErrorServesTheExpiredEntryWhileTheOriginFails() throws Exception {
        Stacks.Stored entry = stored("sie");
        long before = reached("sie");
        origin().fail("sie", 500);

        Http.Raw whileFailing = firstAnswerNotAHit(entry.url());
        // The origin was asked, and its 500 left the entry as it was.
        await().atMost(Duration.ofSeconds(5)).until(() -> reached("sie") > before);
        Http.Raw afterTheFailure = get(entry.url());

        for (Http.Raw answer : new Http.Raw[] {whileFailing, afterTheFailure}) {
            assertThat(answer.status()).isEqualTo(200);
            assertThat(cacheStatus(answer)).isEqualTo("STALE");
            assertThat(answer.body()).isEqualTo(entry.body());
        }
    }

    /**
     * mrsie, prsie and smsie are mustrevalidate, proxyrevalidate and smaxage with a
     * stale-if-error=60 beside them, which they override (RFC 9111 sections 4.2.4, 5.2.2.2,
     * 5.2.2.8 and 5.2.2.10: s-maxage means proxy-revalidate to a shared cache).
     */
    @ParameterizedTest(name = "{0}: never stale while the origin fails")
    @ValueSource(strings = {"mustrevalidate", "proxyrevalidate", "smaxage", "mrsie", "prsie", "smsie"})
    default void aResponseThatForbidsStaleIsNeverServedStale(String endpoint) throws Exception {
        String url = stored(endpoint).url();
        origin().fail(endpoint, 500);

        Http.Raw whileFailing = firstAnswerNotAHit(url);

        assertThat(whileFailing.status()).isEqualTo(500);
        assertThat(cacheStatus(whileFailing)).isNotEqualTo("STALE");
    }
}
