package dev.ratecache.suite.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole path, origin to front end, with the reference setup's defaults. */
@StackTest
@ExtendWith(SharedOrigin.class)
class WalkingSkeletonTest {
    private Stack stack;

    @AfterEach
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void secondGetInsideFreshnessIsAnEdgeHitThatNeverReachesTheOrigin(OriginServer origin) throws Exception {
        stack = Stacks.around(origin, TestDirs.fresh(getClass(), "hit"), new StackSwitches());

        HttpResponse<String> first = Http.get(stack.frontUri(), "/hare");
        HttpResponse<String> second = Http.get(stack.frontUri(), "/hare");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("X-Cache-Status")).hasValue("MISS");
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.headers().firstValue("X-Cache-Status")).hasValue("HIT");
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(stack.origin().counters().requests("hare")).isEqualTo(1);
    }

    @Test
    void whenTheFrontEndCannotStartNothingIsLeftRunning() throws Exception {
        StackPorts ports = StackPorts.free();
        try (ServerSocket taken = new ServerSocket(ports.front(), 1, InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> Stack.start(new StackSwitches(), ports, TestDirs.fresh(getClass(), "fails")))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(String.valueOf(ports.front()));
        }
        assertThat(Ports.accepting(ports.back())).as("back end stopped").isFalse();
        assertThat(Ports.accepting(ports.origin())).as("origin stopped").isFalse();
        assertThat(Ports.accepting(ports.management())).as("origin management stopped").isFalse();
    }

    @Test
    void burstBeyondTheBackEndLimitIsRejectedWhileTheOriginSeesNoMoreThanRatePlusBurst(OriginServer origin)
            throws Exception {
        // Tiers of its own: the burst leaves the back end's bucket full for seconds after it.
        stack = Stacks.around(origin, TestDirs.fresh(getClass(), "burst"), new StackSwitches());
        // A distinct query string each: the edge cache cannot answer any of them.
        List<String> paths = IntStream.range(0, 150).mapToObj(i -> "/hare?n=" + i).toList();

        Instant start = Instant.now();
        List<HttpResponse<String>> responses = Http.burst(stack.frontUri(), paths);
        double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;

        List<HttpResponse<String>> rejected = responses.stream().filter(r -> r.statusCode() == 429).toList();
        long served = responses.stream().filter(r -> r.statusCode() == 200).count();
        assertThat(rejected).isNotEmpty();
        assertThat(rejected).allSatisfy(r -> assertThat(r.headers().firstValue("Retry-After")).hasValue("1"));
        assertThat(served + rejected.size()).isEqualTo(paths.size());
        long reached = stack.origin().counters().requests("hare");
        assertThat(reached).isEqualTo(served);
        // 10 r/s over the whole burst plus the 50 queued and the one admitted at once.
        assertThat(reached).isLessThanOrEqualTo((long) Math.ceil(10 * seconds) + 51);
    }
}
