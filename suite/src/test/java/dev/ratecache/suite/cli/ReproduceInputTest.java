package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ./run-tests.sh reproduce refuses bad input in one line each, before it starts a process or makes its run folder. */
class ReproduceInputTest {
    private final CommandRun cli = new CommandRun();

    /** Each case: what is wrong, the arguments of reproduce that say it, and what the one line must say. */
    static Stream<Arguments> refusedInput() {
        return Stream.of(
                refused("an experiment it does not know, listing those it does", List.of("warp"),
                        "run-tests.sh: 'warp' is not an experiment: use haproxy-cache (000), redis-vs-nginx (001),"
                                + " redis-balancer (002), fast-origin (003) or reference (004), or no NAME for all of them\n"),
                refused("a seed there is none of", List.of("005"), "'005' is not an experiment: use haproxy-cache"),
                refused("two experiments named", List.of("fast-origin", "reference"),
                        "run-tests.sh: reproduce takes NAME at most, and no more arguments: drop 'reference'\n"),
                refused("a duration of none", List.of("fast-origin", "--duration", "0"),
                        "run-tests.sh: --duration must be a whole number from 1 to 60 (got 0)\n"),
                refused("a duration past an int", List.of("--duration", "99999999999"),
                        "run-tests.sh: --duration must be a whole number from 1 to 60 (got 99999999999)\n"),
                refused("results folder that is a file", List.of("--results", "pom.xml"),
                        "--results pom.xml is a file, not a folder"),
                refused("a tiers' switch, which the experiments set themselves", List.of("--front-rate", "5"),
                        "Unknown option: '--front-rate'"));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said, TestInfo test) {
        Path results = TestDirs.fresh(test);
        List<String> all = new ArrayList<>(List.of("reproduce"));
        all.addAll(args);
        if (!args.contains("--results")) {
            all.addAll(List.of("--results", results.toString()));
        }

        assertThat(cli.run(all.toArray(String[]::new))).isEqualTo(2);

        assertThat(cli.err()).contains(said).doesNotContain("Exception");
        assertThat(cli.err().lines().filter(l -> l.startsWith("run-tests.sh: "))).hasSize(1);
        assertThat(cli.out()).doesNotContain("run folder");
        assertThat(results).isEmptyDirectory();
    }
}
