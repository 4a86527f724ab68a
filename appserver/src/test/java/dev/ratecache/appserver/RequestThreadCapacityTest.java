package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The default 10 request threads are a real limit: more concurrent requests queue behind them. */
@OriginTest
class RequestThreadCapacityTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void fortyConcurrentHareRequestsQueueBehindTenRequestThreads() {
        OriginHttp api = new OriginHttp(port);
        OriginHttp management = new OriginHttp(managementPort);
        management.delete("/actuator/origin");

        Timed<List<HttpResponse<String>>> timed = Timed.of(() -> IntStream.range(0, 40)
                .mapToObj(i -> api.getAsync("/hare?n=" + i)).toList()
                .stream().map(CompletableFuture::join).toList());

        assertThat(timed.result()).allSatisfy(response -> assertThat(response.statusCode()).isEqualTo(200));
        // Four waves of ten at 100 ms each; 300 ms leaves room for the waves overlapping a little.
        assertThat(timed.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(management.getJson("/actuator/origin").at("/endpoints/hare/peakInFlight").asInt()).isEqualTo(10);
    }
}
