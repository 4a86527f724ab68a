package dev.ratecache.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A product is one adapter: outside its own places no main source file of the suite names a
 * product, so the commit that adds the next one touches only what docs/architecture.md lists
 * ("A new edge product"). A product is named by its registration constant, its adapter's class or
 * a switch on it; the files that name one for a reason of their own are listed here with it.
 */
class ProductNamesTest {
    private static final Path SOURCES = Path.of("suite/src/main/java/dev/ratecache/suite");
    /** Every registered product's constant and adapter class: a product added later is watched with no change here. */
    private static final Pattern PRODUCT = products();

    private static Pattern products() {
        String constants = java.util.Arrays.stream(dev.ratecache.suite.edge.EdgeProduct.values()).map(Enum::name)
                .collect(java.util.stream.Collectors.joining("|"));
        String adapters = java.util.Arrays.stream(dev.ratecache.suite.edge.EdgeProduct.values())
                .map(p -> p.adapter().getClass().getSimpleName()).collect(java.util.stream.Collectors.joining("|"));
        return Pattern.compile("\\bEdgeProduct\\.(" + constants + ")\\b|\\b(" + adapters + ")\\b|\\bcase ("
                + constants + ")\\b");
    }
    private static final Pattern BLOCK_COMMENT = Pattern.compile("/\\*.*?\\*/", Pattern.DOTALL);
    /** A line comment; not the slashes of a URL in a string. */
    private static final Pattern LINE_COMMENT = Pattern.compile("(?<!:)//[^\\n]*");

    /**
     * Packages of one product's own: the adapters and their registration (edge), nginx's renderer
     * and processes (nginx), the readers of a user's own nginx config (explain, ownconfig, advise,
     * ingress), and the experiments, each of the products it reproduces (reproduce).
     */
    private static final Set<String> OWN_PACKAGES = Set.of("edge", "nginx", "explain", "ownconfig", "advise",
            "ingress", "reproduce");

    /** Files elsewhere that name a product, each for the reason given. */
    private static final Map<String, String> REASONS = Map.of(
            "cli/MatrixCommand.java", "--nginx-conf and --ingress run the user's own nginx config, which only nginx runs");

    @Test
    void noFileOutsideAProductsOwnPlacesNamesAProduct() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Repo.root().resolve(SOURCES))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String relative = Repo.root().resolve(SOURCES).relativize(file).toString().replace('\\', '/');
                String pkg = relative.contains("/") ? relative.substring(0, relative.indexOf('/')) : "";
                if (OWN_PACKAGES.contains(pkg) || REASONS.containsKey(relative)) {
                    continue;
                }
                String code = code(Files.readString(file, StandardCharsets.UTF_8));
                Matcher m = PRODUCT.matcher(code);
                while (m.find()) {
                    int line = (int) code.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
                    found.add(relative + ":" + line + ": " + m.group());
                }
            }
        }
        assertThat(found).as("places outside a product's own that name one (ask the adapter: Edge, EdgeProduct's"
                + " registration; or give the reason in REASONS)").isEmpty();
    }

    @Test
    void everyReasonIsStillNeeded() throws IOException {
        for (String file : REASONS.keySet()) {
            String code = code(Files.readString(Repo.root().resolve(SOURCES).resolve(file), StandardCharsets.UTF_8));
            assertThat(PRODUCT.matcher(code).find()).as(file + " names no product any more: drop its reason").isTrue();
        }
    }

    /** The source without its comments, each comment's line breaks kept so that line numbers hold. */
    private static String code(String source) {
        String noBlocks = BLOCK_COMMENT.matcher(source).replaceAll(r -> r.group().replaceAll("[^\\n]", ""));
        return LINE_COMMENT.matcher(noBlocks).replaceAll("");
    }
}
