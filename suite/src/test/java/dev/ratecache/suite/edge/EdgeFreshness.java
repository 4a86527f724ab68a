package dev.ratecache.suite.edge;

import static dev.ratecache.suite.edge.EdgeStack.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stacks;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an edge stores and for how long, from the headers the origin sends (RFC 9111 sections 3,
 * 4.1 and 4.2; the endpoints are {@link SharedOrigin#ENDPOINTS}'): the same for every edge
 * product. Where the products read a header differently (Age, an Expires against the response's
 * Date) each product's class has its own test. nginx's edge: stack/FreshnessRulesTest, EdgeCacheTest.
 */
interface EdgeFreshness extends EdgeStack {

    /** plain: public, max-age=1; smaxage: public, s-maxage=1. Neither allows serving it stale. */
    @ParameterizedTest(name = "{0}: a MISS once expired")
    @ValueSource(strings = {"plain", "smaxage"})
    default void anEntryPastItsLifetimeIsAMissThatReachesTheOrigin(String endpoint) throws Exception {
        String url = stored(endpoint).url();
        long before = reached(endpoint);

        Http.Raw expired = firstAnswerNotAHit(url);

        assertThat(cacheStatus(expired)).isEqualTo("MISS");
        assertThat(reached(endpoint)).isEqualTo(before + 1);
    }

    /**
     * private: Cache-Control private; nostore: no-store; cookie: public, max-age=60 with a
     * Set-Cookie, which a shared cache that stored it would hand, one client's session, to every
     * other client (nginx's and Varnish's never store it).
     */
    @ParameterizedTest(name = "{0}: never stored")
    @ValueSource(strings = {"private", "nostore", "cookie"})
    default void aResponseForOneClientIsNeverStored(String endpoint) throws Exception {
        String url = Stacks.fresh(endpoint);

        Http.Raw first = get(url);
        Http.Raw again = get(url);

        assertThat(List.of(cacheStatus(first), cacheStatus(again))).containsExactly("MISS", "MISS");
        assertThat(reached(endpoint)).isEqualTo(2);
    }

    /**
     * badexpires: no Cache-Control, Expires "not a date", which RFC 9111 section 5.3 reads as
     * already expired; bare: no Cache-Control and no Expires. The suite's edges store only what
     * the origin gave a lifetime, as nginx's front does, not a product's own guess (HAProxy would
     * keep it for its max-age, Varnish for its default_ttl).
     */
    @ParameterizedTest(name = "{0}: never stored")
    @ValueSource(strings = {"badexpires", "bare"})
    default void aResponseWithoutALifetimeIsNeverStored(String endpoint) throws Exception {
        String url = Stacks.fresh(endpoint);

        Http.Raw first = get(url);
        Http.Raw again = get(url);

        assertThat(List.of(cacheStatus(first), cacheStatus(again))).containsExactly("MISS", "MISS");
        assertThat(reached(endpoint)).isEqualTo(2);
    }

    /** varyall: Vary: *; varylist: Vary: Accept, *. A "*" never matches a later request (RFC 9111 section 4.1). */
    @ParameterizedTest(name = "{0}: never a HIT")
    @ValueSource(strings = {"varyall", "varylist"})
    default void aResponseThatVariesOnEverythingIsNeverAHit(String endpoint) throws Exception {
        String url = Stacks.fresh(endpoint);
        for (int i = 0; i < 3; i++) {
            assertThat(cacheStatus(get(url, "Accept: application/json"))).isEqualTo("MISS");
        }
        assertThat(reached(endpoint)).isEqualTo(3);
    }

    /**
     * zipped answers a gzip body to a request that accepts gzip and the plain one otherwise, with
     * Vary: Accept-Encoding. The stored gzip answer never reaches a client that does not accept
     * it: HAProxy asks the origin for the other variant, Varnish unzips its stored one.
     */
    @Test
    default void aStoredVariantReachesOnlyTheClientsThatAcceptIt() {
        String url = Stacks.fresh("zipped");

        Http.Raw zipped = get(url, "Accept-Encoding: gzip");
        Http.Raw plain = get(url, "Accept-Encoding: br");
        Http.Raw zippedAgain = get(url, "Accept-Encoding: gzip");

        assertThat(zipped.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(plain.status()).isEqualTo(200);
        assertThat(plain.header("Content-Encoding")).isNull();
        assertThat(plain.body()).contains("\"endpoint\":\"zipped\"");
        assertThat(cacheStatus(zippedAgain)).isEqualTo(variantAgainStatus());
    }

    /**
     * The cache status of the gzip variant asked for again after the plain one was fetched: a HIT
     * where the product keeps both variants; Envoy's cache keeps the latest and fetches the gzip one
     * again (a MISS).
     */
    default String variantAgainStatus() {
        return "HIT";
    }

    /** plain (no permission to be served stale) while the origin answers 500: its 500, not the stored body. */
    @Test
    default void anExpiredEntryWithoutPermissionIsNeverServedInPlaceOfTheOriginsError() throws Exception {
        String url = stored("plain").url();
        origin().fail("plain", 500);

        Http.Raw whileFailing = firstAnswerNotAHit(url);

        assertThat(whileFailing.status()).isEqualTo(500);
        assertThat(cacheStatus(whileFailing)).isEqualTo("MISS");
    }

    /**
     * lagging: max-age=60 with a Date 58 s old. RFC 9111 section 4.2.3 counts that as 58 s of age
     * already, which leaves 2; neither HAProxy nor Varnish reads Date into an entry's age (nginx's
     * edge does: FreshnessRulesTest), so it is held for the whole minute.
     */
    @Test
    default void aDateInThePastIsNotCountedAsAge() throws Exception {
        String url = Stacks.fresh("lagging");
        get(url);

        stillAHitAfter(url, 5);

        assertThat(reached("lagging")).isEqualTo(1);
    }

    /**
     * targeted: Cache-Control public, max-age=60 and CDN-Cache-Control max-age=2. Neither HAProxy
     * 2.6 nor Varnish 7.1 reads CDN-Cache-Control (RFC 9213), so it is held for the minute
     * Cache-Control gives (nginx's edge reads it: FreshnessRulesTest).
     */
    @Test
    default void cdnCacheControlIsNotRead() throws Exception {
        String url = Stacks.fresh("targeted");
        get(url);

        stillAHitAfter(url, 5);

        assertThat(reached("targeted")).isEqualTo(1);
    }
}
