package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.Ports;
import dev.ratecache.testkit.StackTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** --load-hosts that cannot work is refused in one line each, before anything starts. */
@StackTest
class LoadHostsInputTest {
    /** Under target/: a JUnit temp dir (700) would be refused first as root (WorkerAccess). */
    private Path dir;

    @org.junit.jupiter.api.BeforeEach
    void dir(org.junit.jupiter.api.TestInfo test) {
        dir = dev.ratecache.testkit.TestDirs.fresh(test);
    }

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = RunTestsCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void anUnreachableLoadHostIsNamedWithItsPort() {
        int closed = Ports.free();

        assertThat(run("--load-hosts", "127.0.0.1:" + closed, "--listen", "127.0.0.2", "--results", dir.toString()))
                .isEqualTo(2);

        assertThat(err.toString()).contains("load host 127.0.0.1 port " + closed + " is unreachable");
        assertThat(out.toString()).doesNotContain("run folder");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void loadHostsNeedAnAddressTheyCanReachThisMachineOn() {
        assertThat(run("--load-hosts", "10.231.9.9", "--results", dir.toString())).isEqualTo(2);

        assertThat(err.toString()).contains("--load-hosts: the load hosts cannot reach 127.0.0.1 here: give --listen");
        assertThat(dir).isEmptyDirectory();
    }
}
