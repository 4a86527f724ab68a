package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ./run-tests.sh up refuses bad input in one line each, before it binds a port or claims its results folder. */
class UpInputTest {
    private final CommandRun cli = new CommandRun();

    /** Each case: what is wrong, the arguments of up that say it, and what the one line must say. */
    static Stream<Arguments> refusedInput() {
        return Stream.concat(Stream.of(
                refused("number past an int, naming up's range", List.of("--every", "99999999999"),
                        "run-tests.sh: --every must be a whole number of seconds from 1 to 3600 (got 99999999999)\n"),
                refused("limit scope with the per-client limit off", List.of("--limit-scope", "misses", "--no-front-limit"),
                        "--limit-scope misses chooses which requests cost per-client quota, which --no-front-limit"
                                + " turns off: drop one of them"),
                refused("results folder that is a file", List.of("--results", "pom.xml"),
                        "--results pom.xml is a file, not a folder"),
                refused("results folder below a file", List.of("--results", "pom.xml/results"),
                        "--results pom.xml/results: ", "pom.xml is a file, not a folder"),
                refused("an edge product the suite does not know", List.of("--edge", "apache"),
                        "Invalid value for option '--edge': 'apache' is not an edge: use nginx, haproxy, varnish or traefik"),
                // Only a mode the user gave: the defaults' queue becomes nodelay, said in a note (EdgeDefaultsTest).
                refused("HAProxy asked to queue", List.of("--edge", "haproxy", "--front-mode", "queue"),
                        "HAProxy's rate limit rejects and never queues or delays (--front-mode queue):"
                                + " give --front-mode nodelay, or use --edge nginx"),
                refused("Varnish asked to delay at the back", List.of("--edge", "varnish", "--front-mode", "nodelay",
                        "--back-mode", "delay=5"),
                        "Varnish's vsthrottle only rejects and never queues or delays (--back-mode delay=5): give"
                                + " --back-mode nodelay, or use --edge nginx"),
                refused("HAProxy asked for stale content it cannot serve", List.of("--edge", "haproxy", "--front-mode",
                        "nodelay", "--back-mode", "nodelay", "--stale", "protective"),
                        "HAProxy's cache cannot serve stale content (haproxy#214): drop --stale protective, or use"
                                + " --edge nginx"),
                refused("TLS, which Varnish has not", List.of("--edge", "varnish", "--tls",
                        "--front-mode", "nodelay", "--back-mode", "nodelay"),
                        "Varnish cannot terminate TLS: Varnish Cache has no TLS of its own, and its authors put a TLS proxy such as"
                                + " hitch in front of it (https://varnish-cache.org/docs/7.1/phk/ssl_again.html); drop --tls, or use --edge nginx"),
                refused("a database the origin does not run on", List.of("--origin-db", "sqlite"),
                        "Invalid value for option '--origin-db': 'sqlite' is not a database: use h2 or postgres"),
                refused("an acquire timeout past ten minutes", List.of("--db-acquire-timeout", "1h"),
                        "--db-acquire-timeout must be a duration from 250ms to 10m, such as 2s or 500ms (got '1h')"),
                refused("a pool for a user's origin", List.of("--origin", "http://127.0.0.1:9000", "--db-pool", "4"),
                        "--origin-db, --db-pool and --db-acquire-timeout set the suite's own origin's database: drop"
                                + " --origin, or them")),
                RefusedRows.origins());
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said, TestInfo test) {
        Path results = TestDirs.fresh(test);
        List<String> all = new java.util.ArrayList<>(List.of("up"));
        all.addAll(args);
        if (!args.contains("--results")) {
            all.addAll(List.of("--results", results.toString()));
        }
        assertThat(cli.run(all.toArray(String[]::new))).isEqualTo(2);
        assertThat(cli.err()).contains(said).doesNotContain("Exception");
        assertThat(cli.out()).doesNotContain("starting");
        assertThat(results).isEmptyDirectory();
    }

    @Test
    void badValuesAreOneLineEachAndNothingIsClaimed(TestInfo test) {
        Path results = TestDirs.fresh(test);

        assertThat(cli.run("up", "--every", "0", "--profile", "full", "--scenario", "stress/direct", "--results",
                results.toString())).isEqualTo(2);

        assertThat(cli.err()).contains("--every must be a whole number of seconds from 1 to 3600 (got 0)",
                "--profile full repeats matrix cells; up has none: use quick or default",
                "--scenario stress/direct sends traffic straight to the origin");
        assertThat(results).isEmptyDirectory();
    }

    @Test
    void aPasswordInTheOriginNeverReachesTheTerminal(TestInfo test) {
        Path results = TestDirs.fresh(test);

        assertThat(cli.run("up", "--origin", "http://user:secret@127.0.0.1:9000", "--results", results.toString()))
                .isEqualTo(2);

        assertThat(cli.err()).contains("http://user:***@127.0.0.1:9000");
        assertThat(cli.err() + cli.out()).doesNotContain("secret");
        assertThat(results).isEmptyDirectory();
    }
}
