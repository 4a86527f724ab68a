package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ./run-tests.sh advise refuses bad input in one line each, before it reads the log or makes a folder. */
class AdviseInputTest {
    private final CommandRun cli = new CommandRun();

    /** Each case: what is wrong, the arguments to advise after LOG, and what the one line must say. */
    static Stream<Arguments> refusedInput() {
        return Stream.of(
                refused("results folder that is a file", List.of("--results", "pom.xml"),
                        "--results pom.xml is a file, not a folder: give a folder, or a path where one can be made"),
                refused("results folder below a file", List.of("--results", "pom.xml/advice"),
                        "--results pom.xml/advice: ", "pom.xml is a file, not a folder"));
    }

    private static Arguments refused(String what, List<String> args, String... said) {
        return Arguments.of(what, args, List.of(said));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said) {
        // A log that does not exist: the flags are checked before it is read.
        List<String> advise = new ArrayList<>(List.of("advise", "no-such-access.log"));
        advise.addAll(args);

        assertThat(cli.run(advise.toArray(String[]::new))).isEqualTo(2);

        assertThat(cli.err()).contains(said).doesNotContain("Exception");
    }
}
