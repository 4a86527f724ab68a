package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * --app-cache, --matrix caches and the hotset's shares: bad input gets one line before anything
 * starts. Whether redis-server is installed is the machine's business (MachineChecksTest).
 */
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

    @Test
    void withoutTheAppCacheNoRedisServerIsNeeded() throws Exception {
        // The same missing binary, but a run that doesn't use Redis: its validation says nothing of Redis.
        assertThat(run("--matrix", "caches", "--app-cache", "off", "--profile", "fast")).isEqualTo(2);
        assertThat(err.toString()).doesNotContain("redis-server").contains("'fast' is not a profile");
    }
}
