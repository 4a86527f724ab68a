package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.ratecache.suite.docs.DocCommands;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The docs' commands as the command line reads them, without running anything (DocCommandsStackTest
 * runs them): a flag renamed or a value no longer accepted fails here in a second.
 */
class DocCommandsTest {
    @Test
    void everyShellLineInTheDocsIsACommandOfThisSuiteOrSaysWhatItNeeds() {
        List<DocCommands.Command> all = DocCommands.all();

        assertThat(all).hasSizeGreaterThan(50);
        assertThat(all).allSatisfy(c -> assertThat(c.ofThisSuite() || c.needs().isPresent())
                .as("%s: a shell line the docs test cannot run says what it needs in its comment (needs: ...)", c).isTrue());
    }

    @Test
    void everyCommandOfThisSuiteInTheDocsIsOneTheCommandLineAccepts() {
        for (DocCommands.Command command : DocCommands.all()) {
            if (!command.ofThisSuite() || command.needs().isPresent() || command.exits() == 2) {
                continue;
            }
            CommandLine cli = RunTestsCommand.commandLine();
            assertThatCode(() -> cli.parseArgs(command.args().toArray(String[]::new))).as(command.toString())
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void aLineSaysWhatItExitsWithAndWhatItNeedsInItsComment() {
        DocCommands.Command command = DocCommands.command("p.md", 3,
                "./run-tests.sh --matrix fleet --assert 'a.b == 0' # per-edge leaks, so it exits 1 (needs: 3 hosts)");

        assertThat(command.args()).containsExactly("--matrix", "fleet", "--assert", "a.b == 0");
        assertThat(command.exits()).isEqualTo(1);
        assertThat(command.needs()).contains("3 hosts");
        assertThat(DocCommands.command("p.md", 1, "./run-tests.sh up").exits()).isZero();
        assertThat(DocCommands.command("p.md", 1, "curl http://x/#a").needs()).isEmpty();
    }
}
