package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.testkit.StackTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With {@code origin.app-cache=off} (the default) the origin never connects to Redis: a socket
 * listening where Redis would be sees no connection through reads, writes and a health check.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.items.count=100"
})
@StackTest
class AppCacheOffTest extends RunningOrigin {

    static ServerSocket whereRedisWouldBe;

    @DynamicPropertySource
    static void listenWhereRedisWouldBe(DynamicPropertyRegistry registry) {
        try {
            whereRedisWouldBe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        registry.add("spring.data.redis.port", whereRedisWouldBe::getLocalPort);
    }

    @AfterAll
    static void close() throws IOException {
        whereRedisWouldBe.close();
    }

    @Test
    void noRedisConnectionIsAttempted() throws IOException {
        api.get("/items/1");
        api.get("/items/1");
        api.putJson("/items/1", "{\"name\":\"x\"}");
        api.delete("/items/2");
        assertThat(management.get("/actuator/health").statusCode()).isEqualTo(200);

        // A connection, even one never accepted, waits in the backlog; accept() would return it.
        whereRedisWouldBe.setSoTimeout(300);
        assertThatThrownBy(whereRedisWouldBe::accept).isInstanceOf(SocketTimeoutException.class);
        assertThat(management.getJson("/actuator/origin").at("/items/database/reads").asLong()).isEqualTo(2);
    }
}
