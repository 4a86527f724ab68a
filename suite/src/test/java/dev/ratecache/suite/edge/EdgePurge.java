package dev.ratecache.suite.edge;

import static dev.ratecache.suite.edge.EdgeStack.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import org.junit.jupiter.api.Test;

/**
 * An edge that purges (capability PURGE): PURGE of a URL from an address of --purge-allow
 * (127.0.0.1 by default) removes it; from any other it is refused with 403, without Retry-After.
 * An edge without it has its own test of what it answers. nginx's edge: stack/EdgeCacheTest.
 */
interface EdgePurge extends EdgeStack {

    @Test
    default void aPurgeFromAnAllowedAddressEmptiesTheEntryAndFromAnyOtherIsForbidden() throws Exception {
        String url = stored("hare").url();

        Http.Raw refused = send("PURGE", url);
        Http.Raw stillCached = get(url);
        Http.Raw purged = sendFrom("127.0.0.1", "PURGE", url);
        Http.Raw afterPurge = get(url);

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.header("Retry-After")).isNull();
        assertThat(cacheStatus(stillCached)).isEqualTo("HIT");
        assertThat(purged.status()).isEqualTo(200);
        assertThat(cacheStatus(afterPurge)).isEqualTo("MISS");
        assertThat(reached("hare")).isEqualTo(2);
    }
}
