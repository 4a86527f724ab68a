package dev.ratecache.suite.cli;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * The setups of examples/, each in its own folder: what {@code render --portable} writes with its
 * flags, beside the folder's hand-written README.md (and the input it names, a tiers file). The
 * render is the only source of the configs there; ExamplesTest fails when a committed file differs
 * from a fresh one, and {@code ./run-tests.sh examples} writes them afresh.
 */
enum Example {
    NGINX_TWO_TIERS("nginx-two-tiers", in -> List.of("--age-source", "njs")),
    NGINX_KEYS_TIERS("nginx-keys-tiers", in -> List.of("--age-source", "njs", "--limit-key", "header:X-Api-Key",
            "--tiers", in.resolve("tiers.txt").toString())),
    // Fixed edge ports: left out, render takes free ones, which differ at every render.
    NGINX_FLEET_SHARED("nginx-fleet-shared", in -> List.of("--age-source", "njs", "--edges", "3", "--fleet-limit",
            "shared", "--edge-ports", "8001,8002,8003")),
    NGINX_TLS("nginx-tls", in -> List.of("--age-source", "njs", "--tls")),
    // HAProxy and Varnish reject over a limit, never queue.
    HAPROXY("haproxy", in -> List.of("--edge", "haproxy", "--front-mode", "nodelay", "--back-mode", "nodelay")),
    VARNISH("varnish", in -> List.of("--edge", "varnish", "--front-mode", "nodelay", "--back-mode", "nodelay"));

    /** Where the examples are, under the checkout. */
    static final String FOLDER = "examples";

    private final String folder;
    private final Function<Path, List<String>> flags;

    Example(String folder, Function<Path, List<String>> flags) {
        this.folder = folder;
        this.flags = flags;
    }

    String folder() {
        return folder;
    }

    /** The committed folder, which also holds the inputs the flags name. */
    Path committed() {
        return Repo.root().resolve(FOLDER).resolve(folder);
    }

    /**
     * Renders the example into {@code out} (the committed folder, or another to compare with it),
     * through render itself, its inputs read from the committed folder. A file the flags name is
     * said relative to that folder in the configs' "Render it again" line, so that no path of this
     * checkout is written.
     */
    void render(Path out) throws IOException {
        Path in = committed().toAbsolutePath();
        List<String> args = new ArrayList<>(List.of("render", "--portable"));
        args.addAll(flags.apply(in));
        args.add(out.toString());
        StringWriter said = new StringWriter();
        CommandLine cli = RunTestsCommand.commandLine();
        cli.setOut(new PrintWriter(said));
        cli.setErr(new PrintWriter(said));
        if (cli.execute(args.toArray(String[]::new)) != 0) {
            throw new IOException("render of examples/" + folder + " failed: " + said.toString().strip());
        }
        String inputs = in + "/";
        try (Stream<Path> files = Files.walk(out)) {
            for (Path f : files.filter(f -> Files.isRegularFile(f) && rendered(out.relativize(f))).toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                if (text.contains(inputs)) {
                    Files.writeString(f, text.replace(inputs, ""), StandardCharsets.UTF_8);
                }
            }
        }
    }

    /** Whether {@code relative}, a path in an example's folder, is render's: every file but README.md and the inputs. */
    static boolean rendered(Path relative) {
        return RenderCommand.owned(relative.getName(0));
    }
}
