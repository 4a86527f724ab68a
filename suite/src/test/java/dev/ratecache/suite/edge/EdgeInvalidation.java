package dev.ratecache.suite.edge;

import static dev.ratecache.suite.edge.EdgeStack.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.stack.Stacks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A write through the edge invalidates the stored GET of its URL (RFC 9111 section 4.4): the GET
 * right after a successful write reaches the origin; after a refused or failed one it is still a
 * HIT. board takes writes (204); hare refuses them (405). Whether the write's Location is
 * invalidated too (the RFC's "may") differs by product: each product's class says. nginx's edge:
 * stack/InvalidationTest.
 */
interface EdgeInvalidation extends EdgeStack {

    private Http.Raw write(String method, String url) {
        return send(method, url, "Content-Length: 0");
    }

    /**
     * The cache status of the write's Location (post answers 201 with Location /board?item=posted),
     * stored before a successful write: whether the product invalidates it, the RFC's "may", is each
     * product's class's test.
     */
    default String locationAfterASuccessfulWrite() {
        String location = "/board?item=posted";
        get(location);
        assertThat(cacheStatus(get(location))).isEqualTo("HIT");

        Http.Raw created = write("POST", Stacks.fresh("post"));

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("Location")).isEqualTo(location);
        return cacheStatus(get(location));
    }

    /** Every unsafe method, extension methods too (WebDAV's REPORT, an API's own). */
    @ParameterizedTest(name = "{0}: the next GET reaches the origin")
    @ValueSource(strings = {"PUT", "POST", "DELETE", "PATCH", "REPORT", "FROBNICATE"})
    default void aSuccessfulWriteInvalidatesTheStoredGet(String method) throws Exception {
        String url = stored("board").url();

        assertThat(write(method, url).status()).isEqualTo(204);
        Http.Raw after = get(url);

        assertThat(cacheStatus(after)).isEqualTo("MISS");
        // The first GET, the write and the GET after it.
        assertThat(reached("board")).isEqualTo(3);
    }

    /** Writes mostly carry credentials, which keep a read away from the cache; a write they do not. */
    @ParameterizedTest(name = "with {0}")
    @ValueSource(strings = {"Authorization: Bearer writer", "Cookie: session=writer"})
    default void aSuccessfulWriteWithCredentialsInvalidatesTheStoredGet(String credentials) throws Exception {
        String url = stored("board").url();

        assertThat(send("PUT", url, "Content-Length: 0", credentials).status()).isEqualTo(204);

        assertThat(cacheStatus(get(url))).isEqualTo("MISS");
        assertThat(reached("board")).isEqualTo(3);
    }

    @Test
    default void aSafeMethodInvalidatesNothing() {
        String url = stored("board").url();

        assertThat(write("OPTIONS", url).status()).isEqualTo(200);

        assertThat(cacheStatus(get(url))).isEqualTo("HIT");
    }

    @Test
    default void aWriteTheOriginRefusesInvalidatesNothing() throws Exception {
        String url = stored("hare").url();

        assertThat(write("PUT", url).status()).isEqualTo(405);

        assertThat(cacheStatus(get(url))).isEqualTo("HIT");
        assertThat(reached("hare")).isEqualTo(1);
    }

    @Test
    default void aWriteThatFailsAtTheOriginInvalidatesNothing() throws Exception {
        String url = stored("board").url();
        origin().fail("board", 500);

        assertThat(write("PUT", url).status()).isEqualTo(500);

        assertThat(cacheStatus(get(url))).isEqualTo("HIT");
        assertThat(reached("board")).isEqualTo(2);
    }
}
