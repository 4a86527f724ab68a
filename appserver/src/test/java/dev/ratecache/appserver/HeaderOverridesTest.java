package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.content-version=v2",
    "origin.endpoints.hare.cache-control=private, max-age=60",
    "origin.endpoints.tortoise.delay=10ms",
    "origin.endpoints.tortoise.cache-control=none",
    "origin.endpoints.snail.delay=10ms",
    "origin.endpoints.snail.set-cookie=session=abc; Path=/",
    "origin.endpoints.custom-1.delay=10ms",
    "origin.endpoints.custom-1.max-age=5s"
})
@StackTest
class HeaderOverridesTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    OriginHttp api;

    @BeforeEach
    void connect() {
        api = new OriginHttp(port);
    }

    @Test
    void cacheControlSettingReplacesTheWholeHeader() {
        assertThat(api.get("/hare").headers().allValues("Cache-Control")).containsExactly("private, max-age=60");
    }

    @Test
    void cacheControlNoneSendsNoCacheControl() {
        HttpResponse<String> response = api.get("/tortoise");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Cache-Control")).isEmpty();
        assertThat(response.headers().firstValue("ETag")).hasValue("\"tortoise-v2\"");
    }

    @Test
    void setCookieIsSentOnlyWhereConfigured() {
        assertThat(api.get("/snail").headers().allValues("Set-Cookie")).containsExactly("session=abc; Path=/");
        assertThat(api.get("/hare").headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    void contentVersionGoesIntoEtagAndBody() {
        HttpResponse<String> response = api.get("/hare");

        assertThat(response.headers().firstValue("ETag")).hasValue("\"hare-v2\"");
        assertThat(OriginHttp.json(response.body()).get("version").asText()).isEqualTo("v2");
    }

    @Test
    void addedEndpointIsServedAndAccounted() {
        HttpResponse<String> response = api.get("/custom-1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().allValues("Cache-Control"))
                .containsExactly("public, max-age=5, stale-while-revalidate=60, stale-if-error=600");
        assertThat(response.headers().firstValue("ETag")).hasValue("\"custom-1-v2\"");
        assertThat(new OriginHttp(managementPort).getJson("/actuator/origin").at("/endpoints/custom-1/requests").asLong())
                .isGreaterThanOrEqualTo(1);
    }
}
