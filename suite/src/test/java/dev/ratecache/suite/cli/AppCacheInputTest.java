package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * --app-cache, --matrix caches and the hotset's shares: bad input gets one line before anything
 * starts. Whether redis-server is installed is the machine's business (MachineChecksTest).
 */
class AppCacheInputTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void unknownAppCacheIsRefusedInOneLine() {
        assertThat(cli.run("--app-cache", "memcached")).isEqualTo(2);
        assertThat(cli.err()).startsWith("run-tests.sh: Invalid value for option '--app-cache': 'memcached' is not"
                + " an app cache mode: use redis or off\n");
        assertThat(cli.out()).doesNotContain("run folder");
    }

    @Test
    void writeShareAbove100IsRefusedInOneLine() {
        assertThat(cli.run("--matrix", "caches", "-Jwrite_share=150")).isEqualTo(2);
        assertThat(cli.err()).contains("-Jwrite_share=150: write_share is a share in percent, a whole number from 0 to 100");
        assertThat(cli.out()).doesNotContain("run folder");
    }

    @Test
    void negativeWriteShareIsRefused() {
        assertThat(cli.run("--matrix", "caches", "-Jwrite_share=-5")).isEqualTo(2);
        assertThat(cli.err()).contains("-Jwrite_share=-5: write_share must be a whole number >= 0");
    }

    @Test
    void cachesMatrixListsItsCellsForOnly() {
        assertThat(cli.run("--matrix", "caches", "--only", "hotset/warp")).isEqualTo(2);
        assertThat(cli.err()).contains("valid cells: hotset/no-cache, hotset/edge, hotset/app-cache, hotset/both,"
                + " hotset/edge+client");
    }

    @Test
    void appCacheWithSomeoneElsesOriginIsRefused() {
        assertThat(cli.run("--app-cache", "redis", "--origin", "http://127.0.0.1:9")).isEqualTo(2);
        assertThat(cli.err()).contains("--app-cache redis is the suite's own origin's cache: drop --origin");
    }

    @Test
    void withoutTheAppCacheNoRedisServerIsNeeded() throws Exception {
        // The same missing binary, but a run that doesn't use Redis: its validation says nothing of Redis.
        assertThat(cli.run("--matrix", "caches", "--app-cache", "off", "--profile", "fast")).isEqualTo(2);
        assertThat(cli.err()).doesNotContain("redis-server").contains("'fast' is not a profile");
    }
}
