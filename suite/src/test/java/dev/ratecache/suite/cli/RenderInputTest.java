package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.nginx.ThrowawayCa;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ./run-tests.sh render refuses bad input in one line each, with the same checks as a run, before
 * it writes anything; and it owns only the folders it writes in DIR. A unit test: render starts no
 * process and, given its edges' ports, binds none.
 */
class RenderInputTest {
    private final CommandRun cli = new CommandRun();

    /** Each case: what is wrong, the arguments to render after DIR, and what the one line must say. */
    static Stream<Arguments> refusedInput() throws IOException, CertificateException {
        Path files = TestDirs.fresh(RenderInputTest.class, "files");
        TlsFiles tls = ThrowawayCa.write(files.resolve("ca"), List.of());
        Path der;
        try (InputStream pem = Files.newInputStream(tls.certificate())) {
            der = Files.write(files.resolve("server.der"),
                    CertificateFactory.getInstance("X.509").generateCertificate(pem).getEncoded());
        }
        return Stream.concat(Stream.of(
                refused("front port above 65535", List.of("--front-port", "70000"),
                        "port 70000 is not a TCP port (1-65535): change --front-port"),
                refused("front port 0", List.of("--front-port", "0"),
                        "port 0 is not a TCP port (1-65535): change --front-port"),
                refused("front and back on one port", List.of("--front-port", "18080", "--back-port", "18080"),
                        "--back-port and --front-port are both 18080: give each its own port"),
                refused("one port for two edges", List.of("--edges", "2", "--edge-ports", "18101,18101"),
                        "--edge-ports (edge 2) and --edge-ports (edge 1) are both 18101"),
                refused("an edge on the front port", List.of("--edges", "2", "--front-port", "18100", "--edge-ports",
                        "18100,18101"), "--edge-ports (edge 1) and --front-port are both 18100"),
                refused("edge ports fewer than the edges", List.of("--edges", "3", "--edge-ports", "18101,18102"),
                        "--edge-ports gives 2 port(s) for --edges 3: give one per edge, or leave it out"),
                refused("fleet Redis port past 65535", List.of("--edges", "3", "--fleet-limit", "shared",
                        "--fleet-redis", "127.0.0.1:99999"),
                        "--fleet-redis must be HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:6379"
                                + " (got '127.0.0.1:99999')"),
                refused("number past an int", List.of("--front-rate", "99999999999"),
                        "run-tests.sh: --front-rate must be a whole number from 1 to 100000 (got 99999999999)\n"),
                refused("allow-list network with host bits set", List.of("--allow", "10.1.2.3/8"),
                        "did you mean 10.0.0.0/8 (or 10.1.2.3/32 for the one address)?"),
                refused("DER certificate", List.of("--tls", "--tls-cert", der.toString(), "--tls-key", tls.key().toString()),
                        "--tls-cert " + der + " is a DER certificate, and nginx reads PEM: convert it (openssl x509"
                                + " -inform der -in " + der + " -out " + der + ".pem) and give that"),
                refused("an edge the suite does not know", List.of("--edge", "squid"),
                        "'squid' is not an edge: use nginx, haproxy, varnish or traefik"),
                refused("HAProxy asked to queue, as nginx does by default", List.of("--edge", "haproxy"),
                        "--front-mode queue", "--back-mode queue", "nodelay"),
                refused("TLS, which Varnish has not", List.of("--edge", "varnish", "--front-mode",
                        "nodelay", "--back-mode", "nodelay", "--tls"),
                        "Varnish cannot terminate TLS: Varnish Cache has no TLS of its own, and its authors put a TLS proxy such as"
                                + " hitch in front of it (https://varnish-cache.org/docs/7.1/phk/ssl_again.html); drop --tls, or use --edge nginx"),
                refused("directory as the certificate", List.of("--tls", "--tls-cert", files.toString(), "--tls-key",
                        tls.key().toString()), "--tls-cert " + files + " is a directory, not a file")), RefusedRows.origins());
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said, TestInfo test) {
        Path dir = TestDirs.fresh(test).resolve("out");
        List<String> render = new ArrayList<>(List.of("render", dir.toString()));
        render.addAll(args);

        assertThat(cli.run(render.toArray(String[]::new))).isEqualTo(2);

        assertThat(cli.err()).contains(said).doesNotContain("Exception");
        assertThat(dir).doesNotExist();
    }

    @Test
    void aFileForDirIsRefusedInOneLine(TestInfo test) throws IOException {
        Path file = Files.writeString(TestDirs.fresh(test).resolve("notes.txt"), "mine\n");

        assertThat(cli.run("render", file.toString())).isEqualTo(2);

        assertThat(cli.err()).contains("DIR " + file + " is a file, not a folder").doesNotContain("Exception");
        assertThat(file).hasContent("mine");
    }

    @Test
    void aPasswordInTheOriginReachesNeitherTheTerminalNorAFile(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);

        assertThat(cli.run("render", dir.toString(), "--origin", "http://user:secret@127.0.0.1:9000")).isEqualTo(2);

        assertThat(cli.err()).contains("http://user:***@127.0.0.1:9000");
        assertThat(cli.err() + cli.out()).doesNotContain("secret");
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile)).isEmpty();
        }
    }

    @Test
    void aSecondRenderLeavesNoneOfTheFirstsFilesAndNothingOfTheUsersIsTouched(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        Path notes = Files.writeString(dir.resolve("notes.txt"), "mine\n");
        Path frontsMine = Files.createDirectories(dir.resolve("frontier")).resolve("keep.conf");
        Files.writeString(frontsMine, "mine\n");
        assertThat(cli.run("render", dir.toString(), "--tls", "--edges", "2", "--edge-ports", "18101,18102"))
                .as(cli.err()).isZero();
        assertThat(dir.resolve("tls/server.key")).exists();
        assertThat(dir.resolve("front-2")).isDirectory();
        Path stale = Files.writeString(dir.resolve("back/stale.conf"), "old\n");

        assertThat(cli.run("render", dir.toString())).as(cli.err()).isZero();

        assertThat(dir.resolve("tls")).as("the first render's throwaway key").doesNotExist();
        assertThat(dir.resolve("front-1")).doesNotExist();
        assertThat(dir.resolve("balancer")).doesNotExist();
        assertThat(stale).doesNotExist();
        assertThat(dir.resolve("front")).isDirectory();
        assertThat(dir.resolve("back")).isDirectory();
        assertThat(notes).hasContent("mine");
        assertThat(frontsMine).hasContent("mine");
    }

    @Test
    void withAnEdgeProductItWritesThatProductsTwoTiersAndANginxRenderLaterLeavesNoneOfThem(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);

        assertThat(cli.run("render", dir.toString(), "--edge", "haproxy", "--front-mode", "nodelay", "--back-mode",
                "nodelay", "--front-rate", "7", "--front-burst", "13")).as(cli.err()).isZero();

        assertThat(cli.out()).contains(dir.resolve("front.cfg").toString(), dir.resolve("back.cfg").toString());
        // The per-client limit as HAProxy's sliding window: burst + 1 over (burst + 1) / rate seconds.
        assertThat(Files.readString(dir.resolve("front.cfg"))).contains("http_req_rate(").contains("gt 14");
        assertThat(cli.run("render", dir.toString(), "--edge", "varnish", "--front-mode", "nodelay", "--back-mode",
                "nodelay")).as(cli.err()).isZero();
        assertThat(Files.readString(dir.resolve("front.vcl"))).contains("vsthrottle.is_denied(");
        assertThat(dir.resolve("front.cfg")).as("the last render's HAProxy files").doesNotExist();

        assertThat(cli.run("render", dir.toString())).as(cli.err()).isZero();

        assertThat(dir.resolve("front.vcl")).doesNotExist();
        assertThat(dir.resolve("back.vcl")).doesNotExist();
        assertThat(dir.resolve("front/front-end.conf")).exists();
    }

    @Test
    void haproxyWritesItsPemAndMapsBesideItsTiersAndANginxRenderLaterLeavesNoneOfThem(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        Path tiers = Files.writeString(TestDirs.fresh(RenderInputTest.class, "haproxy-tiers-input").resolve("tiers.txt"), "pro 10 20 nodelay pro-1\n");

        assertThat(cli.run("render", dir.toString(), "--edge", "haproxy", "--front-mode", "nodelay", "--back-mode",
                "nodelay", "--tls", "--limit-key", "header:X-Api-Key", "--tiers", tiers.toString(),
                "--freshness", "/hare=3")).as(cli.err()).isZero();

        // Beside the throwaway CA's own files, which HAProxy's one PEM must not overwrite.
        assertThat(dir.resolve("tls/haproxy.pem")).isRegularFile();
        assertThat(dir.resolve("tls/server.pem")).isRegularFile();
        assertThat(Files.readString(dir.resolve("front.cfg"))).contains("ssl crt " + dir.resolve("tls/haproxy.pem").toAbsolutePath());
        assertThat(dir.resolve("tiers.map")).content().contains("pro-1 pro");
        assertThat(dir.resolve("freshness.map")).content().contains("/hare 3");

        assertThat(cli.run("render", dir.toString())).as(cli.err()).isZero();

        assertThat(dir.resolve("tiers.map")).doesNotExist();
        assertThat(dir.resolve("freshness.map")).doesNotExist();
        assertThat(dir.resolve("front.cfg")).doesNotExist();
    }

    @Test
    void aCertificateInAFolderRenderClearsIsRefusedAndKept(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        assertThat(cli.run("render", dir.toString(), "--tls")).as(cli.err()).isZero();
        Path cert = dir.resolve("tls/server.pem");
        Path key = dir.resolve("tls/server.key");

        assertThat(cli.run("render", dir.toString(), "--tls", "--tls-cert", cert.toString(), "--tls-key",
                key.toString())).isEqualTo(2);

        assertThat(cli.err()).contains("--tls-cert " + cert + " is in tls/ of DIR, which render clears before it"
                + " writes: copy the file out of DIR first", "--tls-key " + key + " is in tls/ of DIR");
        assertThat(cert).exists();
        assertThat(key).exists();
    }
}
