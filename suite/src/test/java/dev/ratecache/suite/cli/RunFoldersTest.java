package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Every command names its run folder the same way, and never reuses one. */
class RunFoldersTest {

    @Test
    void aRunFolderIsNamedForTheSecondItStarted(TestInfo test) {
        Path results = TestDirs.fresh(test);

        assertThat(RunFolders.next(results, "advise-").getFileName().toString()).matches("advise-\\d{8}-\\d{6}");
        assertThat(RunFolders.next(results, "").getParent()).isEqualTo(results);
    }

    @Test
    void aSecondRunInTheSameSecondGetsAFolderOfItsOwn(TestInfo test) throws Exception {
        Path results = TestDirs.fresh(test);
        Path first = Files.createDirectories(RunFolders.next(results, "up-"));

        Path second = RunFolders.next(results, "up-");

        assertThat(second).doesNotExist();
        // Within the same second it is the first's name with -2; a second later, the new second's.
        assertThat(second.getFileName().toString()).matches("up-\\d{8}-\\d{6}(-2)?")
                .isNotEqualTo(first.getFileName().toString());
    }
}
