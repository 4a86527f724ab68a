package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import org.junit.jupiter.api.Test;

/**
 * A default is the suite's choice, not the user's: with --edge haproxy or varnish, whose limiters
 * only reject, the defaults' queue becomes nodelay, in one line; a mode the user gave is kept (and
 * refused where the product cannot do it, BadInputTest). A stack test: a dry run checks the ports.
 */
@StackTest
class EdgeDefaultsTest {
    @Test
    void haproxyAloneRunsWithItsNearestModeAndSaysSo() {
        CommandRun cli = new CommandRun();

        assertThat(cli.run("--edge", "haproxy", "--dry-run", "--profile", "quick")).as(cli.err()).isZero();
        assertThat(cli.out()).contains("note: HAProxy only rejects past its limit and never queues: --front-mode and"
                + " --back-mode default to nodelay with --edge haproxy (give them to choose)")
                .contains("front limit 100 r/s burst 200 nodelay, back limit 10 r/s burst 50 nodelay");
    }

    @Test
    void aModeTheUserGaveIsKeptAndOnlyTheOtherFollowsTheProduct() {
        CommandRun cli = new CommandRun();

        assertThat(cli.run("up", "--edge", "varnish", "--back-mode", "nodelay", "--dry-run")).as(cli.err()).isZero();
        assertThat(cli.out()).contains("--front-mode defaults to nodelay with --edge varnish (give it to choose)");
    }

    @Test
    void traefikAloneRunsItsLimitsWithoutTheCacheItLacksAndSaysSo() {
        CommandRun cli = new CommandRun();

        assertThat(cli.run("--edge", "traefik", "--dry-run", "--profile", "quick")).as(cli.err()).isZero();
        assertThat(cli.out()).contains("note: Traefik has no HTTP cache: --cache defaults to off with --edge traefik,"
                + " and cells with the edge cache on are left out (give --no-cache to choose)")
                .contains("stress/no-caching").doesNotContain("stress/server-cache");
    }

    @Test
    void aCacheTheUserAskedOfTraefikIsRefused() {
        CommandRun cli = new CommandRun();

        assertThat(cli.run("--edge", "traefik", "--cache", "--dry-run", "--profile", "quick")).isEqualTo(2);
        assertThat(cli.err()).contains("Traefik Proxy has no HTTP cache");
    }

    @Test
    void nginxKeepsTheDefaultsAndSaysNothing() {
        CommandRun cli = new CommandRun();

        assertThat(cli.run("--dry-run", "--profile", "quick")).as(cli.err()).isZero();
        assertThat(cli.out()).doesNotContain("note:").contains("front limit 100 r/s burst 200 queue");
    }
}
