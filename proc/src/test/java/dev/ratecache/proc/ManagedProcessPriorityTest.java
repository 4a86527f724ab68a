package dev.ratecache.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A drawing started at nice 19 beside a measurement runs at normal priority once the measuring ends. */
@StackTest
class ManagedProcessPriorityTest {

    /** The niceness /proc gives for {@code pid}: field 19 of its stat line, counted after the command's closing bracket. */
    private static int niceness(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(after[16]);
    }

    @Test
    void aNicedProcessIsRaisedToNormalPriority() throws Exception {
        // Raising a priority takes root; elsewhere toNormalPriority leaves it where it was, by design.
        assumeTrue("root".equals(System.getProperty("user.name")), "raising a priority takes root");
        Path dir = TestDirs.fresh(getClass(), "renice");
        try (ManagedProcess p = ManagedProcess.start("sleeper", List.of("nice", "-n", "19", "sleep", "60"), dir,
                dir.resolve("sleeper.log"))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> niceness(p.pid()) == 19);

            p.toNormalPriority();

            assertThat(niceness(p.pid())).isZero();
        }
    }
}
