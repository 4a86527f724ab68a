package dev.ratecache.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built command line (suite-all.jar, what run-tests.sh execs) refusing what it cannot do,
 * in one line and before anything starts.
 */
@StackTest
class RunTestsJarTest {
    private static final Path JAR = Repo.root().resolve("suite/target/suite-all.jar");
    private static final int NOBODY = 65534;

    record Exit(int code, String stdout, List<String> stderr) {}

    private static Exit run(Path workDir, List<String> prefix, String... args) throws Exception {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(ManagedProcess.javaBinary(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        ManagedProcess.Outcome ran = ManagedProcess.run(command, workDir, Duration.ofSeconds(60));
        return new Exit(ran.exitCode(), ran.stdout(), ran.stderr().lines().toList());
    }

    @Test
    void privilegedPortIsRefusedForAUserWhoMayNotBindItBeforeAnythingStarts() throws Exception {
        assumeThat(Ports.sysctl("net.ipv4.ip_unprivileged_port_start").orElse(1024))
                .as("this kernel lets every user bind port 80").isGreaterThan(80);
        // As root, the check runs as nobody (setpriv, util-linux); as anyone else, as that user.
        List<String> asUnprivileged = List.of();
        if (isRoot()) {
            assumeThat(readableByEveryone(JAR)).as(JAR + " readable by nobody").isTrue();
            asUnprivileged = List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups");
        }
        Path results = TestDirs.fresh(RunTestsJarTest.class, "results");
        Files.setPosixFilePermissions(results, PosixFilePermissions.fromString("rwxrwxrwx"));

        Exit exit = run(Repo.root(), asUnprivileged, "--front-port", "80", "--results", results.toString());

        assertThat(exit.code()).as(String.join("\n", exit.stderr())).isEqualTo(2);
        assertThat(exit.stderr()).first().asString()
                .isEqualTo("run-tests.sh: port 80 needs root (ports below 1024 are privileged):"
                        + " run as root or choose another with --front-port (e.g. --front-port 8000)");
        try (var left = Files.list(results)) {
            assertThat(left).as("no run folder").isEmpty();
        }
    }

    @Test
    void runFromOutsideTheCheckoutSaysWhereToRunItInOneLine(@TempDir Path elsewhere) throws Exception {
        Exit exit = run(elsewhere, List.of(), "--only", "stress/no-caching");

        assertThat(exit.code()).isEqualTo(2);
        assertThat(exit.stderr()).containsExactly("run-tests.sh: cannot find the suite's checkout (the folder with"
                + " run-tests.sh): run from inside it or set -Dratecache.home=DIR");
    }

    private static boolean isRoot() throws IOException, InterruptedException {
        ManagedProcess.Outcome id = ManagedProcess.run(List.of("id", "-u"), Duration.ofSeconds(10));
        return id.exitCode() == 0 && id.stdout().strip().equals("0");
    }

    // nobody needs to read the jar and pass through every folder above it.
    private static boolean readableByEveryone(Path file) throws IOException {
        if (!Files.getPosixFilePermissions(file).contains(PosixFilePermission.OTHERS_READ)) {
            return false;
        }
        for (Path dir = file.toAbsolutePath().getParent(); dir != null; dir = dir.getParent()) {
            if (!Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                return false;
            }
        }
        return true;
    }
}
