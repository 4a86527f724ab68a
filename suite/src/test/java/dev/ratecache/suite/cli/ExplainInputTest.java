package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ./run-tests.sh explain refuses a file it cannot read, and flags it cannot take, in one line, exit
 * 2, before nginx or crossplane runs and before it writes a thing. (What nginx refuses is quoted
 * from nginx: ExplainStackTest.)
 */
class ExplainInputTest {
    private static final Path DIR = TestDirs.fresh(ExplainInputTest.class, "configs");

    private final CommandRun cli = new CommandRun();

    static Path file(String name, byte[] bytes) {
        try {
            return Files.write(DIR.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<Arguments> refusedInput() {
        Path good = file("good.conf", "events {}\nhttp {}\n".getBytes());
        Path empty = file("empty.conf", new byte[0]);
        Path binary = file("binary.conf", new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 1});
        Path ingress = file("ingress.yaml", "kind: Ingress\nmetadata:\n  name: web\n".getBytes());
        Path badIngress = file("bad-ingress.yaml", ("kind: Ingress\nmetadata:\n  name: web\n  annotations:\n"
                + "    nginx.ingress.kubernetes.io/limit-rps: 10r/s\n").getBytes());
        return Stream.of(
                refused("a file that does not exist", List.of(DIR.resolve("no-such.conf").toString()),
                        "explain " + DIR.resolve("no-such.conf") + " does not exist"),
                refused("a directory", List.of(DIR.toString()), "explain " + DIR + " is a directory, not a file"),
                refused("a device, which never ends", List.of("/dev/zero"),
                        "explain /dev/zero is not a regular file (a device, a pipe or a socket)"),
                refused("an empty file", List.of(empty.toString()), "explain " + empty + " is empty: give an nginx config"),
                refused("a file that is not text", List.of(binary.toString()),
                        "explain " + binary + " is not a text file (it holds NUL bytes): give an nginx config"),
                refused("a proxy that is no address", List.of(good.toString(), "--behind-proxy", "lb.example"),
                        "--behind-proxy takes an IP address or a network as CIDR, e.g. 10.0.0.0/8 (got 'lb.example')"),
                refused("no replicas", List.of(good.toString(), "--replicas", "0"),
                        "--replicas must be a whole number >= 1 (got 0)"),
                refused("a results folder that is a file", List.of(good.toString(), "--results", good.toString()),
                        "--results " + good + " is a file, not a folder"),
                refused("neither a config nor an Ingress", List.of(),
                        "explain takes FILE, your nginx config, or --ingress FILE.yaml"),
                refused("a config and an Ingress", List.of(good.toString(), "--ingress", ingress.toString()),
                        "explain takes FILE or --ingress FILE.yaml, not both"),
                refused("the controller's status without an Ingress", List.of(good.toString(), "--ingress-status", "429"),
                        "--ingress-status is the ingress-nginx controller's: give it with --ingress"),
                refused("a status that is no error", List.of("--ingress", ingress.toString(), "--ingress-status", "200"),
                        "--ingress-status must be an HTTP error status from 400 to 599 (got 200)"),
                refused("an Ingress whose limit the controller refuses", List.of("--ingress", badIngress.toString()),
                        "explain --ingress " + badIngress + ": Ingress default/web: limit-rps must be a whole number,"
                                + " as ingress-nginx reads it (got '10r/s')"),
                refused("a manifest with no Ingress", List.of("--ingress", good.toString()),
                        "explain --ingress " + good + " holds no object of kind Ingress"));
    }

    @ParameterizedTest(name = "{0} is refused")
    @MethodSource("refusedInput")
    void badInputIsRefusedInOneLineBeforeAnythingRuns(String what, List<String> args, List<String> said) {
        Path results = DIR.resolve("results");
        List<String> all = new ArrayList<>(List.of("explain"));
        all.addAll(args);
        if (!args.contains("--results")) {
            all.addAll(List.of("--results", results.toString()));
        }

        assertThat(cli.run(all.toArray(String[]::new))).isEqualTo(2);

        assertThat(cli.err().lines().findFirst().orElse("")).startsWith("run-tests.sh: ").contains(said.get(0));
        assertThat(cli.err()).doesNotContain("Exception");
        assertThat(results).doesNotExist();
    }
}
