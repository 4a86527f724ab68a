package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tests' own redis-server starts on a free port, answers, and is gone after a stop or a failed start. */
class RedisServerTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void redisIsInstalled() {
        assumeTrue(RedisServer.binary().isPresent(), RedisServer.notInstalled());
    }

    @Test
    void startsOnAFreePortWithoutPersistenceAndStopsByPid() throws IOException {
        RedisServer redis = RedisServer.start(dir);
        try {
            assertThat(redis.answersPing()).isTrue();
            assertThat(redis.info("persistence")).containsEntry("aof_enabled", "0");
            assertThat(redis.info("server")).containsEntry("tcp_port", String.valueOf(redis.port()))
                    .containsEntry("process_id", String.valueOf(redis.pid()));
        }
        finally {
            redis.close();
        }

        assertThat(redis.isAlive()).isFalse();
        assertThat(ProcessHandle.of(redis.pid()).filter(ProcessHandle::isAlive)).isEmpty();
        assertThat(redis.answersPing()).isFalse();
        assertThat(refusesConnections(redis.port())).isTrue();
    }

    @Test
    void aStartThatFailsIsReportedWithWhatRedisSaidAndLeavesNothingRunning() throws IOException {
        Set<Long> before = redisChildren();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> RedisServer.start(dir, taken.getLocalPort()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("port " + taken.getLocalPort())
                    .hasMessageContaining("Address already in use");
        }
        assertThat(redisChildren()).isEqualTo(before);
    }

    private static Set<Long> redisChildren() {
        return ProcessHandle.current().descendants()
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().command().map(command -> command.endsWith("redis-server")).orElse(false))
                .map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private static boolean refusesConnections(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return false;
        }
        catch (IOException refused) {
            return true;
        }
    }
}
