package dev.ratecache.suite.advise;

import dev.ratecache.suite.explain.ConfigSpec;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import dev.ratecache.suite.explain.Directive;
import dev.ratecache.suite.explain.Extractor;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The one server block of a user's config whose requests a log holds: the one {@code --server-name}
 * names (nginx's order: the exact name, then the longest wildcard starting with *, then ending with
 * *, then the first regex), or by default the default server of the first listen (the server marked
 * {@code default_server} on that address and port, else the first that listens there), as nginx
 * picks for a request whose Host no server names.
 *
 * @param label       the server as explain labels it, with its file:line
 * @param name        its first server_name ("" when none), for {@code $server_name}
 * @param how         how it was chosen, in words
 * @param server      its server directive
 * @param index       its place among the config's servers (and {@link ConfigSpec#servers()})
 * @param spec        the config's spec
 * @param serverLevel what is in force for a path none of its locations matches
 */
public record ChosenServer(String label, String name, String how, Directive server, int index, ConfigSpec spec,
                           Place serverLevel) {

    /** Why no server could be chosen, in one line. */
    public static final class NoServer extends Exception {
        public NoServer(String message) {
            super(message);
        }
    }

    /** The servers of {@code tree}'s http blocks, in the order written: what {@link #of(List, int, String)} counts. */
    public static List<Directive> servers(List<Directive> tree) {
        List<Directive> servers = new ArrayList<>();
        for (Directive http : tree.stream().filter(d -> d.name().equals("http")).toList()) {
            servers.addAll(http.all("server"));
        }
        return servers;
    }

    /** The server at {@code index} among {@link #servers}, chosen as {@code how} says. */
    public static ChosenServer of(List<Directive> tree, int index, String how) {
        return chosen(tree, servers(tree), index, how);
    }

    /** The server of {@code tree} (the config read, includes spliced) for {@code serverName} (null: the default). */
    public static ChosenServer of(List<Directive> tree, String serverName) throws NoServer {
        List<Directive> servers = servers(tree);
        if (servers.isEmpty()) {
            throw new NoServer("the config has no server block in http: no request of the log could reach it");
        }
        int index;
        String how;
        if (serverName != null) {
            index = named(servers, serverName);
            if (index < 0) {
                List<String> names = servers.stream().flatMap(s -> names(s).stream()).filter(n -> !n.isEmpty()).toList();
                throw new NoServer("--server-name " + serverName + ": no server of the config is named so (its names: "
                        + (names.isEmpty() ? "none" : String.join(", ", names)) + ")");
            }
            how = "named by --server-name " + serverName;
        } else {
            index = byDefault(servers);
            how = "the default server of the config's first listen (" + listenOf(servers.get(index)) + "); choose another"
                    + " with --server-name";
        }
        return chosen(tree, servers, index, how);
    }

    private static ChosenServer chosen(List<Directive> tree, List<Directive> servers, int index, String how) {
        ConfigSpec spec = Extractor.extract(tree);
        Directive server = servers.get(index);
        // What a path no location matches gets: the server's own level, read by the same extraction from a
        // copy of the config whose chosen server has no locations (explain gives that place only then).
        ConfigSpec bare = Extractor.extract(withoutLocations(tree, server));
        Place serverLevel = bare.servers().get(index).places().get(0);
        List<String> names = names(server);
        return new ChosenServer(spec.servers().get(index).label(), names.isEmpty() ? "" : names.get(0), how, server, index,
                spec, serverLevel);
    }

    /** The search of its locations and the limits in force at each, for {@link WhatIf}. */
    public WhatIf.Target target() {
        Map<Directive, Place> places = new IdentityHashMap<>();
        List<Directive> locations = new ArrayList<>();
        inOrder(server, locations);
        List<Place> extracted = spec.servers().get(index).places();
        // explain lists a server's places in the order its locations are written, nested ones after their parent;
        // a server with none has one place, for every path, which is the server level.
        for (int i = 0; i < locations.size() && i < extracted.size(); i++) {
            places.put(locations.get(i), extracted.get(i));
        }
        return new WhatIf.Target(name, LocationMatch.of(server),
                location -> location.map(d -> places.getOrDefault(d, serverLevel)).orElse(serverLevel));
    }

    private static void inOrder(Directive parent, List<Directive> out) {
        for (Directive location : parent.all("location")) {
            out.add(location);
            inOrder(location, out);
        }
    }

    private static List<String> names(Directive server) {
        return server.all("server_name").stream().flatMap(d -> d.args().stream()).toList();
    }

    /** nginx's priority: exact, longest leading *, longest trailing *, then the first regex that matches. */
    static int named(List<Directive> servers, String host) {
        String h = host.toLowerCase(Locale.ROOT);
        for (int i = 0; i < servers.size(); i++) {
            for (String n : names(servers.get(i))) {
                if (n.toLowerCase(Locale.ROOT).equals(h) || n.startsWith(".") && n.substring(1).equalsIgnoreCase(h)) {
                    return i;
                }
            }
        }
        int best = -1;
        int bestLength = -1;
        for (boolean leading : new boolean[] {true, false}) {
            for (int i = 0; i < servers.size(); i++) {
                for (String n : names(servers.get(i))) {
                    String ln = n.toLowerCase(Locale.ROOT);
                    boolean fits = leading ? (ln.startsWith("*.") && h.endsWith(ln.substring(1)))
                            || (ln.startsWith(".") && h.endsWith(ln))
                            : ln.endsWith(".*") && h.startsWith(ln.substring(0, ln.length() - 1));
                    if (fits && ln.length() > bestLength) {
                        best = i;
                        bestLength = ln.length();
                    }
                }
            }
            if (best >= 0) {
                return best;
            }
        }
        for (int i = 0; i < servers.size(); i++) {
            for (String n : names(servers.get(i))) {
                if (n.startsWith("~")) {
                    try {
                        if (Pattern.compile(n.substring(1)).matcher(host).find()) {
                            return i;
                        }
                    } catch (PatternSyntaxException e) {
                        // nginx's PCRE reads what Java cannot; such a name is not matched here.
                    }
                }
            }
        }
        return -1;
    }

    /** The first listen's address and port as nginx compares them ("*:80" for a bare port). */
    static String listenOf(Directive server) {
        Optional<Directive> listen = server.all("listen").stream().findFirst();
        if (listen.isEmpty()) {
            // No listen: *:80 (nginx's default when it runs as root, as a production nginx does).
            return "*:80";
        }
        return address(listen.get());
    }

    private static String address(Directive listen) {
        String a = listen.arg(0);
        if (a.matches("\\d+")) {
            return "*:" + a;
        }
        if (!a.contains(":") || a.startsWith("unix:")) {
            return a + (a.startsWith("unix:") ? "" : ":80");
        }
        return a;
    }

    private static boolean isDefault(Directive server, String listen) {
        return server.all("listen").stream().anyMatch(l -> (l.args().contains("default_server") || l.args().contains("default"))
                && address(l).equals(listen));
    }

    static int byDefault(List<Directive> servers) {
        String first = listenOf(servers.get(0));
        for (int i = 0; i < servers.size(); i++) {
            if (isDefault(servers.get(i), first)) {
                return i;
            }
        }
        for (int i = 0; i < servers.size(); i++) {
            Directive s = servers.get(i);
            boolean there = s.all("listen").isEmpty() ? first.equals("*:80")
                    : s.all("listen").stream().anyMatch(l -> address(l).equals(first));
            if (there) {
                return i;
            }
        }
        return 0;
    }

    /** {@code tree} with {@code server}'s location blocks (and only its) left out. */
    private static List<Directive> withoutLocations(List<Directive> tree, Directive server) {
        List<Directive> out = new ArrayList<>();
        for (Directive d : tree) {
            if (d == server) {
                out.add(new Directive(d.name(), d.args(), d.file(), d.line(),
                        d.children().stream().filter(c -> !c.name().equals("location")).toList()));
            } else if (d.block() != null && d.name().equals("http")) {
                out.add(new Directive(d.name(), d.args(), d.file(), d.line(), withoutLocations(d.children(), server)));
            } else {
                out.add(d);
            }
        }
        return out;
    }
}
