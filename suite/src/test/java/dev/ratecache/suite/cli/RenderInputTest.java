package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.nginx.ThrowawayCa;
import dev.ratecache.suite.nginx.TlsFiles;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ./run-tests.sh render refuses bad input in one line each, before it writes anything. */
class RenderInputTest {
    private final CommandRun cli = new CommandRun();

    /** Each case: what is wrong, the arguments of render (before DIR) that say it, and what the one line must say. */
    static Stream<Arguments> refusedInput() throws IOException, CertificateException {
        Path files = TestDirs.fresh(RenderInputTest.class, "files");
        TlsFiles tls = ThrowawayCa.write(files.resolve("ca"), List.of());
        Path der;
        try (InputStream pem = Files.newInputStream(tls.certificate())) {
            der = Files.write(files.resolve("server.der"),
                    CertificateFactory.getInstance("X.509").generateCertificate(pem).getEncoded());
        }
        return Stream.of(
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
                refused("directory as the certificate", List.of("--tls", "--tls-cert", files.toString(), "--tls-key",
                        tls.key().toString()), "--tls-cert " + files + " is a directory, not a file"));
    }

    private static Arguments refused(String what, List<String> args, String... said) {
        return Arguments.of(what, args, List.of(said));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said, TestInfo test) {
        Path dir = TestDirs.fresh(test).resolve("rendered");
        List<String> all = new java.util.ArrayList<>(List.of("render"));
        all.addAll(args);
        all.add(dir.toString());

        assertThat(cli.run(all.toArray(String[]::new))).isEqualTo(2);
        assertThat(cli.err()).contains(said);
        assertThat(dir).doesNotExist();
    }
}
