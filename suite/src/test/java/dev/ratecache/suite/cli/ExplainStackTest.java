package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.docs.YourConfigPage;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ./run-tests.sh explain on the corpus of configs written for it (suite/src/test/resources/
 * dev/ratecache/suite/explain/corpus/): one config per rule and pitfall, each beside the lines its
 * explanation must have (NAME.expect). A stack test: nginx -t checks each config and crossplane
 * parses it, both real processes.
 *
 * <p>NAME.expect: one line each that the output must contain; "!TEXT" for a text it must not;
 * "args: ..." for the command's flags, "exit: 2" for a config nginx refuses (the lines are then of
 * the one refusal line), "file: PATH" for a config in a folder of its own (includes).
 */
@StackTest
class ExplainStackTest {
    private static final String CORPUS = "/dev/ratecache/suite/explain/corpus/";
    /** Every case, and for a folder the files it holds. */
    private static final List<String> CASES = List.of("nested-limits", "rate-per-minute", "burst-queue", "delay",
            "status-503", "real-ip", "behind-proxy", "zone-size", "header-key-map", "geo-allow", "two-zones", "dry-run",
            "cache-stampede", "cache-updating", "cache-private", "unknown-key", "lua", "return-first", "nothing",
            "fragment", "includes", "limit-conn", "relative-paths", "refused-missing-include", "refused-not-a-config",
            "refused-limit-in-if", "refused-zone-in-server-own-network", "refused-bad-value-own-network");
    private static final List<String> FOLDER_FILES = List.of("includes/nginx.conf", "includes/conf.d/api.conf");

    private static final Path DIR = TestDirs.fresh(ExplainStackTest.class, "corpus");

    static Stream<String> cases() {
        return CASES.stream();
    }

    private static String resource(String name) {
        try (InputStream in = ExplainStackTest.class.getResourceAsStream(CORPUS + name)) {
            assertThat(in).as("corpus file " + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path copy(String name) throws IOException {
        Path target = DIR.resolve(name);
        Files.createDirectories(target.getParent());
        return Files.writeString(target, resource(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theExplanationSaysWhatTheConfigDoes(String name) throws Exception {
        List<String> expect = resource(name + ".expect").lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        List<String> args = new ArrayList<>();
        int exit = 0;
        String file = name + ".conf";
        List<String> must = new ArrayList<>();
        List<String> mustNot = new ArrayList<>();
        for (String line : expect) {
            if (line.startsWith("args: ")) {
                args.addAll(List.of(line.substring(6).split(" ")));
            } else if (line.startsWith("exit: ")) {
                exit = Integer.parseInt(line.substring(6));
            } else if (line.startsWith("file: ")) {
                file = line.substring(6);
            } else if (line.startsWith("!")) {
                mustNot.add(line.substring(1));
            } else {
                must.add(line);
            }
        }
        for (String f : FOLDER_FILES) {
            copy(f);
        }
        Path conf = file.contains("/") ? DIR.resolve(file) : copy(file);
        Path results = DIR.resolve("results-" + name);
        List<String> all = new ArrayList<>(List.of("explain", conf.toString(), "--results", results.toString()));
        all.addAll(args);
        CommandRun cli = new CommandRun();

        int code = cli.run(all.toArray(String[]::new));

        String said = exit == 0 ? cli.out() : cli.err();
        assertThat(code).as(cli.err() + cli.out()).isEqualTo(exit);
        assertThat(said).contains(must);
        for (String text : mustNot) {
            assertThat(said).doesNotContain(text);
        }
        if (exit == 0) {
            Path written;
            try (Stream<Path> dirs = Files.list(results)) {
                written = dirs.findFirst().orElseThrow();
            }
            assertThat(Files.readString(written.resolve("explain.md"))).startsWith("# explain ");
            JsonNode json = new ObjectMapper().readTree(written.resolve("explain.json").toFile());
            assertThat(json.path("places").isArray()).isTrue();
            assertThat(json.path("pitfalls").size()).isEqualTo(countPitfalls(said));
        } else {
            assertThat(cli.err().lines().findFirst().orElse("")).startsWith("run-tests.sh: explain ");
            assertThat(results).doesNotExist();
        }
    }

    /**
     * The corpus run as the front tier (--nginx-conf): each config that has a path to send is rewired
     * into a copy that nginx -t takes and gixy finds nothing in; each that has none is refused in one line.
     */
    @org.junit.jupiter.api.Test
    void everyConfigsRewiredCopyPassesNginxTAndGixyOrIsRefusedInOneLine() throws Exception {
        for (String f : FOLDER_FILES) {
            copy(f);
        }
        List<Path> copies = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (String name : CASES.stream().filter(c -> !c.startsWith("refused-")).toList()) {
            Path conf = name.equals("includes") ? DIR.resolve("includes/nginx.conf") : copy(name + ".conf");
            dev.ratecache.suite.ownconfig.OwnFront own;
            try {
                own = dev.ratecache.suite.ownconfig.OwnFrontReader.read(conf, null, List.of(), DIR.resolve("own-read-" + name));
            } catch (dev.ratecache.suite.explain.ConfigRefused e) {
                assertThat(e.getMessage()).as(name).doesNotContain("\n");
                refused.add(name);
                continue;
            }
            Path prefix = DIR.resolve("own-" + name);
            // The default ports, not free ones: nginx -t binds nothing, and gixy-ng 0.2.59 takes a listen whose
            // port holds "443" (24435, say) for TLS, and then finds its TLS settings missing.
            Path copy = own.write(new dev.ratecache.suite.switches.StackSwitches().ownFront(own)
                    .spec(new dev.ratecache.suite.stack.StackPorts()), prefix);
            assertThat(dev.ratecache.suite.explain.NginxCheck.refusal(copy, prefix)).as(name + "\n" + Files.readString(copy))
                    .isEmpty();
            copies.add(copy);
        }
        assertThat(copies).as("corpus configs that run (refused: " + refused + ")").hasSizeGreaterThan(15);
        // Two findings are the corpus's own, in the files as written, which the copy keeps as they are:
        // nginx's default server_tokens, and the maps whose missing default exempts what they do not list.
        dev.ratecache.suite.nginx.GixyLintTest.lint(copies, "version_disclosure", "hash_without_default");
    }

    @org.junit.jupiter.api.Test
    void theExampleOfTheDocsSaysWhatItsPageQuotes() throws Exception {
        Path conf = Files.writeString(Files.createDirectories(DIR.resolve("docs")).resolve("nginx.conf"),
                YourConfigPage.example());
        CommandRun cli = new CommandRun();

        assertThat(cli.run("explain", conf.toString(), "--results", DIR.resolve("results-docs").toString()))
                .as(cli.err()).isZero();

        assertThat(cli.out()).contains(YourConfigPage.quoted());
        Path written;
        try (Stream<Path> dirs = Files.list(DIR.resolve("results-docs"))) {
            written = dirs.findFirst().orElseThrow();
        }
        JsonNode zone = new ObjectMapper().readTree(written.resolve("explain.json").toFile()).path("spec").path("zones")
                .path(0);
        assertThat(zone.path("key").path("kind").asText()).isEqualTo("Address");
        assertThat(zone.path("rate").path("milliPerSecond").asLong()).isEqualTo(10_000);
    }

    @org.junit.jupiter.api.Test
    void anIngressIsExplainedAsOneControllerReplicaRendersItsAnnotations() throws Exception {
        Path yaml = Files.writeString(Files.createDirectories(DIR.resolve("ingress")).resolve("shop.yaml"),
                new String(ExplainStackTest.class.getResourceAsStream("/ingress/shop.yaml").readAllBytes(),
                        StandardCharsets.UTF_8));
        Path results = DIR.resolve("results-ingress");
        CommandRun cli = new CommandRun();

        assertThat(cli.run("explain", "--ingress", yaml.toString(), "--replicas", "3", "--results",
                results.toString())).as(cli.err()).isZero();

        // nginx -t took the rendered config, and every figure points into it.
        assertThat(cli.out()).contains("(as ingress-nginx renders it: ingress-nginx.conf): nginx -t takes it",
                "ingress-nginx keeps each limit per controller replica", "retired in March 2026",
                "limit_req zone=shop_shop-api_rps (ingress-nginx.conf:", "under 10 r/s with burst 30 nodelay",
                "refused requests get 503", "not limited by shop_shop-api_rps: requests where the client's address"
                        + " ($remote_addr) in 10.0.0.0/8",
                "across 3 instances of this config (--replicas 3)", "location /static/");
        Path written;
        try (Stream<Path> dirs = Files.list(results)) {
            written = dirs.findFirst().orElseThrow();
        }
        assertThat(written.resolve("ingress-nginx.conf")).content()
                .contains("limit_req zone=shop_shop-api_rps burst=30 nodelay;  # limit-rps x limit-burst-multiplier");
        assertThat(Files.readString(written.resolve("explain.md"))).contains("- the ingress-nginx controller was retired");
    }

    @org.junit.jupiter.api.Test
    void theControllersStatusCodeIsTheConfigmapsWhenGiven() throws Exception {
        Path yaml = Files.writeString(Files.createDirectories(DIR.resolve("ingress-429")).resolve("shop.yaml"),
                new String(ExplainStackTest.class.getResourceAsStream("/ingress/shop.yaml").readAllBytes(),
                        StandardCharsets.UTF_8));
        CommandRun cli = new CommandRun();

        assertThat(cli.run("explain", "--ingress", yaml.toString(), "--ingress-status", "429", "--results",
                DIR.resolve("results-ingress-429").toString())).as(cli.err()).isZero();

        assertThat(cli.out()).contains("refused requests get 429").doesNotContain("get 503");
    }

    /** The number the terminal's "Pitfalls (N)" heading gives, 0 for "No pitfalls found." */
    private static int countPitfalls(String out) {
        int at = out.indexOf("Pitfalls (");
        return at < 0 ? 0 : Integer.parseInt(out.substring(at + 10, out.indexOf(')', at)));
    }
}
