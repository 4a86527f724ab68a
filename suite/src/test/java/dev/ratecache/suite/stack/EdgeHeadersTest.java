package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.Stacks.fresh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the edge leaves of the origin's headers and what it adds to a stored response: validators,
 * Vary, security headers, Date and Age, as the client reads them off the wire.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class EdgeHeadersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        // Age by njs, the fallback where the native module cannot be built: NativeAgeTest checks the
        // same Age behaviours against the module, which the default (auto) picks wherever it is built.
        stack = Stacks.around(origin, EdgeHeadersTest.class, new StackSwitches().ageSource(AgeSource.NJS));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }


    private static Http.Raw get(String url, String... headers) {
        return Http.raw("127.0.0.1", stack.ports().front(), "GET", url, headers);
    }

    /**
     * Asks for {@code url} until the edge answers a HIT whose Age says the entry has been held at
     * least {@code seconds} (beyond the Age it arrived with): the entry's own clock, read on the
     * wire, not the test's. Asking is harmless: a HIT leaves the entry as it was.
     */
    private static void awaitHitHeldFor(String url, long arrivedAge, long seconds) {
        await("a HIT held " + seconds + " s").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> get(url), r -> "HIT".equals(r.header("X-Cache-Status"))
                        && r.header("Age") != null && age(r) >= arrivedAge + seconds);
    }

    /** Whole seconds from {@code since} to now. */
    private static long secondsSince(Instant since) {
        return Duration.between(since, Instant.now()).toSeconds();
    }

    private static Instant date(Http.Raw response) {
        return ZonedDateTime.parse(response.header("Date"), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    }

    private static long age(Http.Raw response) {
        return Long.parseLong(response.header("Age"));
    }

    /** RFC 9110 section 7.6.1: a header the origin names in Connection is for one hop only. */
    @Test
    void headerNamedInConnectionIsNeitherStoredNorForwarded() {
        String url = fresh("hopping");
        Http.Raw miss = get(url);
        Http.Raw hit = get(url);

        assertThat(miss.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(hit.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(miss.allValues("X-Hop")).isEmpty();
        assertThat(hit.allValues("X-Hop")).isEmpty();
        assertThat(hit.allValues("Connection")).doesNotContain("X-Hop");
    }

    @Test
    void strongEtagOfAnUncompressedResponseIsKeptAndRevalidates() {
        String url = fresh("lasting");
        Http.Raw miss = get(url, "Accept-Encoding: gzip");
        Http.Raw hit = get(url, "Accept-Encoding: gzip");
        Http.Raw conditional = get(url, "Accept-Encoding: gzip", "If-None-Match: \"lasting-v1\"");

        assertThat(miss.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(miss.header("ETag")).isEqualTo("\"lasting-v1\"");
        assertThat(miss.header("Content-Encoding")).isNull();
        assertThat(hit.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(hit.header("ETag")).isEqualTo("\"lasting-v1\"");
        assertThat(conditional.status()).isEqualTo(304);
        assertThat(conditional.header("ETag")).isEqualTo("\"lasting-v1\"");
    }

    /**
     * RFC 9110 section 13.2.2: with If-None-Match present, If-Modified-Since is ignored. The entry
     * was last modified on 2 January 2023; the ETag alone decides either way.
     */
    @Test
    void ifNoneMatchTakesPrecedenceOverIfModifiedSince() throws Exception {
        Required.that(Files.isRegularFile(NginxRenderer.HEADERS_MORE_MODULE),
                "headers-more not installed (libnginx-mod-http-headers-more-filter)");
        String url = fresh("validated");
        Http.Raw miss = get(url);
        Http.Raw etagMatchesDateDoesNot = get(url, "If-None-Match: \"validated-v1\"",
                "If-Modified-Since: Sun, 01 Jan 2023 00:00:00 GMT");
        Http.Raw dateMatchesEtagDoesNot = get(url, "If-None-Match: \"validated-v0\"",
                "If-Modified-Since: Mon, 02 Jan 2023 00:00:00 GMT");
        Http.Raw dateAlone = get(url, "If-Modified-Since: Mon, 02 Jan 2023 00:00:00 GMT");

        assertThat(miss.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(miss.header("Last-Modified")).isEqualTo("Mon, 02 Jan 2023 00:00:00 GMT");
        assertThat(etagMatchesDateDoesNot.status()).isEqualTo(304);
        assertThat(etagMatchesDateDoesNot.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(dateMatchesEtagDoesNot.status()).isEqualTo(200);
        assertThat(dateMatchesEtagDoesNot.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(dateMatchesEtagDoesNot.body()).contains("\"endpoint\":\"validated\"");
        // Without If-None-Match the date still decides.
        assertThat(dateAlone.status()).isEqualTo(304);
        assertThat(Stacks.reached(stack, "validated")).isEqualTo(1);
    }

    @Test
    void originsGzipRepresentationKeepsItsOwnStrongEtagAndEachEncodingIsCachedApart() {
        String url = fresh("zipped");
        Http.Raw gzipMiss = get(url, "Accept-Encoding: gzip");
        Http.Raw gzipHit = get(url, "Accept-Encoding: gzip");
        Http.Raw identity = get(url);
        Http.Raw conditional = get(url, "Accept-Encoding: gzip", "If-None-Match: \"zipped-v1+gzip\"");

        assertThat(gzipMiss.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(gzipMiss.header("ETag")).isEqualTo("\"zipped-v1+gzip\"");
        assertThat(gzipMiss.header("Vary")).isEqualTo("Accept-Encoding");
        assertThat(gzipHit.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(gzipHit.header("ETag")).isEqualTo("\"zipped-v1+gzip\"");
        // The stored gzip variant is not handed to a client that did not ask for gzip.
        assertThat(identity.header("Content-Encoding")).isNull();
        assertThat(identity.header("ETag")).isEqualTo("\"zipped-v1\"");
        assertThat(identity.body()).contains("\"endpoint\":\"zipped\"");
        assertThat(conditional.status()).isEqualTo(304);
        assertThat(conditional.header("ETag")).isEqualTo("\"zipped-v1+gzip\"");
    }

    @Test
    void noVaryIsAddedToAResponseTheOriginDidNotVary() {
        String url = fresh("lasting");
        Http.Raw miss = get(url, "Accept-Encoding: gzip");
        Http.Raw hit = get(url, "Accept-Encoding: gzip");

        assertThat(miss.allValues("Vary")).isEmpty();
        assertThat(hit.header("X-Cache-Status")).isEqualTo("HIT");
        assertThat(hit.allValues("Vary")).isEmpty();
    }

    @Test
    void originsSecurityHeadersWinAndTheDefaultsFillInTheRestOnce() {
        String url = fresh("framed");
        for (Http.Raw response : new Http.Raw[] {get(url), get(url)}) {
            assertThat(response.allValues("X-Frame-Options")).containsExactly("SAMEORIGIN");
            assertThat(response.allValues("Content-Security-Policy")).containsExactly("frame-ancestors 'self'");
            assertThat(response.allValues("X-Content-Type-Options")).containsExactly("nosniff");
            assertThat(response.allValues("Referrer-Policy")).containsExactly("no-referrer");
        }
        // An endpoint that sends none gets every default, once, on a miss and a hit alike.
        String plain = fresh("lasting");
        SecurityHeaders.assertEachOnce(get(plain));
        Http.Raw hit = get(plain);
        assertThat(hit.header("X-Cache-Status")).isEqualTo("HIT");
        SecurityHeaders.assertEachOnce(hit);
    }

    @Test
    void originsDateIsWhatTheClientSeesOnAMissAndOnALaterHit() throws Exception {
        String url = fresh("lasting");
        Http.Raw miss = get(url);
        Instant servedAt = Instant.parse(JSON.readTree(miss.body()).get("servedAt").asText());

        awaitHitHeldFor(url, 0, 2);
        Http.Raw hit = get(url);

        // The origin dates its answer just after making the body: the same second, or the next.
        assertThat(date(miss)).isBetween(servedAt.truncatedTo(ChronoUnit.SECONDS),
                servedAt.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1));
        assertThat(hit.header("Date")).isEqualTo(miss.header("Date"));
    }

    @Test
    void ageOnAHitIsTheSecondsSinceTheEntryWasStored() {
        String url = fresh("lasting");
        Instant asked = Instant.now();
        Http.Raw miss = get(url);
        Instant answered = Instant.now();

        awaitHitHeldFor(url, 0, 3);
        // The Age of one HIT against the test's clock around it: whole seconds, rounded either way.
        long atLeast = secondsSince(answered);
        Http.Raw hit = get(url);
        long atMost = secondsSince(asked);

        assertThat(miss.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(miss.allValues("Age")).isEmpty();
        assertThat(hit.allValues("Age")).hasSize(1);
        assertThat(age(hit)).isBetween(atLeast - 1, atMost + 1);
    }

    @Test
    void upstreamAgeIsPassedOnAMissAndCountedOnFromOnAHit() {
        String url = fresh("aged");
        Instant asked = Instant.now();
        Http.Raw miss = get(url);
        Instant answered = Instant.now();

        awaitHitHeldFor(url, 7, 3);
        long atLeast = secondsSince(answered);
        Http.Raw hit = get(url);
        long atMost = secondsSince(asked);

        assertThat(miss.header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(miss.allValues("Age")).containsExactly("7");
        assertThat(hit.allValues("Age")).hasSize(1);
        assertThat(age(hit)).isBetween(7 + atLeast - 1, 7 + atMost + 1);
    }
}
