package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The origin's /items through the edge cache, end to end: a successful PUT through the front purges
 * the stored GET, so the next GET through the front returns the new version, fetched from the origin
 * (a MISS), whether the stored entry was still fresh or had expired. Without the purge the first would
 * be a HIT of the old version and the second a STALE one (items allow stale-while-revalidate).
 */
@StackTest
class ItemWritesThroughTheEdgeTest {
    /** Short, so the expired case waits little; long enough that a HIT then a PUT fit well inside it. */
    private static final int MAX_AGE_S = 2;
    private static Stack stack;

    @BeforeAll
    static void start() throws Exception {
        stack = Stacks.start(ItemWritesThroughTheEdgeTest.class, new NginxSwitches(),
                "--origin.items.max-age=" + MAX_AGE_S + "s");
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @BeforeEach
    void resetOrigin() throws Exception {
        stack.origin().reset();
    }

    private static HttpResponse<String> get(int id) {
        return Http.get(stack.frontUri(), "/items/" + id);
    }

    private static HttpResponse<String> put(int id, String name) {
        return Http.send(Http.request(stack.frontUri(), "/items/" + id, "Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\"}")).build());
    }

    private static long originReads() throws Exception {
        return stack.origin().counters().items().database().reads();
    }

    /** GETs the item until the edge has stored it (a HIT of version 1); returns when it was stored. */
    private static Instant stored(int id) {
        assertThat(get(id).headers().firstValue("ETag")).hasValue("\"item-" + id + "-v1\"");
        Instant storedAt = Instant.now();
        HttpResponse<String> hit = get(id);
        assertThat(cacheStatus(hit)).isEqualTo("HIT");
        assertThat(hit.headers().firstValue("ETag")).hasValue("\"item-" + id + "-v1\"");
        return storedAt;
    }

    private static void newVersionFromTheOrigin(int id) throws Exception {
        long readsBefore = originReads();
        HttpResponse<String> written = put(id, "renamed");
        assertThat(written.statusCode()).isEqualTo(200);
        assertThat(written.headers().firstValue("ETag")).hasValue("\"item-" + id + "-v2\"");

        HttpResponse<String> after = get(id);

        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(cacheStatus(after)).as("purged by the PUT, so fetched anew").isEqualTo("MISS");
        assertThat(after.headers().firstValue("ETag")).hasValue("\"item-" + id + "-v2\"");
        assertThat(after.body()).contains("\"version\":2").contains("\"name\":\"renamed\"");
        assertThat(originReads()).as("the GET after the write reached the database").isEqualTo(readsBefore + 1);
    }

    @Test
    void putThroughTheFrontThenGetReturnsTheNewVersionForAFreshEntry() throws Exception {
        stored(101);
        newVersionFromTheOrigin(101);
    }

    @Test
    void putThroughTheFrontThenGetReturnsTheNewVersionForAnExpiredEntry() throws Exception {
        Instant storedAt = stored(102);
        // nginx counts freshness in whole seconds: max-age + 1 s after storing, the entry has expired.
        // Waited on the clock, not by asking (asking would refresh the entry).
        await().atMost(Duration.ofSeconds(MAX_AGE_S + 5)).pollInterval(Duration.ofMillis(50))
                .until(() -> Instant.now().isAfter(storedAt.plusSeconds(MAX_AGE_S + 1)));
        newVersionFromTheOrigin(102);
    }
}
