package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ./run-tests.sh render refuses bad input in one line each, before it writes anything. A unit test: render starts no process. */
class RenderInputTest {
    private final CommandRun cli = new CommandRun();

    /** Each case: what is wrong, the arguments to render after DIR, and what the one line must say. */
    static Stream<Arguments> refusedInput() {
        return Stream.of(
                refused("origin with a user and password, masked", List.of("--origin", "http://user:secret@127.0.0.1:9000"),
                        "'http://user:***@127.0.0.1:9000' holds a user or password, which the tiers would not send"),
                refused("origin on a port above 65535", List.of("--origin", "http://127.0.0.1:70000"),
                        "'http://127.0.0.1:70000' has port 70000, not a TCP port (1-65535)"),
                refused("origin that is no URL at all", List.of("--origin", "http://127.0.0.1:9000;}"),
                        "'http://127.0.0.1:9000;}' is not a URL: give http://host:port"));
    }

    private static Arguments refused(String what, List<String> args, String... said) {
        return Arguments.of(what, args, List.of(said));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said, TestInfo test) {
        Path dir = TestDirs.fresh(test).resolve("out");
        List<String> render = new ArrayList<>(List.of("render", dir.toString()));
        render.addAll(args);

        assertThat(cli.run(render.toArray(String[]::new))).isEqualTo(2);

        assertThat(cli.err()).contains(said).doesNotContain("Exception");
        assertThat(dir).doesNotExist();
    }

    @Test
    void aPasswordInTheOriginReachesNeitherTheTerminalNorAFile(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);

        assertThat(cli.run("render", dir.toString(), "--origin", "http://user:secret@127.0.0.1:9000")).isEqualTo(2);

        assertThat(cli.err()).contains("http://user:***@127.0.0.1:9000");
        assertThat(cli.err() + cli.out()).doesNotContain("secret");
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile)).isEmpty();
        }
    }
}
