package dev.ratecache.suite.nginx;

import dev.ratecache.suite.spec.TlsFiles;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made for one run and thrown away with it (--tls without --tls-cert):
 * a CA certificate, and a server certificate it signs for 127.0.0.1, localhost and the address the
 * edge listens on. Only the run folder holds them, so nothing outside it learns to trust the CA.
 * ECDSA P-256 keys: the curve every TLS client supports, and the cheapest full handshake.
 */
public final class ThrowawayCa {
    /** Long enough for a long run or a day of `up`; short, since the CA's key lies unprotected in the run folder. */
    static final Duration VALIDITY = Duration.ofDays(7);

    private ThrowawayCa() {}

    /**
     * Writes ca.pem, server.pem and server.key into {@code dir} (created) for {@code addresses}
     * besides 127.0.0.1 and localhost: IP literals become IP names, the rest DNS names.
     */
    public static TlsFiles write(Path dir, List<String> addresses) throws IOException {
        try {
            Files.createDirectories(dir);
            KeyPair caKeys = keys();
            KeyPair serverKeys = keys();
            Instant now = Instant.now();
            X500Name caName = new X500Name("CN=ratecache throwaway CA " + now.getEpochSecond() + ",O=ratecache");
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();

            X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, serial(), notBefore(now),
                    Date.from(now.plus(VALIDITY)), caName, caKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(caKeys.getPublic()));
            X509Certificate caCert = signed(ca, caKeys);

            X509v3CertificateBuilder server = new JcaX509v3CertificateBuilder(caCert, serial(), notBefore(now),
                    Date.from(now.plus(VALIDITY)), new X500Name("CN=127.0.0.1,O=ratecache"), serverKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, names(addresses))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCert));
            X509Certificate serverCert = signed(server, caKeys);

            TlsFiles files = new TlsFiles(dir.resolve("server.pem"), dir.resolve("server.key"), dir.resolve("ca.pem"));
            Files.writeString(files.trust(), pem(caCert), StandardCharsets.US_ASCII);
            Files.writeString(files.certificate(), pem(serverCert), StandardCharsets.US_ASCII);
            // PKCS#8 (BEGIN PRIVATE KEY), the form every tool reads.
            Files.writeString(files.key(), pem(new JcaPKCS8Generator(serverKeys.getPrivate(), null).generate()),
                    StandardCharsets.US_ASCII);
            ownerOnly(files.key());
            return files;
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot make the throwaway CA: " + e.getMessage(), e);
        }
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
        return generator.generateKeyPair();
    }

    /** An hour back: a client whose clock runs a little behind still accepts the certificate. */
    private static Date notBefore(Instant now) {
        return Date.from(now.minus(Duration.ofHours(1)));
    }

    /** Random and positive, as RFC 5280 section 4.1.2.2 asks, so that two runs' certificates never share one. */
    private static BigInteger serial() {
        return new BigInteger(64, new SecureRandom()).add(BigInteger.ONE);
    }

    private static GeneralNames names(List<String> addresses) {
        Set<String> all = new LinkedHashSet<>(List.of("127.0.0.1", "localhost"));
        all.addAll(addresses);
        List<GeneralName> names = new ArrayList<>();
        for (String a : all) {
            if (a.equals("0.0.0.0") || a.equals("::")) {
                continue;
            }
            names.add(new GeneralName(isIpLiteral(a) ? GeneralName.iPAddress : GeneralName.dNSName, a));
        }
        return new GeneralNames(names.toArray(GeneralName[]::new));
    }

    static boolean isIpLiteral(String address) {
        return address.matches("[0-9.]+") || address.contains(":");
    }

    private static X509Certificate signed(X509v3CertificateBuilder builder, KeyPair signer)
            throws OperatorCreationException, GeneralSecurityException {
        X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate()));
        return new JcaX509CertificateConverter().getCertificate(holder);
    }

    private static String pem(Object o) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(o);
        }
        return out.toString();
    }

    /** {@code key} readable and writable by its owner alone, as a private key file should be. */
    static void ownerOnly(Path key) throws IOException {
        try {
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: the run folder's own permissions are all there is.
        }
    }
}
