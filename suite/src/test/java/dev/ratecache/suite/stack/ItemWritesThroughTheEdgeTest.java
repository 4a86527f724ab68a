package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Waits;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
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
        stack = Stacks.withOwnOrigin(ItemWritesThroughTheEdgeTest.class, new StackSwitches(),
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

    /** GETs the item until the edge has stored it (a HIT of version 1). */
    private static void stored(int id) {
        assertThat(get(id).headers().firstValue("ETag")).hasValue("\"item-" + id + "-v1\"");
        HttpResponse<String> hit = get(id);
        assertThat(cacheStatus(hit)).isEqualTo("HIT");
        assertThat(hit.headers().firstValue("ETag")).hasValue("\"item-" + id + "-v1\"");
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
        stored(102);
        // A HIT whose Age is the max-age is the entry's last fresh second on the edge's clock, read on
        // the wire (a HIT leaves the entry as it was); past the next second it has expired. That last
        // second is waited, not asked: asking an expired entry would refresh it.
        await().atMost(Duration.ofSeconds(MAX_AGE_S + 5)).pollInterval(Duration.ofMillis(50))
                .until(() -> get(102), r -> "HIT".equals(cacheStatus(r))
                        && r.headers().firstValue("Age").map(Long::parseLong).orElse(0L) >= MAX_AGE_S);
        Waits.past(Duration.ofMillis(1100));
        newVersionFromTheOrigin(102);
    }
}
