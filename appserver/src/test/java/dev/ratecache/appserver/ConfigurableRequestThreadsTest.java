package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "server.tomcat.threads.max=2"
})
@StackTest
@LongTest
class ConfigurableRequestThreadsTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void requestThreadCountIsConfigurable() {
        OriginHttp api = new OriginHttp(port);

        Duration elapsed = Timed.of(() -> IntStream.range(0, 6)
                .mapToObj(i -> api.getAsync("/hare?n=" + i)).toList()
                .stream().map(CompletableFuture::join).toList()).elapsed();

        // Three waves of two at 100 ms each.
        assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(250));
        assertThat(new OriginHttp(managementPort).getJson("/actuator/origin").at("/endpoints/hare/peakInFlight").asInt())
                .isEqualTo(2);
    }
}
