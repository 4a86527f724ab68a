package dev.ratecache.suite.cli;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StackPorts ports = new StackPorts();

    @Mixin
    StackSwitches switches = new StackSwitches();

    @Option(names = "--edge", paramLabel = "PRODUCT",
            description = "Whose configs: nginx, haproxy (haproxy/, HAProxy 2.6) or varnish (varnish/, Varnish 7.1 with"
                    + " vsthrottle). HAProxy and Varnish reject over a limit, never queue: give --front-mode and"
                    + " --back-mode nodelay. A run and up take --edge too. Default: nginx.")
    EdgeProduct edge = EdgeProduct.NGINX;

    @Option(names = "--portable",
            description = "Render nginx's configs to copy to any Debian machine, whatever this one has installed:"
                    + " Debian's optional modules (njs, cache purge, headers-more) loaded from /usr/lib/nginx/modules/,"
                    + " the Lua Redis client from Debian's lua-nginx-redis, the Age module looked for in the prefix's"
                    + " modules/, no path of this checkout, and tls/ left for your own certificate and key (no"
                    + " throwaway CA). examples/ is rendered this way. HAProxy's and Varnish's configs are the same"
                    + " either way.")
    boolean portable;

    @Parameters(paramLabel = "DIR", description = "Output folder. Its front/, front-N/, back/, balancer/, tls/ and"
            + " front.cfg, back.cfg, front.vcl, back.vcl, tiers.map, freshness.map are replaced; nothing else in it is"
            + " touched.")
    Path dir;

    @Override
    public Integer call() throws Exception {
        List<String> problems = new ArrayList<>(switches.problems());
        problems.addAll(ports.problems(switches));
        RunFolders.notAFolder(dir, "DIR").ifPresent(problems::add);
        problems.addAll(inFoldersItClears());
        if (problems.isEmpty()) {
            edge.refusal(switches, ports).ifPresent(problems::add);
        }
        Refuse.ifAny(spec, problems);
        clearOwnFolders();
        StackSpec stack = switches.spec(ports);
        // --tls without a certificate of your own: a throwaway CA in DIR/tls, its ca.pem for curl --cacert.
        // Portable nginx configs name tls/server.pem and tls/server.key and copy no key at all.
        if (!(portable && edge == EdgeProduct.NGINX)) {
            stack = Stack.withTls(stack, dir);
        }
        for (Path file : (portable ? edge.portableAdapter() : edge.adapter()).render(stack, dir)) {
            spec.commandLine().getOut().println(file);
        }
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
                problems.add(flag + " " + file + " is in " + within.getName(0) + "/ of DIR, which render clears"
                        + " before it writes: copy the file out of DIR first");
            }
        });
        return problems;
    }

    private void clearOwnFolders() throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> owned;
        try (Stream<Path> children = Files.list(dir)) {
            owned = children.filter(RenderCommand::owned).toList();
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
}
