package dev.ratecache.suite.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.accesslog.Printable;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A user's nginx config read by crossplane, NGINX's own parser (PyPI; ./run-tests.sh installs it
 * into .tools/crossplane). crossplane follows the includes itself, relative to the main file's
 * folder as nginx does for a config given with -c, and gives every directive its file and line,
 * which nginx -T's one stream of text would lose. Its JSON is turned into {@link Directive}s, each
 * include replaced by the directives of the files it named, in their order.
 */
public final class Crossplane {
    private Crossplane() {}

    /** The crossplane binary: -Dcrossplane.bin, CROSSPLANE_BIN, else the suite's own venv. */
    static Path binary() {
        String property = System.getProperty("crossplane.bin");
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String env = System.getenv("CROSSPLANE_BIN");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Repo.root().resolve(".tools/crossplane/bin/crossplane");
    }

    /** The directives of {@code conf} and everything it includes. @throws ConfigRefused when crossplane cannot read it */
    public static List<Directive> parse(Path conf) throws ConfigRefused, IOException, InterruptedException {
        return fromJson(json(conf), conf.toAbsolutePath().normalize().getParent());
    }

    /** crossplane's JSON payload for {@code conf}, errors and all. */
    static String json(Path conf) throws ConfigRefused, IOException, InterruptedException {
        Path bin = binary();
        if (!Files.isExecutable(bin)) {
            throw new ConfigRefused("crossplane, the parser explain reads nginx configs with, is not installed at " + bin
                    + ": ./run-tests.sh explain installs it (or set CROSSPLANE_BIN)");
        }
        Path main = conf.toAbsolutePath().normalize();
        ManagedProcess.Outcome out = ManagedProcess.run(List.of(bin.toString(), "parse", main.toString()),
                main.getParent(), Duration.ofSeconds(60));
        if (out.exitCode() != 0 || !out.stdout().strip().startsWith("{")) {
            String said = out.stderr().lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("exit " + out.exitCode());
            throw new ConfigRefused(Printable.shown(conf.toString()) + ": crossplane cannot parse it: "
                    + Printable.escape(said, 300));
        }
        return out.stdout();
    }

    /** crossplane's first error message in its payload, if any. */
    static Optional<String> firstError(String json) {
        try {
            JsonNode errors = new ObjectMapper().readTree(json).path("errors");
            return errors.isArray() && !errors.isEmpty() ? Optional.of(errors.get(0).path("error").asText(""))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The names of the main file's own top-level directives in crossplane's payload, whatever errors
     * it found: whether the file is a whole nginx.conf or a file of what goes inside http.
     */
    static List<String> topLevel(String json) {
        try {
            JsonNode parsed = new ObjectMapper().readTree(json).path("config").path(0).path("parsed");
            List<String> names = new ArrayList<>();
            parsed.forEach(d -> names.add(d.path("directive").asText()));
            return names;
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * The directives of crossplane's JSON payload: the first file's, includes spliced in. File names
     * are shown relative to {@code base} (the main file's folder) when below it.
     *
     * @throws ConfigRefused with crossplane's first error (a missing include, a directive where it
     *                       may not be, a syntax error), naming its file and line
     */
    public static List<Directive> fromJson(String json, Path base) throws ConfigRefused {
        JsonNode payload;
        try {
            payload = new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new ConfigRefused("crossplane's output is not JSON: " + Printable.escape(e.getMessage(), 200));
        }
        JsonNode errors = payload.path("errors");
        if (errors.isArray() && !errors.isEmpty()) {
            JsonNode first = errors.get(0);
            String file = shown(first.path("file").asText(""), base);
            String line = first.hasNonNull("line") ? ":" + first.path("line").asInt() : "";
            throw new ConfigRefused(file + line + ": " + Printable.escape(first.path("error").asText("an error"), 300));
        }
        JsonNode configs = payload.path("config");
        if (!configs.isArray() || configs.isEmpty()) {
            throw new ConfigRefused("crossplane found no config in its input");
        }
        return block(configs.get(0).path("parsed"), shown(configs.get(0).path("file").asText(""), base), configs, base, 0);
    }

    private static List<Directive> block(JsonNode parsed, String file, JsonNode configs, Path base, int depth)
            throws ConfigRefused {
        if (depth > 50) {
            throw new ConfigRefused(file + ": includes nest more than 50 deep (does a file include itself?)");
        }
        List<Directive> out = new ArrayList<>();
        for (JsonNode d : parsed) {
            String name = d.path("directive").asText();
            List<String> args = new ArrayList<>();
            d.path("args").forEach(a -> args.add(a.asText()));
            int line = d.path("line").asInt();
            if (name.equals("include") && d.has("includes")) {
                for (JsonNode index : d.path("includes")) {
                    JsonNode included = configs.get(index.asInt());
                    if (included != null) {
                        out.addAll(block(included.path("parsed"), shown(included.path("file").asText(""), base),
                                configs, base, depth + 1));
                    }
                }
                continue;
            }
            List<Directive> children = d.has("block") ? block(d.path("block"), file, configs, base, depth) : null;
            out.add(new Directive(name, args, file, line, children));
        }
        return out;
    }

    /**
     * Writes {@code tree} as one nginx config file, {@code out}, by crossplane's own builder: its
     * quoting is the one its parser reads back, so a regex location or a quoted string survives the
     * round trip as nginx reads it.
     */
    public static void build(List<Directive> tree, Path out) throws ConfigRefused, IOException, InterruptedException {
        ObjectMapper json = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode payload = json.createObjectNode();
        payload.put("status", "ok");
        payload.putArray("errors");
        com.fasterxml.jackson.databind.node.ObjectNode config = payload.putArray("config").addObject();
        config.put("file", out.getFileName().toString());
        config.put("status", "ok");
        config.putArray("errors");
        config.set("parsed", payload(json, tree));
        Path dir = out.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path file = dir.resolve(out.getFileName() + ".json");
        json.writeValue(file.toFile(), payload);
        ManagedProcess.Outcome built = ManagedProcess.run(List.of(binary().toString(), "build", "--force", "--no-headers",
                "--dir", dir.toString(), file.toString()), dir, Duration.ofSeconds(60));
        Files.deleteIfExists(file);
        if (built.exitCode() != 0) {
            throw new ConfigRefused("crossplane cannot write the rewired config: " + Printable.escape(
                    built.stderr().lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("exit " + built.exitCode()), 300));
        }
    }

    /**
     * {@code message} with each place in {@code built} (the file {@link #build} wrote from {@code tree})
     * given as the place its directive came from: crossplane's builder writes one directive a line and
     * each closing brace on a line of its own.
     */
    static String atSource(String message, Path built, List<Directive> tree) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(built.toString())
                + ":(\\d+)").matcher(message);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Directive d = atBuiltLine(tree, new int[] {1}, Integer.parseInt(m.group(1)));
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(
                    d == null || d.file().isEmpty() ? m.group() : d.file() + ":" + d.line()));
        }
        return m.appendTail(out).toString();
    }

    /** The directive {@link #build} wrote on line {@code target}, counting from {@code next[0]}; null for a brace. */
    static Directive atBuiltLine(List<Directive> block, int[] next, int target) {
        for (Directive d : block) {
            if (next[0]++ == target) {
                return d;
            }
            if (d.block() != null) {
                Directive inner = atBuiltLine(d.block(), next, target);
                if (inner != null) {
                    return inner;
                }
                next[0]++;
            }
        }
        return null;
    }

    private static com.fasterxml.jackson.databind.node.ArrayNode payload(ObjectMapper json, List<Directive> tree) {
        com.fasterxml.jackson.databind.node.ArrayNode out = json.createArrayNode();
        for (Directive d : tree) {
            com.fasterxml.jackson.databind.node.ObjectNode node = out.addObject();
            node.put("directive", d.name());
            node.put("line", d.line());
            com.fasterxml.jackson.databind.node.ArrayNode args = node.putArray("args");
            d.args().forEach(args::add);
            if (d.block() != null) {
                node.set("block", payload(json, d.block()));
            }
        }
        return out;
    }

    private static String shown(String file, Path base) {
        if (file.isEmpty()) {
            return "?";
        }
        Path p = Path.of(file);
        if (base != null && p.isAbsolute() && p.normalize().startsWith(base)) {
            return Printable.shown(base.relativize(p.normalize()).toString());
        }
        return Printable.shown(file);
    }
}
