package dev.ratecache.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ratecache.testkit.TestDirs;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import redis.clients.jedis.Jedis;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The suite's own redis-server: a real one, on a free port, in its own folder, stopped by its PID. */
@StackTest
class RedisServerTest {

    @BeforeAll
    static void redisIsInstalled() {
        Required.that(RedisServer.notInstalled().isEmpty(), RedisServer.notInstalled().orElse(""));
    }

    /** redis-server processes this JVM started that are still running. */
    private static List<ProcessHandle> liveRedisChildren() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("redis-server")).orElse(false)).toList();
    }

    @Test
    void startsOnAFreePortCountsLookupsAndStopsByPidLeavingNothingOnDisk() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "clean");
        long pid;
        int port;
        try (RedisServer redis = RedisServer.start(dir, 0)) {
            pid = redis.pid();
            port = redis.port();
            assertThat(redis.answersPing()).isTrue();
            assertThat(Ports.accepting(redis.port())).isTrue();
            try (Jedis keys = redis.client()) {
                assertThat(keys.set("item", "1")).isEqualTo("OK");
                assertThat(keys.get("item")).isEqualTo("1");
                assertThat(keys.get("absent")).isNull();
            }
            assertThat(redis.stats()).isEqualTo(new RedisServer.Stats(1, 1));
            // No persistence: the suite's own settings, not the package's /etc/redis/redis.conf.
            assertThat(redis.info("persistence")).containsEntry("aof_enabled", "0");
            assertThat(redis.info("server")).containsEntry("tcp_port", String.valueOf(redis.port()))
                    .containsEntry("process_id", String.valueOf(redis.pid()));

            redis.reset();

            assertThat(redis.stats()).isEqualTo(new RedisServer.Stats(0, 0));
            try (Jedis keys = redis.client()) {
                assertThat(keys.get("item")).as("FLUSHALL emptied it").isNull();
            }
            assertThat(redis.cpuSeconds()).isPresent();
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("stopped by its PID").isFalse();
        assertThat(liveRedisChildren()).isEmpty();
        assertThat(Ports.accepting(port)).as("its port is closed").isFalse();
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
    void aPausedServerAnswersNothingUntilResumedAndStillStopsByPid() throws Exception {
        RedisServer redis = RedisServer.start(TestDirs.fresh(getClass(), "paused"), 0);
        try {
            redis.pause();
            assertThat(redis.answersPing()).as("frozen: the call times out").isFalse();
            redis.resume();
            assertThat(redis.answersPing()).isTrue();
            redis.pause();
        } finally {
            redis.close();
        }
        assertThat(redis.isRunning()).as("stopped though paused").isFalse();
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
