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

    @Option(names = "--ingress", paramLabel = "FILE.yaml",
            description = "Instead of --nginx-conf: Kubernetes Ingress manifests whose ingress-nginx annotations"
                    + " (limit-rps, limit-rpm, limit-burst-multiplier, limit-connections, limit-whitelist) are run as"
                    + " one controller replica's nginx.conf renders them, by its documented template.")
    Path ingress;

    @Option(names = "--ingress-status", paramLabel = "CODE",
            description = "With --ingress: the controller's configmap limit-req-status-code and"
                    + " limit-conn-status-code. Default: 503, the controller's.")
    int ingressStatus = dev.ratecache.suite.ingress.IngressLimits.DEFAULT_STATUS;

    boolean given() {
        return nginxConf != null || ingress != null;
    }

    /** Flags that need --nginx-conf, given without it: one line each. */
    List<String> orphans() {
        List<String> problems = new ArrayList<>();
        if (!given() && serverName != null) {
            problems.add("--server-name chooses a server of your config: add --nginx-conf FILE");
        }
        if (!given() && !paths.isEmpty()) {
            problems.add("--path chooses what the plans send to your config: add --nginx-conf FILE");
        }
        if (nginxConf != null && ingress != null) {
            problems.add("--nginx-conf and --ingress each give the front tier's config: give one");
        }
        if (ingress == null && ingressStatus != dev.ratecache.suite.ingress.IngressLimits.DEFAULT_STATUS) {
            problems.add("--ingress-status is the ingress-nginx controller's: give it with --ingress");
        }
        if (ingressStatus < 400 || ingressStatus > 599) {
            problems.add("--ingress-status must be an HTTP error status from 400 to 599 (got " + ingressStatus + ")");
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
        if (!given()) {
            return Optional.empty();
        }
        String flag = nginxConf != null ? "--nginx-conf" : "--ingress";
        Optional<String> unreadable = UserFile.problem(nginxConf != null ? nginxConf : ingress);
        if (unreadable.isPresent()) {
            return Optional.of(flag + " " + unreadable.get());
        }
        Path work = Files.createTempDirectory("ratecache-nginx-conf");
        try {
            Path config = nginxConf;
            if (ingress != null) {
                // One replica's config, as the controller's template renders the annotations; run as any other.
                config = Files.writeString(work.resolve(ExplainCommand.INGRESS_CONF), dev.ratecache.suite.ingress
                        .IngressNginxConf.render(dev.ratecache.suite.ingress.IngressLimits.read(ingress), ingressStatus,
                                ingressStatus));
            }
            OwnFront own = OwnFrontReader.read(config, serverName, paths, work.resolve("check"));
            switches.ownFront(own);
            if (own.tls()) {
                switches.tls(true);
            }
            return Optional.empty();
        } catch (ConfigRefused e) {
            String said = e.getMessage();
            return Optional.of(said.startsWith("--") ? said : flag + " " + Printable.shown((nginxConf != null ? nginxConf
                    : ingress).toString()) + ": " + said);
        } catch (UserFile.Refused e) {
            return Optional.of(flag + " " + e.getMessage());
        } finally {
            RunFolders.deleteQuietly(work);
        }
    }
}
