package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ./run-tests.sh render refuses bad input in one line each, before it writes anything. */
class RenderInputTest {
    private final CommandRun cli = new CommandRun();

    /** Each case: what is wrong, the arguments of render (before DIR) that say it, and what the one line must say. */
    static Stream<Arguments> refusedInput() {
        return Stream.of(
                refused("fleet Redis port past 65535", List.of("--edges", "3", "--fleet-limit", "shared",
                        "--fleet-redis", "127.0.0.1:99999"),
                        "--fleet-redis must be HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:6379"
                                + " (got '127.0.0.1:99999')"),
                refused("number past an int", List.of("--front-rate", "99999999999"),
                        "run-tests.sh: --front-rate must be a whole number from 1 to 100000 (got 99999999999)\n"),
                refused("allow-list network with host bits set", List.of("--allow", "10.1.2.3/8"),
                        "did you mean 10.0.0.0/8 (or 10.1.2.3/32 for the one address)?"));
    }

    private static Arguments refused(String what, List<String> args, String... said) {
        return Arguments.of(what, args, List.of(said));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said, TestInfo test) {
        Path dir = TestDirs.fresh(test).resolve("rendered");
        List<String> all = new java.util.ArrayList<>(List.of("render"));
        all.addAll(args);
        all.add(dir.toString());

        assertThat(cli.run(all.toArray(String[]::new))).isEqualTo(2);
        assertThat(cli.err()).contains(said);
        assertThat(dir).doesNotExist();
    }
}
