package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.UserFile;
import dev.ratecache.suite.explain.ConfigRefused;
import dev.ratecache.suite.ownconfig.OwnFront;
import dev.ratecache.suite.ownconfig.OwnFrontReader;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * --nginx-conf, --server-name and --path: the user's own nginx config in the front tier's place,
 * the server the plans send to, and the paths they send. Read once the other flags are checked,
 * with nginx -t and crossplane as explain reads it; what cannot run here is one line.
 */
final class OwnConfigOptions {
    @Option(names = "--nginx-conf", paramLabel = "FILE",
            description = "Your own nginx config as the front tier, instead of the suite's rendered one: a copy with"
                    + " its listens, upstreams, logs, temp and cache folders pointed at the suite's (front/rewired.txt"
                    + " lists each change). Its upstreams go to the back tier, or with --no-back-limit to the origin."
                    + " Cells with the front limit off leave out its limit_req and limit_conn; with the cache off, its"
                    + " proxy_cache. See docs/your-config.md.")
    Path nginxConf;

    @Option(names = "--server-name", paramLabel = "NAME",
            description = "With --nginx-conf: the server block the plans send to, as nginx matches a Host. Default:"
                    + " the default server of the config's first listen.")
    String serverName;

    @Option(names = "--path", paramLabel = "PATH[=ENDPOINT]",
            description = "With --nginx-conf: a path the plans send (up to 3; the stress and flood plans send the first,"
                    + " the load plan all), answered by the origin with the delay and freshness of hare (default),"
                    + " tortoise or snail, e.g. --path /api/=tortoise. Default: one per location that proxies, as written.")
    List<String> paths = new ArrayList<>();

    boolean given() {
        return nginxConf != null;
    }

    /** Flags that need --nginx-conf, given without it: one line each. */
    List<String> orphans() {
        List<String> problems = new ArrayList<>();
        if (nginxConf == null && serverName != null) {
            problems.add("--server-name chooses a server of your config: add --nginx-conf FILE");
        }
        if (nginxConf == null && !paths.isEmpty()) {
            problems.add("--path chooses what the plans send to your config: add --nginx-conf FILE");
        }
        return problems;
    }

    /**
     * Reads the config into {@code switches}' front tier (with TLS when its server listens with ssl
     * alone): the problem in one line when it cannot run here, else empty.
     */
    /** {@link #apply}, its problem (or its failure to read) added to {@code problems}. */
    static void applyOrSay(OwnConfigOptions options, StackSwitches switches, List<String> problems) {
        try {
            options.apply(switches).ifPresent(problems::add);
        } catch (IOException e) {
            problems.add("--nginx-conf cannot be read: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("--nginx-conf: interrupted while nginx -t read it");
        }
    }

    Optional<String> apply(StackSwitches switches) throws IOException, InterruptedException {
        if (nginxConf == null) {
            return Optional.empty();
        }
        Optional<String> unreadable = UserFile.problem(nginxConf);
        if (unreadable.isPresent()) {
            return Optional.of("--nginx-conf " + unreadable.get());
        }
        Path work = Files.createTempDirectory("ratecache-nginx-conf");
        try {
            OwnFront own = OwnFrontReader.read(nginxConf, serverName, paths, work);
            switches.ownFront(own);
            if (own.tls()) {
                switches.tls(true);
            }
            return Optional.empty();
        } catch (ConfigRefused e) {
            String said = e.getMessage();
            return Optional.of(said.startsWith("--") ? said : "--nginx-conf " + Printable.shown(nginxConf.toString())
                    + ": " + said);
        } finally {
            RunFolders.deleteQuietly(work);
        }
    }
}
