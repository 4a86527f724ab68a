package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether nginx's workers (nobody, when the suite runs as root) can reach a run folder. */
public class WorkerAccessTest {
    /** For the tests that need root to see the refusal. */
    public static boolean root() {
        return WorkerAccess.runningAsRoot();
    }

    @Test
    void asRootAFolderBelowOneOnlyItsOwnerCanEnterIsNamedWithItsMode(@TempDir Path closed) {
        assumeTrue(root(), "not root: nginx's workers run as this user");

        assertThat(WorkerAccess.problem(closed.resolve("results/run"), "--results")).hasValue("--results "
                + closed.resolve("results/run") + ": the suite runs as root, so nginx's workers run as nobody, who"
                + " cannot enter " + closed + " (rwx------) to write the edge cache: give --results a folder every"
                + " user can enter, e.g. --results /tmp/ratecache-results, or run as another user");
    }

    @Test
    void aFolderEveryUserCanEnterIsFine() {
        // target/stacks/...: made with the umask's 755, below the checkout.
        assertThat(WorkerAccess.problem(TestDirs.fresh(WorkerAccessTest.class, "open").resolve("results"), "--results"))
                .isEmpty();
    }
}
