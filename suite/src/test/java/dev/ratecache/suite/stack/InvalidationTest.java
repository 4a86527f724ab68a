package dev.ratecache.suite.stack;

import static dev.ratecache.suite.stack.Stacks.cacheStatus;
import static dev.ratecache.suite.stack.Stacks.fresh;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writes through the edge invalidate what they changed (RFC 9111, section 4.4): the GET right
 * after a successful write reaches the origin; after a failed one it is still a HIT.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
// One instance for the class, so that a subclass (InvalidationOverTlsTest) changes the switches by
// overriding switches(): JUnit runs a superclass's static @BeforeAll even where a subclass hides it.
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InvalidationTest {
    private Stack stack;

    StackSwitches switches() {
        return new StackSwitches();
    }

    @BeforeAll
    void start(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, getClass(), switches());
    }

    @AfterAll
    void stop() {
        Stacks.closeAll(stack);
    }

    private long reached(String endpoint) throws Exception {
        return Stacks.reached(stack, endpoint);
    }

    private HttpResponse<String> write(String method, String url) {
        return Http.send(Http.request(stack.frontUri(), url, "Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString("{\"item\":1}")).build());
    }

    /** GETs url until it is stored: a HIT. */
    private void stored(String url) {
        Http.get(stack.frontUri(), url);
        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");
    }

    /** Every unsafe method, extension methods that njs cannot give a subrequest included (WebDAV's REPORT, an API's own). */
    @ParameterizedTest(name = "{0}: the next GET reaches the origin")
    @ValueSource(strings = {"PUT", "POST", "DELETE", "PATCH", "REPORT", "FROBNICATE"})
    void successfulWriteInvalidatesTheStoredGet(String method) throws Exception {
        String url = fresh("board");
        stored(url);

        assertThat(write(method, url).statusCode()).isEqualTo(204);
        HttpResponse<String> after = Http.get(stack.frontUri(), url);

        assertThat(cacheStatus(after)).isEqualTo("MISS");
        // The first GET, the write and the GET after it.
        assertThat(reached("board")).isEqualTo(3);
    }

    @Test
    void safeMethodInvalidatesNothing() throws Exception {
        String url = fresh("board");
        stored(url);

        assertThat(write("OPTIONS", url).statusCode()).isEqualTo(200);

        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");
    }

    @Test
    void successfulWriteInvalidatesItsSameOriginLocation() throws Exception {
        stored("/board?item=posted");

        HttpResponse<String> created = write("POST", fresh("post"));

        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().allValues("Location")).containsExactly("/board?item=posted");
        assertThat(cacheStatus(Http.get(stack.frontUri(), "/board?item=posted"))).isEqualTo("MISS");
    }

    @Test
    void writeRefusedByTheOriginInvalidatesNothing() throws Exception {
        // hare takes no writes: 405.
        String url = fresh("hare");
        stored(url);

        assertThat(write("PUT", url).statusCode()).isEqualTo(405);

        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");
        assertThat(reached("hare")).isEqualTo(1);
    }

    @Test
    void writeThatFailsAtTheOriginInvalidatesNothing() throws Exception {
        String url = fresh("board");
        stored(url);
        stack.origin().fail("board", 500);

        // The origin's own status: the back end drops the connection on an origin failure only for
        // a request whose stale entry the edge may serve (snippets/back/origin-errors.conf).
        assertThat(write("PUT", url).statusCode()).isEqualTo(500);

        assertThat(cacheStatus(Http.get(stack.frontUri(), url))).isEqualTo("HIT");
        assertThat(reached("board")).isEqualTo(2);
    }
}
