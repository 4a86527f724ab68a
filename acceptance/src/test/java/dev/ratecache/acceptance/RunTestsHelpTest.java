package dev.ratecache.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ./run-tests.sh --help installs nothing, builds nothing and says nothing but the help: in a copy
 * of the script whose PATH puts, before the real tools, stand-ins for every tool an install or a
 * build would call, each leaving a mark when called.
 */
@StackTest
class RunTestsHelpTest {
    private static final List<String> INSTALL_AND_BUILD_TOOLS = List.of("apt-get", "dpkg-buildflags", "gcc", "make",
            "nginx", "python3", "dpkg-deb");

    private record Checkout(Path root, Path marks, Path bin) {}

    /** run-tests.sh alone in a folder of its own, with the stand-ins on PATH. */
    private static Checkout checkout(String name) throws IOException {
        Path dir = TestDirs.fresh(RunTestsHelpTest.class, name);
        Path root = Files.createDirectories(dir.resolve("checkout"));
        Files.copy(Repo.root().resolve("run-tests.sh"), root.resolve("run-tests.sh"));
        Path marks = Files.createDirectories(dir.resolve("marks"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String tool : INSTALL_AND_BUILD_TOOLS) {
            Path stand = bin.resolve(tool);
            Files.writeString(stand, "#!/bin/sh\ntouch '" + marks.resolve(tool) + "'\nexit 1\n");
            Files.setPosixFilePermissions(stand, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return new Checkout(root, marks, bin);
    }

    private static ManagedProcess.Outcome run(Checkout c, String... args) throws Exception {
        String path = c.bin() + ":" + Path.of(ManagedProcess.javaBinary()).getParent() + ":/usr/bin:/bin";
        List<String> command = new java.util.ArrayList<>(List.of("env", "PATH=" + path, "bash",
                c.root().resolve("run-tests.sh").toString()));
        command.addAll(List.of(args));
        return ManagedProcess.run(command, c.root(), Duration.ofSeconds(60));
    }

    private static void assertNothingInstalledOrBuilt(Checkout c) throws IOException {
        try (var marks = Files.list(c.marks())) {
            assertThat(marks).as("tools an install or a build called").isEmpty();
        }
        assertThat(c.root().resolve(".tools")).doesNotExist();
        assertThat(c.root().resolve("suite")).doesNotExist();
    }

    @Test
    void helpBeforeTheFirstBuildListsTheCommandsAndSaysHowToGetEveryFlagWithoutInstallingOrBuilding() throws Exception {
        Checkout c = checkout("unbuilt");

        ManagedProcess.Outcome help = run(c, "--help");

        assertThat(help.exitCode()).as(help.stderr()).isZero();
        assertThat(help.stderr()).isEmpty();
        assertThat(help.stdout()).contains("./run-tests.sh advise LOG", "./run-tests.sh up",
                "./mvnw -B -q package -DskipTests");
        assertNothingInstalledOrBuilt(c);
    }

    @Test
    void helpOfACommandComesFromTheBuiltCommandLineAndPrintsNothingElse() throws Exception {
        Checkout c = checkout("built");
        Path jar = Files.createDirectories(c.root().resolve("suite/target")).resolve("suite-all.jar");
        Files.createSymbolicLink(jar, Repo.root().resolve("suite/target/suite-all.jar"));

        ManagedProcess.Outcome help = run(c, "advise", "--help");

        assertThat(help.exitCode()).as(help.stderr()).isZero();
        assertThat(help.stderr()).as("no install, build or Age line on stderr").isEmpty();
        assertThat(help.stdout()).startsWith("Usage: run-tests.sh advise").contains("--max-hurt-clients");
        try (var marks = Files.list(c.marks())) {
            assertThat(marks).as("tools an install or a build called").isEmpty();
        }
        assertThat(c.root().resolve(".tools")).doesNotExist();
    }

    @Test
    void fuzzHelpSaysHowToFuzzWithoutInstallingOrBuilding() throws Exception {
        Checkout c = checkout("fuzz-help");

        ManagedProcess.Outcome help = run(c, "fuzz", "--help");

        assertThat(help.exitCode()).as(help.stderr()).isZero();
        assertThat(help.stderr()).isEmpty();
        assertThat(help.stdout()).startsWith("Usage: ./run-tests.sh fuzz [--minutes N] [TARGET...]");
        assertNothingInstalledOrBuilt(c);
    }

    @Test
    void installClientHelpSaysWhatItInstallsWithoutInstallingOrBuilding() throws Exception {
        Checkout c = checkout("install-client-help");

        ManagedProcess.Outcome help = run(c, "install-client", "--help");

        assertThat(help.exitCode()).as(help.stderr()).isZero();
        assertThat(help.stderr()).isEmpty();
        assertThat(help.stdout()).startsWith("Usage: ./run-tests.sh install-client [MAVEN ARGUMENTS...]")
                .contains("dev.ratecache:client", "~/.m2/repository");
        assertNothingInstalledOrBuilt(c);
    }

    /** Each case: the arguments after fuzz, and the one line they get. */
    static Stream<Arguments> refusedFuzzInput() {
        return Stream.of(
                Arguments.of(List.of("--minutes", "soon"),
                        "run-tests.sh: --minutes must be a whole number of minutes from 1 to 1440 (got soon)"),
                Arguments.of(List.of("--minutes", "0"),
                        "run-tests.sh: --minutes must be a whole number of minutes from 1 to 1440 (got 0)"),
                Arguments.of(List.of("--minutes=99999999999999999999"),
                        "run-tests.sh: --minutes must be a whole number of minutes from 1 to 1440 (got 99999999999999999999)"),
                // A control character in the value is quoted as the shell would write it, not sent to the terminal.
                Arguments.of(List.of("--minutes", "5\u001b[2J"),
                        "run-tests.sh: --minutes must be a whole number of minutes from 1 to 1440 (got $'5\\E[2J')"),
                Arguments.of(List.of("--minutes"),
                        "run-tests.sh: --minutes needs a value: a whole number of minutes from 1 to 1440, e.g. --minutes 10"),
                Arguments.of(List.of("--seconds", "30"),
                        "run-tests.sh: fuzz has no flag --seconds: it takes --minutes N and target names"),
                Arguments.of(List.of("NoSuchFuzzTest#parse"),
                        "run-tests.sh: no fuzz target NoSuchFuzzTest#parse: name one of ./run-tests.sh fuzz --help's"
                                + " targets, or its class"));
    }

    @ParameterizedTest
    @MethodSource("refusedFuzzInput")
    void fuzzRefusesBadInputInOneLineBeforeInstallingOrBuilding(List<String> args, String line) throws Exception {
        Checkout c = checkout("fuzz-refused");
        List<String> all = new java.util.ArrayList<>(List.of("fuzz"));
        all.addAll(args);

        ManagedProcess.Outcome refused = run(c, all.toArray(String[]::new));

        assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(2);
        assertThat(refused.stderr().lines().findFirst()).contains(line);
        assertThat(refused.stdout()).isEmpty();
        assertNothingInstalledOrBuilt(c);
    }
}
