package dev.ratecache.suite.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.TestDirs;
import dev.ratecache.suite.net.Ports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The suite's own redis-server: a real one, on a free port, in its own folder, stopped by its PID. */
class RedisServerTest {

    /** redis-server processes this JVM started that are still running. */
    private static List<ProcessHandle> liveRedisChildren() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("redis-server")).orElse(false)).toList();
    }

    @Test
    void startsOnAFreePortCountsLookupsAndStopsByPidLeavingNothingOnDisk() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "clean");
        long pid;
        try (RedisServer redis = RedisServer.start(dir, 0)) {
            pid = redis.pid();
            assertThat(redis.answersPing()).isTrue();
            assertThat(Ports.accepting(redis.port())).isTrue();
            assertThat(redis.call("SET item 1")).isEqualTo("+OK");
            assertThat(redis.call("GET item")).isEqualTo("1");
            assertThat(redis.call("GET absent")).isNull();
            assertThat(redis.stats()).isEqualTo(new RedisServer.Stats(1, 1));
            // No persistence: the suite's own settings, not the package's /etc/redis/redis.conf.
            assertThat(redis.info("persistence")).containsEntry("aof_enabled", "0");
            assertThat(redis.call("CONFIG GET save")).isNotNull();

            redis.reset();

            assertThat(redis.stats()).isEqualTo(new RedisServer.Stats(0, 0));
            assertThat(redis.call("GET item")).as("FLUSHALL emptied it").isNull();
            assertThat(redis.cpuSeconds()).isPresent();
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("stopped by its PID").isFalse();
        assertThat(liveRedisChildren()).isEmpty();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("redis.log");
        }
    }

    @Test
    void aStartThatFailsIsReportedInOneLineAndLeavesNothingRunning() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "failed");
        try (ServerSocket taken = new ServerSocket(Ports.free(), 1, InetAddress.getByName(Ports.LOOPBACK))) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> RedisServer.start(dir, port))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("redis-server exited during start-up on port " + port)
                    .hasMessageNotContaining("\n");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> liveRedisChildren().isEmpty());
    }

    @Test
    void aServerKilledFromOutsideIsSeenAsGone() throws Exception {
        try (RedisServer redis = RedisServer.start(TestDirs.fresh(getClass(), "killed"), 0)) {
            ProcessHandle.of(redis.pid()).orElseThrow().destroyForcibly();
            await().atMost(Duration.ofSeconds(10)).until(() -> !redis.isRunning());
            assertThat(redis.answersPing()).isFalse();
            assertThatThrownBy(redis::stats).isInstanceOf(IOException.class);
        }
    }
}
