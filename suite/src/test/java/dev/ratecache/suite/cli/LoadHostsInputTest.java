package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * --load-hosts given in a form that cannot work is refused in one line each, before any host is
 * contacted; the hosts themselves are checked in a step of their own (MachineChecksTest).
 */
class LoadHostsInputTest {
    /** Under target/: a JUnit temp dir (700) would be refused first as root (WorkerAccess). */
    private Path dir;

    @org.junit.jupiter.api.BeforeEach
    void dir(org.junit.jupiter.api.TestInfo test) {
        dir = dev.ratecache.testkit.TestDirs.fresh(test);
    }

    private final CommandRun cli = new CommandRun();

    @Test
    void loadHostsNeedAnAddressTheyCanReachThisMachineOn() {
        assertThat(cli.run("--load-hosts", "10.231.9.9", "--results", dir.toString())).isEqualTo(2);

        assertThat(cli.err()).contains("--load-hosts: the load hosts cannot reach 127.0.0.1 here: give --listen");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aLoadHostThatIsNoHostIsRefusedShowingTheForm() {
        assertThat(cli.run("--load-hosts", "a host:1099", "--listen", "127.0.0.2", "--results", dir.toString()))
                .isEqualTo(2);

        assertThat(cli.err()).contains("--load-hosts takes HOST[:PORT],... (got 'a host:1099')");
    }

    @Test
    void theHostsAreNotContactedWhileTheInputIsBad() {
        assertThat(cli.run("--load-hosts", "192.0.2.1", "--listen", "127.0.0.2", "--repeat", "0", "--results",
                dir.toString())).isEqualTo(2);

        assertThat(cli.err()).contains("--repeat must be a whole number from 1 to 100 (got 0)")
                .doesNotContain("load host");
        assertThat(cli.out()).doesNotContain("checking load hosts");
    }
}
