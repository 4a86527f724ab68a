package dev.ratecache.suite.switches;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.nginx.ThrowawayCa;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.testkit.TestDirs;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;

/** --tls and its files, refused in one line before anything starts; the throwaway CA's certificate. */
class TlsSwitchesTest {
    private final Path dir = TestDirs.fresh(getClass(), "files");

    @Test
    void tlsFlagsWithoutTlsAreRefused() {
        StackSwitches s = new StackSwitches().tlsFiles(Path.of("a.pem"), Path.of("a.key")).hsts(true).http2(false)
                .httpPort(8080);

        assertThat(s.problems()).containsExactly("--tls-cert goes with --tls: add --tls",
                "--tls-key goes with --tls: add --tls", "--hsts goes with --tls: add --tls",
                "--no-http2 goes with --tls: add --tls", "--http-port goes with --tls: add --tls");
    }

    @Test
    void aCertificateWithoutItsKeyIsRefused() {
        assertThat(new StackSwitches().tls(true).tlsFiles(Path.of("a.pem"), null).problems())
                .containsExactly("--tls-cert needs its private key: add --tls-key FILE");
        assertThat(new StackSwitches().tls(true).tlsFiles(null, Path.of("a.key")).problems())
                .containsExactly("--tls-key needs its certificate: add --tls-cert FILE");
    }

    @Test
    void aMissingFileIsRefused() throws Exception {
        TlsFiles ok = ThrowawayCa.write(dir.resolve("ok"), List.of());

        assertThat(problems(dir.resolve("nope.pem"), ok.key()))
                .containsExactly("--tls-cert " + dir.resolve("nope.pem") + " is not a readable file");
    }

    @Test
    void aFileWithoutACertificateIsRefused() throws Exception {
        TlsFiles ok = ThrowawayCa.write(dir.resolve("ok"), List.of());
        Path notACertificate = Files.writeString(dir.resolve("cert.txt"), "hello\n");

        assertThat(problems(notACertificate, ok.key())).singleElement().asString()
                .startsWith("--tls-cert " + notACertificate + " holds no PEM certificate");
        assertThat(problems(ok.certificate(), ok.certificate())).singleElement().asString()
                .startsWith("--tls-key " + ok.certificate() + " holds no PEM private key");
    }

    @Test
    void aKeyThatIsAnotherCertificatesIsRefused() throws Exception {
        TlsFiles a = ThrowawayCa.write(dir.resolve("a"), List.of());
        TlsFiles b = ThrowawayCa.write(dir.resolve("b"), List.of());

        assertThat(problems(a.certificate(), b.key())).containsExactly("--tls-key " + b.key()
                + " does not match the certificate in --tls-cert " + a.certificate() + " (its public key is another's)");
        assertThat(problems(a.certificate(), a.key())).isEmpty();
    }

    @Test
    void anEncryptedKeyIsRefusedWithTheWayToDecryptIt() throws Exception {
        KeyPair keys = rsa();
        Path cert = pem(dir.resolve("rsa.pem"), selfSigned(keys, Instant.now().plus(Duration.ofDays(1))));
        Path key = pem(dir.resolve("rsa-encrypted.key"), new JcaPKCS8Generator(keys.getPrivate(),
                new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC).setProvider(new org.bouncycastle.jce.provider.BouncyCastleProvider())
                .setPassword("secret".toCharArray()).build())
                .generate());

        assertThat(problems(cert, key)).containsExactly("--tls-key " + key
                + " is encrypted: give it without a passphrase (openssl pkey -in KEY -out PLAIN.key)");
    }

    @Test
    void anRsaKeyInPkcs1FormMatchingItsCertificateIsAccepted() throws Exception {
        KeyPair keys = rsa();
        Path cert = pem(dir.resolve("rsa1.pem"), selfSigned(keys, Instant.now().plus(Duration.ofDays(1))));
        Path key = pem(dir.resolve("rsa1.key"), keys.getPrivate());

        assertThat(Files.readString(key)).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(problems(cert, key)).isEmpty();
    }

    @Test
    void anExpiredCertificateIsRefused() throws Exception {
        KeyPair keys = rsa();
        Path cert = pem(dir.resolve("old.pem"), selfSigned(keys, Instant.now().minus(Duration.ofDays(1))));
        Path key = pem(dir.resolve("old.key"), keys.getPrivate());

        assertThat(problems(cert, key)).singleElement().asString().startsWith("--tls-cert " + cert + " expired on ")
                .endsWith(": renew it, or leave out --tls-cert and --tls-key for a throwaway one");
    }

    @Test
    void aDerCertificateIsRefusedWithTheWayToConvertIt() throws Exception {
        TlsFiles ok = ThrowawayCa.write(dir.resolve("der"), List.of());
        Path der = Files.write(dir.resolve("der/server.der"), read(ok.certificate()).getEncoded());

        assertThat(problems(der, ok.key())).containsExactly("--tls-cert " + der + " is a DER certificate, and nginx"
                + " reads PEM: convert it (openssl x509 -inform der -in " + der + " -out " + der + ".pem) and give that");
    }

    @Test
    void aCertificateAndItsKeyInOneFileAreAcceptedInEitherOrderAsNginxAcceptsThem() throws Exception {
        TlsFiles ok = ThrowawayCa.write(dir.resolve("one"), List.of());
        Path certFirst = Files.writeString(dir.resolve("one/cert-first.pem"),
                Files.readString(ok.certificate()) + Files.readString(ok.key()));
        Path keyFirst = Files.writeString(dir.resolve("one/key-first.pem"),
                Files.readString(ok.key()) + Files.readString(ok.certificate()));

        // A block of a type the check has no use for comes first, as openssl's parameters do: skipped, as OpenSSL does.
        Path otherBlockFirst = Files.writeString(dir.resolve("one/other-first.pem"),
                "-----BEGIN DH PARAMETERS-----\nMAA=\n-----END DH PARAMETERS-----\n" + Files.readString(keyFirst));

        assertThat(problems(certFirst, certFirst)).isEmpty();
        assertThat(problems(keyFirst, keyFirst)).isEmpty();
        assertThat(problems(otherBlockFirst, ok.key())).isEmpty();
    }

    @Test
    void aDirectoryIsRefusedAsNoFile() throws Exception {
        TlsFiles ok = ThrowawayCa.write(dir.resolve("d"), List.of());
        Path folder = dir.resolve("d");

        assertThat(problems(folder, ok.key())).containsExactly("--tls-cert " + folder + " is a directory, not a file");
        assertThat(problems(ok.certificate(), folder)).containsExactly("--tls-key " + folder + " is a directory, not a file");
    }

    @Test
    void throwawayCertificateIsSignedByItsCaForLoopbackLocalhostAndTheListenAddress() throws Exception {
        TlsFiles files = ThrowawayCa.write(dir.resolve("t"), List.of("10.1.2.3", "0.0.0.0"));
        X509Certificate server = read(files.certificate());
        X509Certificate ca = read(files.trust());

        server.verify(ca.getPublicKey());
        assertThat(ca.getBasicConstraints()).isZero();
        assertThat(server.getBasicConstraints()).isEqualTo(-1);
        assertThat(server.getSubjectAlternativeNames()).extracting(n -> (Object) n.get(1))
                .containsExactly((Object) "127.0.0.1", "localhost", "10.1.2.3");
        assertThat(server.getNotAfter().toInstant()).isBefore(Instant.now().plus(Duration.ofDays(8)));
        assertThat(Files.getPosixFilePermissions(files.key())).hasSize(2);
    }

    private static List<String> problems(Path cert, Path key) {
        return new StackSwitches().tls(true).tlsFiles(cert, key).problems();
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    private static X509Certificate selfSigned(KeyPair keys, Instant notAfter) throws Exception {
        X500Name name = new X500Name("CN=127.0.0.1");
        return new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name, BigInteger.TEN,
                Date.from(notAfter.minus(Duration.ofDays(30))), Date.from(notAfter), name, keys.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
    }

    private static Path pem(Path file, Object o) throws Exception {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        }
        Files.createDirectories(file.getParent());
        return Files.writeString(file, out.toString());
    }

    private static X509Certificate read(Path pem) throws Exception {
        try (var in = Files.newInputStream(pem)) {
            return (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }
}
