package dev.ratecache.suite.ownconfig;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.advise.ChosenServer;
import dev.ratecache.suite.advise.LocationMatch;
import dev.ratecache.suite.advise.WhatIf;
import dev.ratecache.suite.explain.ConfigReader;
import dev.ratecache.suite.explain.ConfigRefused;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import dev.ratecache.suite.explain.Directive;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a user's config for the front tier's place (--nginx-conf, --server-name, --path), and
 * refuses in one line, naming the directive and its file:line, what cannot run here: a path the
 * plans would send that the config answers itself or passes to FastCGI, uwsgi, SCGI or gRPC (the
 * origin speaks HTTP), or to an address only a resolver knows at run time.
 */
public final class OwnFrontReader {
    /** A --path value: the path, and optionally =ENDPOINT. */
    private static final Pattern PATH_FLAG = Pattern.compile("(/[^\\s\"'=?#,]*)(?:=(hare|tortoise|snail))?");
    /** The most paths the plans take: the load plan's three. */
    static final int MOST_PATHS = 3;
    private static final Set<String> NON_HTTP = Set.of("fastcgi_pass", "uwsgi_pass", "scgi_pass", "grpc_pass",
            "memcached_pass");

    private OwnFrontReader() {}

    /**
     * @param serverName --server-name, or null for the default server of the first listen
     * @param pathFlags  --path values (PATH or PATH=hare|tortoise|snail); none: one per location that passes upstream
     * @param work       a folder of the run's own, for nginx -t
     */
    public static OwnFront read(Path file, String serverName, List<String> pathFlags, Path work)
            throws ConfigRefused, IOException, InterruptedException {
        ConfigReader.Read read = ConfigReader.read(file, work);
        ChosenServer server;
        try {
            server = ChosenServer.of(read.tree(), serverName);
        } catch (ChosenServer.NoServer e) {
            throw new ConfigRefused(Printable.shown(file.toString()) + ": " + e.getMessage().replace(
                    "no request of the log could reach it", "there is nothing to send requests to"));
        }
        List<OwnFront.PlanPath> paths = new ArrayList<>();
        if (pathFlags.isEmpty()) {
            Proxying chosen = new Proxying(server, proxied(server));
            if (serverName == null && chosen.paths().isEmpty()) {
                chosen = firstThatProxies(read.tree(), server).orElse(chosen);
            }
            server = chosen.server();
            paths.addAll(chosen.paths());
        }
        WhatIf.Target target = server.target();
        if (pathFlags.isEmpty()) {
            if (paths.isEmpty()) {
                for (String path : discovered(server.server())) {
                    refuseWhatCannotRun(server.server(), target, path);
                }
                throw new ConfigRefused(server.label() + ": none of its locations passes requests upstream (proxy_pass)"
                        + " with a path the suite can tell: give one with --path /PATH");
            }
        } else {
            if (pathFlags.size() > MOST_PATHS) {
                throw new ConfigRefused("--path is given " + pathFlags.size() + " times: the plans send at most "
                        + MOST_PATHS + " paths (the load plan's three)");
            }
            for (String flag : pathFlags) {
                var m = PATH_FLAG.matcher(flag);
                if (!m.matches()) {
                    throw new ConfigRefused("--path takes /PATH or /PATH=hare|tortoise|snail, with no spaces, quotes,"
                            + " commas, query or fragment (got '" + Printable.escape(flag, 120) + "')");
                }
                String path = m.group(1);
                Place place = placeOf(target, path);
                refuseWhatCannotRun(server.server(), target, path);
                if (!passesUpstream(place)) {
                    throw new ConfigRefused("--path " + path + ": " + place.label() + " at " + place.where()
                            + (place.returns() != null ? " answers it itself (return at " + place.returns() + ")"
                            : " passes nothing upstream (no proxy_pass)") + ": give a path the config proxies");
                }
                paths.add(new OwnFront.PlanPath(path, m.group(2) == null ? "hare" : m.group(2), place));
            }
        }
        for (OwnFront.PlanPath p : paths) {
            refuseWhatCannotRun(server.server(), target, p.path());
        }
        boolean tls = server.server().all("listen").stream().noneMatch(l -> !l.args().contains("ssl"))
                && !server.server().all("listen").isEmpty();
        return new OwnFront(file, file.toAbsolutePath().normalize().getParent(), read.tree(), server, paths, tls);
    }

    /** A path for each of the server's locations that passes requests upstream, the first {@value #MOST_PATHS}. */
    private static List<OwnFront.PlanPath> proxied(ChosenServer server) throws ConfigRefused {
        WhatIf.Target target = server.target();
        List<OwnFront.PlanPath> paths = new ArrayList<>();
        for (String path : discovered(server.server())) {
            Place place = placeOf(target, path);
            if (passesUpstream(place) && paths.size() < MOST_PATHS) {
                paths.add(new OwnFront.PlanPath(path, "hare", place));
            }
        }
        return paths;
    }

    /** A server and the paths of its locations that pass requests upstream. */
    private record Proxying(ChosenServer server, List<OwnFront.PlanPath> paths) {}

    /**
     * The first other server that passes requests upstream, when the default one does not: a config's
     * first server is often the one that only redirects cleartext to HTTPS (return 301), and its API is
     * the next. Empty when none does (the default's refusal then says why).
     */
    private static java.util.Optional<Proxying> firstThatProxies(List<Directive> tree, ChosenServer notThis) {
        List<Directive> servers = ChosenServer.servers(tree);
        for (int i = 0; i < servers.size(); i++) {
            if (i == notThis.index()) {
                continue;
            }
            ChosenServer other = ChosenServer.of(tree, i, "the first server that passes requests upstream, since the"
                    + " default server of the config's first listen (" + notThis.label() + ") passes none; choose"
                    + " another with --server-name");
            try {
                List<OwnFront.PlanPath> paths = proxied(other);
                if (!paths.isEmpty()) {
                    return java.util.Optional.of(new Proxying(other, paths));
                }
            } catch (ConfigRefused e) {
                // A server whose locations cannot be told is no better a choice.
            }
        }
        return java.util.Optional.empty();
    }

    private static Place placeOf(WhatIf.Target target, String path) throws ConfigRefused {
        LocationMatch.Match match = target.locations().match(path);
        if (!match.known()) {
            throw new ConfigRefused("path " + path + ": the location that answers it cannot be told: " + match.unreadable());
        }
        return target.placeOf().apply(match.location());
    }

    private static boolean passesUpstream(Place place) {
        return place.upstream() != null && place.returns() == null;
    }

    /** A path for each location written with one (prefix, ^~ and =), in the order written; regexes and named ones have none. */
    private static List<String> discovered(Directive server) {
        Set<String> paths = new LinkedHashSet<>();
        collect(server, paths);
        return new ArrayList<>(paths);
    }

    private static void collect(Directive parent, Set<String> paths) {
        for (Directive location : parent.all("location")) {
            List<String> a = location.args();
            String path = a.size() == 2 && (a.get(0).equals("=") || a.get(0).equals("^~")) ? a.get(1)
                    : a.size() == 1 && a.get(0).startsWith("=/") ? a.get(0).substring(1)
                    : a.size() == 1 && a.get(0).startsWith("^~/") ? a.get(0).substring(2)
                    : a.size() == 1 && a.get(0).startsWith("/") ? a.get(0) : null;
            if (path != null && PATH_FLAG.matcher(path).matches()) {
                paths.add(path);
            }
            collect(location, paths);
        }
    }

    /** The location answering {@code path}: refused if it passes it to a protocol the origin does not speak, or by resolver alone. */
    private static void refuseWhatCannotRun(Directive server, WhatIf.Target target, String path) throws ConfigRefused {
        Optional<Directive> location = target.locations().match(path).location();
        Directive level = location.orElse(server);
        for (Directive d : level.children()) {
            if (NON_HTTP.contains(d.name())) {
                throw new ConfigRefused(d.where() + ": " + d.text() + ": the plans' path " + path + " goes there, and the"
                        + " suite's origin speaks HTTP only: give --path for a location with proxy_pass");
            }
            if (d.name().equals("proxy_pass") && Rewire.host(d.arg(0)).contains("$")) {
                throw new ConfigRefused(d.where() + ": " + d.text() + ": the plans' path " + path + " goes to an address"
                        + " a variable gives at run time (resolved by resolver), which the suite cannot point at its"
                        + " tiers: give --path for a location whose proxy_pass names an upstream or an address");
            }
        }
    }
}
