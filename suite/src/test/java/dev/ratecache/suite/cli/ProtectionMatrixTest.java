package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * --matrix protection through real tiers, the origin and JMeter: the back limit's promise is a
 * check of the run, kept with its limit on and broken with it off.
 */
@StackTest
@LongTest
class ProtectionMatrixTest {
    /** Under target/, where nginx's workers can write (WorkerAccess). */
    private Path dir;

    @org.junit.jupiter.api.BeforeEach
    void dir(org.junit.jupiter.api.TestInfo test) {
        dir = dev.ratecache.testkit.TestDirs.fresh(test);
    }

    private final CommandRun cli = new CommandRun();

    private int run(String... more) {
        List<String> args = new ArrayList<>(List.of("--matrix", "protection", "--profile", "quick",
                "--only", "flood/2x-many", "--no-dashboards", "--results", dir.toString(),
                // The last arrivals' wait: the back's full queue (50 at 10 r/s) is 5 s; the plan's 10 s
                // default is for the default sizes.
                "-Jdrain=7"));
        args.addAll(StackPorts.free().flags());
        args.addAll(List.of(more));
        return cli.run(args.toArray(String[]::new));
    }

    private String checksXml() throws Exception {
        try (Stream<Path> runs = Files.list(dir)) {
            Path run = runs.filter(p -> !p.getFileName().toString().equals("latest")).findFirst().orElseThrow();
            return Files.readString(run.resolve("checks.xml"));
        }
    }

    @Test
    void theBackLimitKeepsEveryOneSecondWindowAtTheOriginWithinRatePlusBurst() throws Exception {
        // 200 r/s from 100 addresses: no client reaches the front's per-client limit, so only the
        // back limit (10 r/s, burst 50) stands between the flood and the origin.
        assertThat(run()).as(cli.out() + "\n" + cli.err()).isZero();

        assertThat(cli.out()).contains("PASS flood/2x-many.origin_peak_1s <= 60: the busiest second at the origin:");
        assertThat(checksXml()).contains("flood/2x-many.origin_peak_1s &lt;= 60").doesNotContain("<failure");
    }

    @Test
    void withTheBackLimitOffTheCheckFailsNamingTheWindowThatBrokeIt() throws Exception {
        // The same flood with the back limit off: the origin takes what its 10 threads can, about
        // 100 a second, well above the 60 the limit would have allowed.
        assertThat(run("--no-back-limit")).isEqualTo(1);

        assertThat(cli.out()).containsPattern(
                "FAIL flood/2x-many\\.origin_peak_1s <= 60: the busiest second at the origin: \\d+ requests from \\d\\d:\\d\\d:\\d\\d\\.\\d{3} UTC");
        assertThat(cli.err()).contains("check(s) failed");
        assertThat(checksXml()).contains("<failure");
    }
}
