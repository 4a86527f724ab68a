package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.UserFile;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** Writes the rendered configs of both tiers, for reading or copying; starts nothing. */
@Command(name = "render", mixinStandardHelpOptions = true, abbreviateSynopsis = true,
        description = "Write the configs of both tiers, rendered with these switches, to DIR/front and DIR/back:"
                + " nginx's, or with --edge HAProxy's or Varnish's.")
final class RenderCommand implements Callable<Integer> {
    /**
     * The folders (and HAProxy's or Varnish's two files, and HAProxy's maps) of DIR render writes,
     * and so owns: a render into a used DIR leaves none of the last one's files behind (a tier, an
     * edge, a throwaway key or another product's config it no longer makes). Everything else in DIR
     * is the user's.
     */
    private static final Pattern OWNED = Pattern.compile(
            "front|front-\\d+|back|balancer|tls|(front|back)\\.(cfg|vcl)|(tiers|freshness)\\.map");

    /**
     * The mark render leaves in DIR: the names of the entries it wrote there, one a line. A later
     * render replaces those and no others, so that a front/ or tls/ of the user's own, in a folder
     * render never wrote to or beside its files, is never deleted: it is refused instead.
     */
    static final String MARK = ".ratecache-render";
    private static final String MARK_HEADER = "# ./run-tests.sh render wrote the entries below; the next render into"
            + " this folder replaces them and touches nothing else.";

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    StackSwitches switches = new StackSwitches();

    @Option(names = "--edge", paramLabel = "PRODUCT",
            description = "Whose configs (${COMPLETION-CANDIDATES}), from that product's folder. A product that only"
                    + " rejects over a limit, never queueing, needs --front-mode and --back-mode nodelay. A run and up"
                    + " take --edge too. Default: nginx.")
    EdgeProduct edge = EdgeProduct.DEFAULT;

    @Option(names = "--portable",
            description = "Render nginx's configs to copy to any Debian machine, whatever this one has installed:"
                    + " Debian's optional modules (njs, cache purge, headers-more) loaded from /usr/lib/nginx/modules/,"
                    + " the Lua Redis client from Debian's lua-nginx-redis, the Age module looked for in the prefix's"
                    + " modules/, no path of this checkout, and tls/ left for your own certificate and key (no"
                    + " throwaway CA). examples/ is rendered this way. HAProxy's and Varnish's configs are the same"
                    + " either way.")
    boolean portable;

    @Parameters(paramLabel = "DIR", description = "Output folder (not the current one by '', nor /). Its front/,"
            + " front-N/, back/, balancer/, tls/ and front.cfg, back.cfg, front.vcl, back.vcl, tiers.map, freshness.map"
            + " are replaced when an earlier render wrote them (it lists them in DIR/" + MARK + "); one it did not"
            + " write is refused, never deleted. Nothing else in it is touched.")
    Path dir;

    @Override
    public Integer call() throws Exception {
        List<String> problems = new ArrayList<>(switches.problems());
        problems.addAll(ports.problems(switches));
        RunFolders.notAFolder(dir, "DIR").ifPresent(problems::add);
        problems.addAll(inFoldersItClears());
        if (problems.isEmpty()) {
            notItsOwn().ifPresent(problems::add);
        }
        if (problems.isEmpty()) {
            edge.refusal(switches, ports).ifPresent(problems::add);
        }
        Refuse.ifAny(spec, problems);
        clearOwnFolders();
        StackSpec stack = switches.spec(ports);
        // --tls without a certificate of your own: a throwaway CA in DIR/tls, its ca.pem for curl --cacert.
        // Portable configs (nginx's) name tls/server.pem and tls/server.key and copy no key at all.
        Optional<Edge> portableEdge = portable ? edge.portableAdapter() : Optional.empty();
        if (portableEdge.isEmpty()) {
            stack = Stack.withTls(stack, dir);
        }
        for (Path file : portableEdge.orElseGet(edge::adapter).render(stack, dir)) {
            spec.commandLine().getOut().println(Printable.shown(file.toString()));
        }
        mark();
        return 0;
    }

    static boolean owned(Path child) {
        return OWNED.matcher(child.getFileName().toString()).matches();
    }

    /** The files given to render that lie in a folder it clears first: it would delete them before reading them. */
    private List<String> inFoldersItClears() {
        Map<String, Path> given = new LinkedHashMap<>();
        switches.tlsFiles().ifPresent(tls -> {
            given.put("--tls-cert", tls.certificate());
            given.put("--tls-key", tls.key());
        });
        if (switches.tiersFile() != null) {
            given.put("--tiers", switches.tiersFile());
        }
        Path out = dir.toAbsolutePath().normalize();
        List<String> problems = new ArrayList<>();
        given.forEach((flag, file) -> {
            Path absolute = file.toAbsolutePath().normalize();
            Path within = out.relativize(absolute);
            if (absolute.startsWith(out) && within.getNameCount() > 1 && owned(within.getName(0))) {
                problems.add(flag + " " + Printable.shown(file.toString()) + " is in " + within.getName(0) + "/ of DIR, which render clears"
                        + " before it writes: copy the file out of DIR first");
            }
        });
        return problems;
    }

    /** The entries of DIR render would replace that its mark does not list: the user's, refused in one line. */
    private Optional<String> notItsOwn() throws IOException {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        Set<String> marked = marked();
        List<String> foreign;
        try (Stream<Path> children = Files.list(dir)) {
            foreign = children.filter(RenderCommand::owned).map(c -> c.getFileName().toString())
                    .filter(name -> !marked.contains(name)).sorted().toList();
        }
        if (foreign.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("DIR " + Printable.shown(dir.toString()) + " holds " + String.join(", ", foreign)
                + ", which render did not write there (" + MARK + " does not list " + (foreign.size() == 1 ? "it" : "them")
                + "), and render replaces what it writes: move " + (foreign.size() == 1 ? "it" : "them")
                + " away, or give an empty or new folder");
    }

    /** The names the mark in DIR lists; none when there is no mark, or it is no file of render's. */
    private Set<String> marked() {
        Path mark = dir.resolve(MARK);
        if (!Files.isRegularFile(mark, LinkOption.NOFOLLOW_LINKS)) {
            return Set.of();
        }
        try {
            return UserFile.lines(mark, UserFile.SMALL).stream().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#") && OWNED.matcher(l).matches())
                    .collect(Collectors.toSet());
        } catch (IOException e) {
            return Set.of();
        }
    }

    /** Deletes what the mark lists, and nothing else: {@link #notItsOwn} refused DIR if anything else was in the way. */
    private void clearOwnFolders() throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        Set<String> marked = marked();
        List<Path> owned;
        try (Stream<Path> children = Files.list(dir)) {
            owned = children.filter(c -> owned(c) && marked.contains(c.getFileName().toString())).toList();
        }
        for (Path folder : owned) {
            // Files.walk follows no links: a link in DIR is removed, never what it points to.
            try (Stream<Path> all = Files.walk(folder)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** Leaves the mark: every entry of DIR render replaces is one it has just written. */
    private void mark() throws IOException {
        List<String> written;
        try (Stream<Path> children = Files.list(dir)) {
            written = children.filter(RenderCommand::owned).map(c -> c.getFileName().toString()).sorted().toList();
        }
        Files.deleteIfExists(dir.resolve(MARK));
        Files.writeString(dir.resolve(MARK), MARK_HEADER + "\n" + String.join("\n", written) + "\n",
                StandardCharsets.UTF_8);
    }
}
