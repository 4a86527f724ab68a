package dev.ratecache.suite.ownconfig;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.explain.ConfigRefused;
import dev.ratecache.suite.explain.Crossplane;
import dev.ratecache.suite.explain.Directive;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.spec.StackSpec;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the rewired copy of a user's config into a front tier's folder: conf/nginx.conf, and
 * rewired.txt listing every change. The suite's own parts (its JSON access log, its status
 * server) are the front's own snippets, rendered for the spec and read by the same parser, so the
 * report reads the user's front as it reads a rendered one.
 */
public final class OwnFrontConfig {
    /** The file the front runs, in its prefix's conf/. */
    public static final String FILE = "nginx.conf";
    /** The list of changes, in the front's prefix. */
    public static final String CHANGES = "rewired.txt";

    private OwnFrontConfig() {}

    /** Writes {@code prefix}/conf/nginx.conf and {@code prefix}/rewired.txt for {@code spec}; returns the config. */
    public static Path write(OwnFront own, StackSpec spec, Path prefix) throws IOException, InterruptedException {
        try {
            List<Directive> parts = suiteParts(spec, prefix.resolve("suite-parts"));
            Rewire.Rewired rewired = Rewire.of(own, new Rewire.Target(spec.ports().listen() + ":" + spec.ports().front(),
                    target(spec), spec.front().isPresent(), spec.cache().on(),
                    own.tls() ? spec.tls().flatMap(StackSpec.Tls::files) : java.util.Optional.empty(), parts, "suite"));
            // nginx makes a cache path's last folder, not the cache/ above it.
            Files.createDirectories(prefix.resolve("cache"));
            Path conf = prefix.resolve("conf").resolve(FILE);
            Crossplane.build(rewired.tree(), conf);
            List<String> lines = new ArrayList<>();
            lines.add("# " + own.file() + " as it runs here (conf/" + FILE + "): every change, by the line of your file");
            lines.addAll(rewired.changes());
            Files.write(prefix.resolve(CHANGES), lines);
            return conf;
        } catch (ConfigRefused e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Where the config's upstreams go: the back tier, or with its limit off the origin itself. */
    static String target(StackSpec spec) {
        if (spec.back().isPresent()) {
            return Ports.LOOPBACK + ":" + spec.ports().back();
        }
        URI origin = spec.origins().get(0);
        return origin.getHost() + ":" + (origin.getPort() < 0 ? 80 : origin.getPort());
    }

    /** The suite front's log_format, access_log and status server, rendered for {@code spec} and parsed. */
    private static List<Directive> suiteParts(StackSpec spec, Path dir) throws IOException, InterruptedException,
            ConfigRefused {
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, spec, dir);
        Path wrapper = dir.resolve("parts.conf");
        Files.writeString(wrapper, "events {}\nhttp {\n  include snippets/shared/logging.conf;\n"
                + "  include snippets/shared/status-server.conf;\n}\n");
        List<Directive> tree = Crossplane.parse(wrapper);
        return tree.stream().filter(d -> d.name().equals("http")).findFirst().orElseThrow().children();
    }
}
