package dev.ratecache.suite.ownconfig;

import dev.ratecache.suite.explain.Directive;
import dev.ratecache.suite.explain.LocalPaths;
import dev.ratecache.suite.spec.TlsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The copy of a user's config that runs as the front tier here, made through its parsed tree and
 * never by editing its text: every address it listens on or passes to, every file it writes, and
 * what only a production machine has (its user, pid file, TLS files), pointed at the suite's own.
 * Each change is one line of {@link Rewired#changes()}, naming the user's file:line.
 *
 * <ul>
 *   <li>the chosen server listens on the suite's front address and port; every other server, and
 *       stream and mail, are left out (the plans send to that one server);</li>
 *   <li>every upstream's servers, and every proxy_pass to an address, go to {@code target}: the
 *       back tier, or the origin when the back tier's limit is off;</li>
 *   <li>logs, temp and cache folders go under the tier's own prefix (logs/, temp/, cache/);</li>
 *   <li>TLS files the config names that are not here become the throwaway CA's (with TLS), or are
 *       left out with the ssl listens (without);</li>
 *   <li>the suite's JSON access log is added beside the user's at every level that has one, and
 *       its loopback status server beside the user's servers;</li>
 *   <li>a cell with the front limit off leaves out every limit_req and limit_conn directive; with
 *       the cache off, every proxy_cache one.</li>
 * </ul>
 */
public final class Rewire {
    private static final Set<String> LIMITS = Set.of("limit_req", "limit_req_zone", "limit_req_status",
            "limit_req_log_level", "limit_req_dry_run", "limit_conn", "limit_conn_zone", "limit_conn_status",
            "limit_conn_log_level", "limit_conn_dry_run");
    /** Listen parameters that hold only on a production machine or change what a plain client must send. */
    private static final Set<String> LISTEN_KEPT = Set.of("ssl", "http2");

    /**
     * @param listen     the address and port the chosen server listens on
     * @param target     host:port every upstream and proxied address goes to
     * @param limits     whether the config's limit_req and limit_conn stay
     * @param cache      whether its proxy_cache directives stay
     * @param tls        the certificate and key a TLS server takes when its own are not here; empty without TLS
     * @param suiteParts the suite's log_format, access_log and status server, as the front renders them
     * @param logFormat  the name of the suite's log_format
     */
    public record Target(String listen, String target, boolean limits, boolean cache, Optional<TlsFiles> tls,
                         List<Directive> suiteParts, String logFormat) {
    }

    /** The copy, and each change in one line ("nginx.conf:12: listen 80 -> listen 127.0.0.1:18080"). */
    public record Rewired(List<Directive> tree, List<String> changes) {
    }

    private final OwnFront own;
    private final Target to;
    private final List<String> changes = new ArrayList<>();
    private final Set<String> upstreams;

    private Rewire(OwnFront own, Target to) {
        this.own = own;
        this.to = to;
        this.upstreams = LocalPaths.upstreamNames(own.tree());
    }

    public static Rewired of(OwnFront own, Target to) {
        Rewire r = new Rewire(own, to);
        List<Directive> tree = r.main(own.tree());
        return new Rewired(tree, List.copyOf(r.changes));
    }

    private List<Directive> main(List<Directive> level) {
        List<Directive> out = new ArrayList<>();
        for (Directive d : level) {
            if (d.name().equals("stream") || d.name().equals("mail")) {
                drop(d, "the run sends HTTP to one server");
            } else if (d.name().equals("http")) {
                out.add(with(d, http(d)));
            } else {
                common(d).ifPresent(out::add);
            }
        }
        return out;
    }

    private List<Directive> http(Directive http) {
        List<Directive> out = new ArrayList<>();
        Directive suiteLog = part("access_log");
        // The format first: an access_log may name only a format defined above it.
        out.add(part("log_format"));
        if (http.all("access_log").isEmpty()) {
            out.add(suiteLog);
            changes.add("added in http: access_log " + String.join(" ", suiteLog.args())
                    + " (the suite's JSON log, which the report counts requests from)");
        }
        boolean logged = false;
        for (Directive d : http.children()) {
            switch (d.name()) {
                case "server" -> {
                    if (d == own.server().server()) {
                        out.add(with(d, server(d)));
                    } else {
                        List<String> names = d.all("server_name").stream().flatMap(n -> n.args().stream()).toList();
                        changes.add(d.where() + ": server " + (names.isEmpty() ? "(no server_name)" : String.join(" ", names))
                                + " { ... } left out: the run sends to " + own.server().label() + " alone ("
                                + own.server().how() + ")");
                    }
                }
                case "upstream" -> out.add(with(d, upstream(d)));
                default -> {
                    Optional<Directive> kept = common(d);
                    kept.ifPresent(out::add);
                    if (d.name().equals("access_log") && !logged) {
                        out.add(suiteLog);
                        logged = true;
                    }
                }
            }
        }
        for (Directive d : to.suiteParts()) {
            if (d.name().equals("server")) {
                out.add(d);
                changes.add("added in http: the suite's status server on "
                        + d.all("listen").get(0).arg(0) + " (stub_status, loopback only)");
            }
        }
        return out;
    }

    private List<Directive> server(Directive server) {
        List<Directive> out = new ArrayList<>();
        List<Directive> listens = server.all("listen");
        Directive first = listens.stream().filter(l -> to.tls().isPresent() == l.args().contains("ssl")).findFirst()
                .orElse(listens.isEmpty() ? null : listens.get(0));
        if (first == null) {
            List<String> args = new ArrayList<>(List.of(to.listen()));
            if (to.tls().isPresent()) {
                args.add("ssl");
            }
            out.add(new Directive("listen", args, server.file(), server.line(), null));
            changes.add("added at " + server.where() + ": listen " + String.join(" ", args));
        }
        out.addAll(block(server.children(), first, false));
        return out;
    }

    /** A server's, location's or if's directives; {@code listen} is the one listen kept. */
    private List<Directive> block(List<Directive> level, Directive listen, boolean inLocation) {
        List<Directive> out = new ArrayList<>();
        boolean logged = false;
        for (Directive d : level) {
            if (d.name().equals("listen")) {
                if (d == listen) {
                    List<String> args = new ArrayList<>(List.of(to.listen()));
                    d.args().stream().skip(1).filter(LISTEN_KEPT::contains)
                            .filter(a -> to.tls().isPresent() || !a.equals("ssl")).forEach(args::add);
                    out.add(changed(d, args));
                } else {
                    drop(d, "the server listens on the suite's front port alone");
                }
                continue;
            }
            if (d.name().equals("location") || d.name().equals("if") || d.name().equals("limit_except")) {
                out.add(with(d, block(d.children(), null, true)));
                continue;
            }
            if (d.name().equals("proxy_pass")) {
                out.add(proxyPass(d));
                continue;
            }
            Optional<Directive> kept = common(d);
            kept.ifPresent(out::add);
            if (d.name().equals("access_log") && !logged) {
                // A level with an access_log of its own inherits none from above: the suite's goes beside it.
                out.add(part("access_log"));
                logged = true;
            }
        }
        return out;
    }

    private List<Directive> upstream(Directive upstream) {
        List<Directive> out = new ArrayList<>();
        boolean placed = false;
        for (Directive d : upstream.children()) {
            if (d.name().equals("server")) {
                if (!placed) {
                    out.add(changed(d, List.of(to.target())));
                    placed = true;
                } else {
                    drop(d, "every server of upstream " + upstream.arg(0) + " is the suite's " + to.target());
                }
            } else {
                out.add(d);
            }
        }
        return out;
    }

    /** proxy_pass to an upstream stays (its servers are rewired) over plain HTTP; to an address, goes to the target. */
    private Directive proxyPass(Directive d) {
        String url = d.arg(0);
        String host = host(url);
        String uri = uri(url);
        if (host.contains("$")) {
            // Not a path the plans send (OwnFrontReader refuses those): nginx resolves it only when a request comes.
            return d;
        }
        String rewritten = "http://" + (upstreams.contains(host) ? host : to.target()) + uri;
        return rewritten.equals(url) ? d : changed(d, List.of(rewritten));
    }

    /** proxy_pass's host and port ("app", "10.0.0.1:8080", "unix:/run/app.sock"). */
    static String host(String url) {
        String rest = url.replaceFirst("^[A-Za-z]+://", "");
        if (rest.startsWith("unix:")) {
            int colon = rest.indexOf(':', 5);
            return colon < 0 ? rest : rest.substring(0, colon);
        }
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }

    /** proxy_pass's URI part after its host ("" for none). */
    static String uri(String url) {
        String rest = url.replaceFirst("^[A-Za-z]+://", "");
        String host = host(url);
        String after = rest.substring(host.length());
        return host.startsWith("unix:") && after.startsWith(":") ? after.substring(1) : after;
    }

    /** What every level shares: logs, temp folders, TLS files, and the limits and cache a cell leaves out. */
    private Optional<Directive> common(Directive d) {
        String name = d.name();
        if (!to.limits() && LIMITS.contains(name)) {
            drop(d, "this cell runs without the config's limits");
            return Optional.empty();
        }
        boolean cacheDirective = name.startsWith("proxy_cache") || name.equals("proxy_no_cache");
        if (!to.cache() && cacheDirective) {
            drop(d, "this cell runs without the config's cache");
            return Optional.empty();
        }
        if (name.equals("access_log") && d.arg(0).equals("off")) {
            drop(d, "the suite's JSON access log goes in its place: the report counts requests from it");
            return Optional.empty();
        }
        Path certificate = to.tls().map(TlsFiles::certificate).orElse(null);
        Path key = to.tls().map(TlsFiles::key).orElse(null);
        LocalPaths.Outcome here = LocalPaths.of(d, own.folder(), certificate, key);
        if (here.changed()) {
            changes.add(d.where() + ": " + (d.block() == null ? d.text() : d.text() + " { ... }") + " " + here.why());
            if (here.directive().isEmpty()) {
                return Optional.empty();
            }
            d = here.directive().get();
        }
        if (d.block() != null && !d.name().equals("map") && !d.name().equals("geo") && !d.name().equals("types")
                && !d.name().equals("split_clients") && !d.name().endsWith("_by_lua_block")) {
            return Optional.of(with(d, d.children().stream().map(this::common).flatMap(Optional::stream).toList()));
        }
        return Optional.of(d);
    }

    private Directive part(String name) {
        return to.suiteParts().stream().filter(d -> d.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the suite's front has no " + name));
    }

    private static Directive with(Directive d, List<Directive> block) {
        return new Directive(d.name(), d.args(), d.file(), d.line(), block);
    }

    private Directive changed(Directive d, List<String> args) {
        Directive after = new Directive(d.name(), args, d.file(), d.line(), d.block());
        if (!after.args().equals(d.args())) {
            changes.add(d.where() + ": " + d.text() + " -> " + after.text());
        }
        return after;
    }

    private void drop(Directive d, String why) {
        changes.add(d.where() + ": " + (d.block() == null ? d.text() : d.text() + " { ... }") + " left out: " + why);
    }
}
