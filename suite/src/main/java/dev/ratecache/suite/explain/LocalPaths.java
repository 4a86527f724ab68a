package dev.ratecache.suite.explain;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A user's directive as it can stand on this machine, under an nginx prefix of the suite's own:
 * what a production config names of its machine (its user, pid and lock files, log, temp and cache
 * folders, TLS files) becomes the prefix's logs/, temp/ and cache/, or is left out. Both the check
 * of a config written for another machine (nginx -t cannot open /var/log/nginx as you) and the copy
 * that runs as the front tier go through it.
 */
public final class LocalPaths {
    static final Set<String> PROCESS = Set.of("user", "pid", "daemon", "master_process", "lock_file",
            "working_directory");
    private static final Set<String> TEMP = Set.of("client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path",
            "uwsgi_temp_path", "scgi_temp_path");
    private static final Set<String> TLS_FILES = Set.of("ssl_certificate", "ssl_certificate_key",
            "ssl_trusted_certificate", "ssl_client_certificate", "ssl_dhparam", "ssl_crl", "ssl_stapling_file",
            "ssl_password_file", "ssl_session_ticket_key");

    /**
     * What became of one directive.
     *
     * @param directive the directive as it stands here; empty when it is left out
     * @param why       the change in words for the list of changes; empty when it is as written
     */
    public record Outcome(Optional<Directive> directive, String why) {
        public boolean changed() {
            return !why.isEmpty();
        }
    }

    private LocalPaths() {}

    /**
     * {@code d} as it stands here: {@code folder} is the user's config's own (its relative TLS files
     * are read there); {@code certificate} and {@code key} take the place of TLS files that are not
     * here (null: such a certificate is left out).
     */
    public static Outcome of(Directive d, Path folder, Path certificate, Path key) {
        String name = d.name();
        if (PROCESS.contains(name)) {
            return new Outcome(Optional.empty(), "left out: the suite runs nginx as you, in the foreground, with a pid"
                    + " file of its own");
        }
        if (TEMP.contains(name)) {
            return changed(d, 0, "temp/" + name.replace("_temp_path", ""));
        }
        if (name.equals("error_log") && !d.arg(0).startsWith("syslog:") && !d.arg(0).equals("stderr")) {
            return changed(d, 0, "logs/error.log");
        }
        if (name.equals("access_log") && !d.arg(0).equals("off") && !d.arg(0).startsWith("syslog:")) {
            return changed(d, 0, "logs/your-access.log");
        }
        if (name.equals("proxy_cache_path")) {
            String zone = d.args().stream().filter(a -> a.startsWith("keys_zone=")).findFirst()
                    .map(a -> a.substring("keys_zone=".length()).replaceFirst(":.*", "")).orElse("cache");
            return changed(d, 0, "cache/" + zone.replaceAll("[^A-Za-z0-9_-]", "_"));
        }
        if (TLS_FILES.contains(name)) {
            String value = d.arg(0);
            if (value.contains("$") || value.startsWith("data:") || value.startsWith("engine:")) {
                return new Outcome(Optional.of(d), "");
            }
            Path path = folder.resolve(value).normalize();
            if (Files.isReadable(path)) {
                return path.toString().equals(value) ? new Outcome(Optional.of(d), "") : changed(d, 0, path.toString());
            }
            Path stand = name.equals("ssl_certificate") ? certificate : name.equals("ssl_certificate_key") ? key : null;
            if (stand != null) {
                Outcome o = changed(d, 0, stand.toAbsolutePath().toString());
                return new Outcome(o.directive(), o.why() + " (not here: the throwaway CA's)");
            }
            return new Outcome(Optional.empty(), "left out: the file is not here");
        }
        return new Outcome(Optional.of(d), "");
    }

    /**
     * The whole {@code tree} as it stands here, for nginx -t: every directive through {@link #of},
     * and every upstream server and proxied host on the loopback (nginx -t resolves each name, and
     * the hosts of the config's own network are not known here).
     */
    public static List<Directive> tree(List<Directive> tree, Path folder, Path certificate, Path key) {
        return tree(tree, folder, certificate, key, upstreamNames(tree));
    }

    /** The names of {@code tree}'s upstream blocks: a proxy_pass to one of them names no host. */
    public static java.util.Set<String> upstreamNames(List<Directive> tree) {
        java.util.Set<String> upstreams = new java.util.HashSet<>();
        tree.stream().filter(d -> d.name().equals("http")).forEach(h -> h.all("upstream").forEach(u -> upstreams.add(u.arg(0))));
        return upstreams;
    }

    private static List<Directive> tree(List<Directive> tree, Path folder, Path certificate, Path key,
            java.util.Set<String> upstreams) {
        List<Directive> out = new ArrayList<>();
        for (Directive d : tree) {
            Optional<Directive> here = of(d, folder, certificate, key).directive();
            if (here.isPresent()) {
                Directive h = loopback(here.get(), upstreams);
                out.add(h.block() == null || h.name().endsWith("_by_lua_block") ? h
                        : new Directive(h.name(), h.args(), h.file(), h.line(),
                        tree(h.block(), folder, certificate, key, upstreams)));
            }
        }
        return out;
    }

    /** An upstream's server, or a proxy_pass to a host, with the host on the loopback and its port kept. */
    private static Directive loopback(Directive d, java.util.Set<String> upstreams) {
        boolean upstreamServer = d.name().equals("server") && d.block() == null && !d.args().isEmpty()
                && !d.arg(0).startsWith("unix:");
        boolean proxied = d.name().equals("proxy_pass") && !d.arg(0).contains("$");
        if (!upstreamServer && !proxied) {
            return d;
        }
        String value = d.arg(0);
        String scheme = proxied && value.contains("://") ? value.substring(0, value.indexOf("://") + 3) : "";
        String rest = value.substring(scheme.length());
        int slash = rest.indexOf('/');
        String hostPort = slash < 0 ? rest : rest.substring(0, slash);
        if (hostPort.startsWith("unix:") || (proxied && upstreams.contains(hostPort))) {
            return d;
        }
        int colon = hostPort.lastIndexOf(':');
        String port = colon > 0 && !hostPort.endsWith("]") ? hostPort.substring(colon) : "";
        List<String> args = new ArrayList<>(d.args());
        args.set(0, scheme + "127.0.0.1" + port + (slash < 0 ? "" : rest.substring(slash)));
        return new Directive(d.name(), args, d.file(), d.line(), d.block());
    }

    private static Outcome changed(Directive d, int arg, String value) {
        List<String> args = new ArrayList<>(d.args());
        if (args.isEmpty()) {
            return new Outcome(Optional.of(d), "");
        }
        args.set(arg, value);
        Directive after = new Directive(d.name(), args, d.file(), d.line(), d.block());
        return after.args().equals(d.args()) ? new Outcome(Optional.of(d), "")
                : new Outcome(Optional.of(after), "-> " + after.text());
    }
}
