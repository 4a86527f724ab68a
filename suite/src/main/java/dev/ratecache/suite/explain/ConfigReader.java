package dev.ratecache.suite.explain;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.UserFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A user's nginx config read as nginx reads it: checked by {@code nginx -t} (whose [emerg] line is
 * quoted when it refuses), then parsed by crossplane with every include. A file of server blocks
 * alone (a sites-enabled or conf.d file) is read as nginx reads it from its own nginx.conf: inside
 * an {@code http} block of a main file written for the check.
 */
public final class ConfigReader {
    /** Directives of the http level that tell a file of them from a main file (which has http and events). */
    private static final java.util.Set<String> HTTP_LEVEL = java.util.Set.of("server", "upstream", "map", "geo",
            "limit_req_zone", "limit_conn_zone", "proxy_cache_path", "split_clients", "log_format", "limit_req",
            "proxy_cache");

    /** nginx -t's words for a path or account of the machine a config was written for, which this one lacks. */
    private static final java.util.regex.Pattern MACHINES_OWN = java.util.regex.Pattern.compile(
            "\\b(open|mkdir|chown|fopen|getpwnam|getgrnam|BIO_new_file|PEM_read_bio)\\w*\\(|cannot load certificate"
            + "|Permission denied|No such file or directory|host not found in upstream");

    private ConfigReader() {}

    /** Whether nginx or crossplane refused for what is only the config's own machine's (its files, users, hosts). */
    private static boolean machinesOwn(ConfigRefused refusal) {
        return MACHINES_OWN.matcher(refusal.getMessage()).find();
    }

    /**
     * @param tree    the main file's directives, includes spliced in
     * @param checked what nginx -t said, in words
     * @param wrapped the file held server blocks alone and was read inside an http block
     */
    public record Read(List<Directive> tree, String checked, boolean wrapped) {
    }

    /**
     * Reads {@code file}, using {@code work} (a folder of the run's own) for nginx's prefix and the
     * wrapping main file.
     *
     * @throws ConfigRefused in one line: the file cannot be read, nginx refuses it (its [emerg]
     *                       line), or crossplane cannot parse it
     */
    public static Read read(Path file, Path work) throws ConfigRefused, IOException, InterruptedException {
        Optional<String> problem = UserFile.problem(file);
        if (problem.isPresent()) {
            throw new ConfigRefused(problem.get());
        }
        try {
            byte[] bytes = UserFile.bytes(file, UserFile.SMALL);
            if (bytes.length == 0) {
                throw new ConfigRefused(Printable.shown(file.toString()) + " is empty: give an nginx config");
            }
            if (new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf('\0') >= 0) {
                throw new ConfigRefused(Printable.shown(file.toString()) + " is not a text file (it holds NUL bytes):"
                        + " give an nginx config");
            }
        } catch (UserFile.Refused e) {
            throw new ConfigRefused(e.getMessage());
        }
        Path main = file.toAbsolutePath().normalize();
        Path base = main.getParent();
        Files.createDirectories(work);
        String json;
        try {
            json = Crossplane.json(main);
        } catch (ConfigRefused e) {
            // nginx's own words first, where it has any.
            throw refusedByNginx(main, work).orElse(e);
        }
        List<String> top = Crossplane.topLevel(json);
        // server, upstream, map... at the top and no http or events: a file nginx.conf includes inside http.
        // crossplane leaves out of its tree the directives it finds out of place, so its first error
        // says so when every one of them is.
        boolean wrapped = !top.contains("http") && !top.contains("events")
                && (top.stream().anyMatch(HTTP_LEVEL::contains)
                || Crossplane.firstError(json).filter(e -> e.contains("directive is not allowed here")).isPresent());
        if (wrapped) {
            Path wrapper = work.resolve("explain-main.conf");
            Files.writeString(wrapper, "events {}\nhttp {\n    include \"" + main.toString().replace("\"", "\\\"")
                    + "\";\n}\n");
            main = wrapper;
            json = Crossplane.json(main);
        }
        List<Directive> tree = null;
        ConfigRefused unparsed = null;
        try {
            tree = Crossplane.fromJson(json, base);
            relativeFolders(tree, work.resolve("nginx-t"));
        } catch (ConfigRefused e) {
            // nginx -t says it in its own words first.
            unparsed = e;
        }
        Optional<ConfigRefused> refused = refusedByNginx(main, work);
        if (refused.isPresent() && unparsed != null && machinesOwn(refused.get())
                && !machinesOwn(unparsed)) {
            // nginx stopped at what is only this machine's (a host its own network resolves); the config's own
            // fault, which crossplane found reading it (not a file missing here too), is the one to fix.
            refused = Optional.of(unparsed);
        }
        boolean here = false;
        if (refused.isPresent() && tree != null && machinesOwn(refused.get())) {
            // Written for its own machine (/var/log/nginx, /var/cache, its user, its certificates): checked
            // again with those pointed at the check's prefix, which is all that was wrong with it here.
            Path tls = work.resolve("check-tls");
            dev.ratecache.suite.spec.TlsFiles throwaway = dev.ratecache.suite.nginx.ThrowawayCa.write(tls,
                    List.of("127.0.0.1"));
            Path copy = work.resolve("check").resolve("nginx.conf");
            List<Directive> local = LocalPaths.tree(tree, base, throwaway.certificate(), throwaway.key());
            Crossplane.build(local, copy);
            relativeFolders(local, work.resolve("nginx-t"));
            Optional<ConfigRefused> again = refusedByNginx(copy, work);
            if (again.isEmpty()) {
                refused = Optional.empty();
                here = true;
            } else if (!machinesOwn(again.get())) {
                // Pointed at this machine, it fails for a fault of its own (a directive where nginx allows
                // none): that, not a host its own network resolves, is what to fix, at the user's file and line.
                refused = Optional.of(new ConfigRefused(Crossplane.atSource(again.get().getMessage(), copy, local)));
            }
        }
        if (refused.isPresent()) {
            throw refused.get();
        }
        if (tree == null) {
            tree = Crossplane.fromJson(json, base);
        }
        String checked = !NginxCheck.available() ? "not checked by nginx -t (no nginx here)"
                : here ? "nginx -t takes it once what it names of its own machine (logs, temp and cache folders, user,"
                + " pid, TLS files, upstream hosts) is this one's" : "nginx -t takes it";
        return new Read(tree, checked + (wrapped ? "; read inside an http block, as a file nginx.conf includes" : ""),
                wrapped);
    }

    /**
     * The parent folders, in the check's own prefix, of the relative cache, temp and log paths the
     * config names: nginx makes a path's last folder and opens its logs, but not the folders above,
     * which a config written for its own prefix (nginx -p) has there. Absolute paths are left alone.
     */
    static void relativeFolders(List<Directive> tree, Path prefix) throws IOException {
        for (Directive d : tree) {
            String path = d.arg(0);
            boolean folder = d.name().endsWith("_cache_path") || d.name().endsWith("_temp_path");
            boolean log = d.name().equals("access_log") || d.name().equals("error_log");
            if ((folder || log) && !path.isEmpty() && !path.startsWith("/") && !path.contains("$")
                    && !path.equals("off") && !path.startsWith("syslog:") && !path.equals("stderr")) {
                Path target = prefix.resolve(path).normalize();
                if (target.startsWith(prefix) && target.getParent() != null) {
                    Files.createDirectories(target.getParent());
                }
            }
            relativeFolders(d.children(), prefix);
        }
    }

    private static Optional<ConfigRefused> refusedByNginx(Path main, Path work) throws IOException, InterruptedException {
        if (!NginxCheck.available()) {
            return Optional.empty();
        }
        return NginxCheck.refusal(main, work.resolve("nginx-t")).map(l -> new ConfigRefused("nginx refuses the config: " + l));
    }
}
