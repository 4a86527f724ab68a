package dev.ratecache.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one-shot runner: what a command said and how it exited, and nothing of it left past its time. */
@StackTest
class ManagedProcessRunTest {

    @Test
    void givesTheExitCodeAndEachStreamWithTheEnvironmentAdded() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "streams");
        ManagedProcess.Outcome ran = ManagedProcess.run(
                List.of("sh", "-c", "echo \"out $WHO in $(pwd)\"; echo err >&2; exit 3"), dir, Map.of("WHO", "me"),
                Duration.ofSeconds(30));

        assertThat(ran.exitCode()).isEqualTo(3);
        assertThat(ran.stdout()).isEqualTo("out me in " + dir.toRealPath() + "\n");
        assertThat(ran.stderr()).isEqualTo("err\n");
        assertThatThrownBy(ran::stdoutIfSucceeded).isInstanceOf(IOException.class)
                .hasMessageStartingWith("sh -c ").hasMessageContaining(" exited 3: out me in ").hasMessageEndingWith("err");
    }

    @Test
    void aSucceedingCommandGivesItsStandardOutput() throws Exception {
        assertThat(ManagedProcess.run(List.of("echo", "hello"), Duration.ofSeconds(30)).stdoutIfSucceeded())
                .isEqualTo("hello\n");
    }

    @Test
    void pastItsTimeItIsStoppedWithItsDescendants() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "timeout");
        Path childPid = dir.resolve("child.pid");
        // A shell that waits on a child of its own: a stop by the shell's PID alone would leave the child running.
        List<String> command = List.of("sh", "-c", "sleep 300 & echo $! > child.pid; wait");

        assertThatThrownBy(() -> ManagedProcess.run(command, dir, Duration.ofSeconds(3)))
                .isInstanceOf(IOException.class).hasMessage(String.join(" ", command) + " did not finish within 3 s");

        long child = Long.parseLong(Files.readString(childPid).strip());
        await("the shell's child, stopped").atMost(Duration.ofSeconds(15))
                .until(() -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true));
    }
}
