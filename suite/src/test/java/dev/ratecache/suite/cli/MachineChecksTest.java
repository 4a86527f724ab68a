package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Once the input is good, what the machine must give the run is checked before anything starts,
 * one line each: the ports free, redis-server there, the load hosts reachable (a step of its own).
 * Stack tests: they need a port in use, a process of their own or a host that does not answer.
 */
@StackTest
class MachineChecksTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void aPortInUseIsReportedNamingTheFlagBeforeAnythingStarts() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(Ports.LOOPBACK))) {
            int port = taken.getLocalPort();
            assertThat(cli.run("--front-port", String.valueOf(port))).isEqualTo(2);
            assertThat(cli.err()).contains("port " + port + " is already in use", "--front-port");
            assertThat(cli.out()).doesNotContain("run folder");
        }
    }

    @Test
    void theMachineIsNotCheckedWhileTheInputIsBad() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(Ports.LOOPBACK))) {
            int port = taken.getLocalPort();
            assertThat(cli.run("--front-port", String.valueOf(port), "--repeat", "0")).isEqualTo(2);
            // The one thing to fix first: a port's line would only follow from the same mistake or none.
            assertThat(cli.err()).contains("--repeat must be a whole number from 1 to 100 (got 0)")
                    .doesNotContain("already in use");
        }
    }

    /**
     * No redis-server: the command line is run as its own JVM with REDIS_SERVER_BIN naming a binary
     * that is not there (an environment variable can't be changed inside this JVM).
     */
    @Test
    void aMissingRedisServerIsRefusedInOneLineSayingHowToInstallIt() throws Exception {
        List<String> command = new ArrayList<>(List.of(ManagedProcess.javaBinary(), "-cp",
                System.getProperty("java.class.path"), RunTestsCommand.class.getName(),
                "--matrix", "caches", "--only", "hotset/app-cache", "--profile", "quick"));
        ManagedProcess.Outcome run = ManagedProcess.run(command, null,
                Map.of(RedisServer.BINARY_VARIABLE, "/nonexistent/redis-server"), Duration.ofSeconds(60));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr().lines().findFirst().orElse("")).isEqualTo("run-tests.sh: the app cache needs redis-server,"
                + " and /nonexistent/redis-server is not there: run ./run-tests.sh as root to install it,"
                + " or: sudo apt-get install -y redis-server (or fix REDIS_SERVER_BIN)");
        assertThat(run.stdout()).doesNotContain("run folder");
    }

    @Test
    void anUnreachableLoadHostIsNamedWithItsPortInTheLoadHostsStep(TestInfo test) {
        // Under target/: a JUnit temp dir (700) would be refused first as root (WorkerAccess).
        Path dir = TestDirs.fresh(test);
        int closed = Ports.free();

        assertThat(cli.run("--load-hosts", "127.0.0.1:" + closed, "--listen", "127.0.0.2", "--results", dir.toString()))
                .isEqualTo(2);

        assertThat(cli.out()).startsWith("checking load hosts 127.0.0.1:" + closed + " ...")
                .doesNotContain("run folder");
        assertThat(cli.err()).contains("load host 127.0.0.1 port " + closed + " is unreachable");
        assertThat(dir).isEmptyDirectory();
    }
}
