package dev.ratecache.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ratecache.testkit.Descendants;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The suite's own PostgreSQL: Debian's binaries, a cluster in the run folder, in the foreground
 * on a free port, stopped by its PID with its backends. One initdb for the whole class: it is
 * the slow part, and a reused data folder is a case of its own.
 */
@StackTest
class PostgresServerTest {

    @BeforeAll
    static void postgresIsInstalled() {
        Required.that(PostgresServer.notInstalled().isEmpty(), PostgresServer.notInstalled().orElse(""));
    }


    @Test
    void startsOnAFreePortReusesItsDataFolderAndStopsByPidWithItsBackends() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "cluster");
        long pid;
        int port;
        try (PostgresServer pg = PostgresServer.start(dir, 0)) {
            pid = pg.pid();
            port = pg.port();
            assertThat(pg.acceptsConnections()).isTrue();
            assertThat(Ports.accepting(port)).isTrue();
            assertThat(pg.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:" + port + "/postgres");
            // The PID we hold is the postmaster's itself (setpriv execs), with its helpers forked under it.
            assertThat(ProcessHandle.of(pid).orElseThrow().info().command().orElse("")).endsWith("/postgres");
            assertThat(ProcessHandle.of(pid).orElseThrow().children().count()).isPositive();
            assertThat(pg.cpuSeconds()).isPresent();
            if (PostgresServer.isRoot()) {
                assertThat(ProcessHandle.of(pid).orElseThrow().info().user().orElse("")).isEqualTo("nobody");
            }
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("stopped by its PID").isFalse();
        assertThat(Descendants.running("postgres")).as("no backend outlives it").isEmpty();
        assertThat(Ports.accepting(port)).isFalse();
        assertThat(dir.resolve("data/PG_VERSION")).isRegularFile();
        String initialized = Files.readString(dir.resolve("postgres.log"));

        // The folder an earlier start left: no second initdb, and the cluster starts as it was.
        try (PostgresServer again = PostgresServer.start(dir, 0)) {
            assertThat(again.acceptsConnections()).isTrue();
            assertThat(Files.readString(dir.resolve("postgres.log"))).startsWith(initialized);
            assertThat(countOf(Files.readString(dir.resolve("postgres.log")), "running bootstrap script")).isEqualTo(
                    countOf(initialized, "running bootstrap script"));

            // A start that fails (the port taken) is one line, and leaves nothing running.
            try (ServerSocket taken = new ServerSocket(Ports.free(), 1, InetAddress.getByName(Ports.LOOPBACK))) {
                Path other = TestDirs.fresh(getClass(), "taken");
                assertThatThrownBy(() -> PostgresServer.start(other, taken.getLocalPort()))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("postgres exited during start-up on port " + taken.getLocalPort())
                        .hasMessageNotContaining("\n");
            }

            // A crash: the postmaster and its backends gone at once, seen as gone.
            again.kill();
            await().atMost(Duration.ofSeconds(10)).until(() -> !again.isRunning());
            assertThat(again.acceptsConnections()).isFalse();
            assertThat(again.cpuSeconds()).isEmpty();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> Descendants.running("postgres").isEmpty());
    }

    private static int countOf(String text, String word) {
        return text.split(word, -1).length - 1;
    }
}
