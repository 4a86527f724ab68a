package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.testkit.StackTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** --app-cache, --matrix caches and the hotset's shares: bad input gets one line before anything starts. */
@StackTest
class AppCacheInputTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        picocli.CommandLine cli = RunTestsCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void unknownAppCacheIsRefusedInOneLine() {
        assertThat(run("--app-cache", "memcached")).isEqualTo(2);
        assertThat(err.toString()).startsWith("run-tests.sh: Invalid value for option '--app-cache': 'memcached' is not"
                + " an app cache mode: use redis or off\n");
        assertThat(out.toString()).doesNotContain("run folder");
    }

    @Test
    void writeShareAbove100IsRefusedInOneLine() {
        assertThat(run("--matrix", "caches", "-Jwrite_share=150")).isEqualTo(2);
        assertThat(err.toString()).contains("-Jwrite_share=150: write_share is a share in percent, a whole number from 0 to 100");
        assertThat(out.toString()).doesNotContain("run folder");
    }

    @Test
    void negativeWriteShareIsRefused() {
        assertThat(run("--matrix", "caches", "-Jwrite_share=-5")).isEqualTo(2);
        assertThat(err.toString()).contains("-Jwrite_share=-5: write_share must be a whole number >= 0");
    }

    @Test
    void cachesMatrixListsItsCellsForOnly() {
        assertThat(run("--matrix", "caches", "--only", "hotset/warp")).isEqualTo(2);
        assertThat(err.toString()).contains("valid cells: hotset/no-cache, hotset/edge, hotset/app-cache, hotset/both,"
                + " hotset/edge+client");
    }

    @Test
    void appCacheWithSomeoneElsesOriginIsRefused() {
        assertThat(run("--app-cache", "redis", "--origin", "http://127.0.0.1:9")).isEqualTo(2);
        assertThat(err.toString()).contains("--app-cache redis is the suite's own origin's cache: drop --origin");
    }

    /**
     * No redis-server: the command line is run as its own JVM with REDIS_SERVER_BIN naming a binary
     * that is not there (an environment variable can't be changed inside this JVM).
     */
    @Test
    void missingRedisServerIsRefusedInOneLineSayingHowToInstallIt() throws Exception {
        List<String> command = new ArrayList<>(List.of(ManagedProcess.javaBinary(), "-cp",
                System.getProperty("java.class.path"), RunTestsCommand.class.getName(),
                "--matrix", "caches", "--only", "hotset/app-cache", "--profile", "quick"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put(RedisServer.BINARY_VARIABLE, "/nonexistent/redis-server");
        Process p = builder.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(stderr.lines().findFirst().orElse("")).isEqualTo("run-tests.sh: the app cache needs redis-server,"
                + " and /nonexistent/redis-server is not there: run ./run-tests.sh as root to install it,"
                + " or: sudo apt-get install -y redis-server (or fix REDIS_SERVER_BIN)");
        assertThat(stdout).doesNotContain("run folder");
    }

    @Test
    void withoutTheAppCacheNoRedisServerIsNeeded() throws Exception {
        // The same missing binary, but a run that doesn't use Redis: its validation says nothing of Redis.
        assertThat(run("--matrix", "caches", "--app-cache", "off", "--profile", "fast")).isEqualTo(2);
        assertThat(err.toString()).doesNotContain("redis-server").contains("'fast' is not a profile");
    }
}
