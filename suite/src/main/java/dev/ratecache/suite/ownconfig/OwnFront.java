package dev.ratecache.suite.ownconfig;

import dev.ratecache.suite.advise.ChosenServer;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import dev.ratecache.suite.explain.Directive;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.spec.UserFront;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A user's own nginx config in the front tier's place (--nginx-conf): the config as read (includes
 * spliced), the one server the plans send to, and the paths they send, each answered by the
 * origin with the delay and freshness of one of its endpoints. {@link Rewire} makes the copy
 * that runs; the matrix's cells switch its limits and cache off by leaving their directives out.
 *
 * @param file   the config as the user named it
 * @param folder the folder its relative paths (TLS files) are read against: its own
 * @param tree   its directives, includes spliced in
 * @param server the server the plans send to
 * @param planPaths what the plans send, one to three paths, and the place that answers each
 * @param tls    whether that server is run with TLS: it listens with ssl alone
 */
public record OwnFront(Path file, Path folder, List<Directive> tree, ChosenServer server, List<PlanPath> planPaths,
                       boolean tls) implements UserFront {

    /** The endpoints whose delay and freshness a path may take (the origin's, appserver's application.yml). */
    public static final List<String> ENDPOINTS = List.of("hare", "tortoise", "snail");

    public OwnFront {
        tree = List.copyOf(tree);
        planPaths = List.copyOf(planPaths);
    }

    /**
     * One path the plans send.
     *
     * @param path     as sent, e.g. /api/
     * @param endpoint the origin endpoint whose delay and freshness it gets (hare, tortoise, snail)
     * @param place    the location that answers it and what is in force there
     */
    public record PlanPath(String path, String endpoint, Place place) {
    }

    @Override
    public List<SentPath> paths() {
        return planPaths.stream().map(p -> new SentPath(p.path(), p.endpoint(), originPath(p))).toList();
    }

    /**
     * The path the origin gets for {@code p}: with a URI in proxy_pass, nginx puts it in place of the
     * part of the path the (prefix or exact) location matched; without one, or with a variable in
     * it, the path as sent.
     */
    static String originPath(PlanPath p) {
        String upstream = p.place().upstream();
        String uri = upstream == null ? "" : Rewire.uri(upstream);
        if (uri.isEmpty() || uri.contains("$")) {
            return p.path();
        }
        String[] location = p.place().location().split(" ");
        String prefix = location[location.length - 1];
        if (location[0].startsWith("~") || !p.path().startsWith(prefix)) {
            return p.path();
        }
        return uri + p.path().substring(prefix.length());
    }

    @Override
    public Path write(StackSpec spec, Path prefix) throws IOException, InterruptedException {
        return OwnFrontConfig.write(this, spec, prefix);
    }

    /** Whether any path the plans send meets a limit_req or limit_conn of the config. */
    @Override
    public boolean limits() {
        return planPaths.stream().anyMatch(p -> !p.place().limits().isEmpty() || !p.place().conns().isEmpty());
    }

    /** Whether any path the plans send meets the config's cache. */
    @Override
    public boolean caches() {
        return planPaths.stream().anyMatch(p -> p.place().cache() != null);
    }

    /** In words, for the run's header: "nginx.conf, server example.com (nginx.conf:12), paths /api/ (as /hare)". */
    @Override
    public String describe() {
        return file.getFileName() + ", " + server.label() + ", paths " + String.join(", ",
                planPaths.stream().map(p -> p.path() + " (" + p.place().label() + ", answered as /" + p.endpoint() + ")").toList());
    }
}
