package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.edge.HaproxyEdge;
import dev.ratecache.suite.edge.VarnishEdge;
import dev.ratecache.suite.nginx.GixyLintTest;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.nginx.ThrowawayCa;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The committed examples pass their product's own check as they are: {@code nginx -t} and gixy
 * for nginx's, {@code haproxy -c} for HAProxy's, {@code varnishd -C} for Varnish's. Each nginx
 * tier is checked from a prefix of its own, as its README says to run it: the folder as conf/,
 * with logs/ and temp/ beside it (and, for TLS, a throwaway certificate where the user's goes).
 */
@StackTest
class ExamplesPassTheirChecksTest {

    @Test
    void everyNginxExamplePassesNginxTAndGixy() throws Exception {
        // The portable configs load every Debian module the suite uses, as a copy on a Debian machine would.
        for (Path module : List.of(NginxRenderer.NJS_MODULE, NginxRenderer.PURGE_MODULE,
                NginxRenderer.HEADERS_MORE_MODULE, NginxRenderer.LUA_MODULE)) {
            Required.that(Files.isRegularFile(module), module + " is not installed (./run-tests.sh installs it)");
        }
        TlsFiles tls = ThrowawayCa.write(TestDirs.fresh(getClass(), "ca"), List.of());
        List<String> failures = new ArrayList<>();
        List<Path> plain = new ArrayList<>();
        List<Path> withTls = new ArrayList<>();
        for (Example example : Example.values()) {
            for (Path conf : topLevelNginxConfs(example.committed())) {
                Path tier = conf.getParent();
                Path prefix = TestDirs.fresh(getClass(), example.folder() + "-" + tier.getFileName());
                ExamplesTest.copy(tier, prefix.resolve("conf"));
                Files.createDirectories(prefix.resolve("logs"));
                Files.createDirectories(prefix.resolve("temp"));
                if (Files.isRegularFile(tier.resolve("snippets/shared/tls-certificate.conf"))) {
                    Path dir = Files.createDirectories(prefix.resolve("conf").resolve(NginxRenderer.TLS_DIR));
                    Files.copy(tls.certificate(), dir.resolve("server.pem"));
                    Files.copy(tls.key(), dir.resolve("server.key"));
                }
                (example == Example.NGINX_TLS ? withTls : plain).add(conf);
                ManagedProcess.Outcome check = ManagedProcess.run(List.of(NginxServer.binary(), "-t", "-q",
                        "-p", prefix + "/", "-c", "conf/" + conf.getFileName(), "-e", "logs/error.log",
                        "-g", "pid logs/nginx.pid;"), Duration.ofSeconds(30));
                if (check.exitCode() != 0) {
                    failures.add("examples/" + example.folder() + "/" + tier.getFileName() + ": " + check.text().strip());
                }
            }
        }
        assertThat(failures).isEmpty();
        // two-tiers, keys-tiers and fleet-shared (back, balancer, three edges); the TLS example's front and back.
        assertThat(plain).hasSize(2 + 2 + 5);
        assertThat(withTls).hasSize(2);
        GixyLintTest.lint(plain);
        // gixy asks for HSTS wherever TLS is on; the example leaves --hsts to a real certificate (its README).
        // Its back end goes in the same run: gixy names the files it read only when given several.
        GixyLintTest.lint(withTls, "hsts_header");
    }

    @Test
    void theHaproxyAndVarnishExamplesPassTheirProductsCheck() throws Exception {
        Path haproxy = Example.HAPROXY.committed();
        Path varnish = Example.VARNISH.committed();
        List<String> failures = new ArrayList<>();
        for (String file : List.of("front.cfg", "back.cfg")) {
            // -dW: a warning fails too, as in HaproxyConfigCheckTest.
            check(List.of(HaproxyEdge.binary(), "-c", "-dW", "-f", haproxy.resolve(file).toString()), failures);
        }
        for (String file : List.of("front.vcl", "back.vcl")) {
            check(List.of(VarnishEdge.binary(), "-C", "-f", varnish.resolve(file).toString()), failures);
        }
        assertThat(failures).isEmpty();
    }

    private static void check(List<String> command, List<String> failures) throws IOException, InterruptedException {
        ManagedProcess.Outcome check = ManagedProcess.run(command, Duration.ofSeconds(60));
        if (check.exitCode() != 0) {
            // varnishd -C prints the whole generated C on success; the complaint is at the end.
            String text = check.text().strip();
            failures.add(String.join(" ", command) + ": " + text.substring(Math.max(0, text.length() - 2000)));
        }
    }

    /** The top-level file of each tier folder of an nginx example (front-end.conf, back-end.conf, edge-balancer.conf). */
    private static List<Path> topLevelNginxConfs(Path example) throws IOException {
        List<Path> confs = new ArrayList<>();
        try (Stream<Path> tiers = Files.list(example)) {
            for (Path tier : tiers.filter(Files::isDirectory).sorted().toList()) {
                try (Stream<Path> files = Files.list(tier)) {
                    files.filter(f -> f.toString().endsWith(".conf")).forEach(confs::add);
                }
            }
        }
        return confs;
    }
}
