package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/** Unsafe methods: refused unless an endpoint accepts writes, then counted like reads. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.endpoints.board.writes=true",
    "origin.endpoints.created.writes=true",
    "origin.endpoints.created.write-location=/board?id=7"
})
@StackTest
class WritesTest extends RunningOrigin {

    private long requests(String endpoint) {
        return management.getJson("/actuator/origin").at("/endpoints/" + endpoint + "/requests").asLong();
    }

    @Test
    void writeToAnEndpointThatAcceptsWritesIsNoContentAndCounted() {
        assertThat(api.put("/board", "{\"x\":1}").statusCode()).isEqualTo(204);
        assertThat(api.postJson("/board", "{\"x\":2}").statusCode()).isEqualTo(204);
        assertThat(api.delete("/board").statusCode()).isEqualTo(204);

        assertThat(requests("board")).isEqualTo(3);
    }

    @Test
    void everyUnsafeMethodIsAWriteExtensionMethodsToo() {
        assertThat(api.method("PATCH", "/board").statusCode()).isEqualTo(204);
        assertThat(api.method("REPORT", "/board").statusCode()).isEqualTo(204);
        assertThat(api.method("FROBNICATE", "/board").statusCode()).isEqualTo(204);

        assertThat(requests("board")).isEqualTo(3);
    }

    @Test
    void optionsIsNoWrite() {
        HttpResponse<String> response = api.method("OPTIONS", "/board");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(requests("board")).isZero();
    }

    @Test
    void writeWithAConfiguredLocationIsCreatedThere() {
        HttpResponse<String> response = api.put("/created", "{}");

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().allValues("Location")).containsExactly("/board?id=7");
    }

    @Test
    void writeToAnEndpointThatDoesNotAcceptWritesIsRefusedUncounted() {
        HttpResponse<String> response = api.put("/hare", "{}");

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().allValues("Allow")).containsExactly("GET,HEAD");
        assertThat(requests("hare")).isZero();
    }

    @Test
    void injectedFaultAnswersWritesToo() {
        management.postJson("/actuator/origin", "{\"endpoint\":\"board\",\"status\":500}");

        assertThat(api.put("/board", "{}").statusCode()).isEqualTo(500);
    }

    @Test
    void writeToAnUnknownEndpointIsNotFound() {
        assertThat(api.put("/nowhere", "{}").statusCode()).isEqualTo(404);
    }
}
