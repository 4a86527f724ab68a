package dev.ratecache.suite.switches;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.UserFile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.X509TrustedCertificateBlock;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * Checks a user's --tls-cert and --tls-key before anything starts, as nginx would read them: a PEM
 * certificate (the leaf first), an unencrypted PEM key in any of the forms nginx reads (PKCS#8,
 * PKCS#1 RSA, SEC1 EC), and the key the certificate's own (a signature the one makes, the other
 * verifies). As OpenSSL does, each reads the blocks of its kind and skips the others, so one file
 * may hold both. Each problem is one line naming the flag and the fix.
 */
public final class TlsFileCheck {
    private TlsFileCheck() {}

    /** The one problem with the pair, if any. */
    public static Optional<String> problem(Path certificate, Path key) {
        // The paths as every message quotes a value: escaped, so that each problem stays one line.
        String cert = Printable.shown(certificate.toString());
        String k = Printable.shown(key.toString());
        for (Path file : List.of(certificate, key)) {
            if (Files.isDirectory(file)) {
                return Optional.of((file == certificate ? "--tls-cert " : "--tls-key ") + Printable.shown(file.toString())
                        + " is a directory, not a file");
            }
        }
        if (!Files.isReadable(certificate)) {
            return Optional.of("--tls-cert " + cert + " is not a readable file");
        }
        if (!Files.isReadable(key)) {
            return Optional.of("--tls-key " + k + " is not a readable file");
        }
        // Read once, bounded: a device such as /dev/zero is refused, never read into the memory.
        byte[] certificateBytes;
        byte[] keyBytes;
        try {
            certificateBytes = UserFile.bytes(certificate, UserFile.SMALL);
        } catch (IOException e) {
            return Optional.of("--tls-cert " + e.getMessage());
        }
        try {
            keyBytes = UserFile.bytes(key, UserFile.SMALL);
        } catch (IOException e) {
            return Optional.of("--tls-key " + e.getMessage());
        }
        X509Certificate leaf;
        try {
            leaf = leaf(certificateBytes);
        } catch (IOException | CertificateException e) {
            leaf = null;
        }
        if (leaf == null && isDer(certificateBytes)) {
            // nginx would fail only at nginx -t, with PEM_read_bio_X509_AUX() failed in a log.
            return Optional.of("--tls-cert " + cert + " is a DER certificate, and nginx reads PEM: convert it"
                    + " (openssl x509 -inform der -in " + cert + " -out " + cert + ".pem) and give that");
        }
        if (leaf == null) {
            return Optional.of("--tls-cert " + cert + " holds no PEM certificate (a block that begins"
                    + " -----BEGIN CERTIFICATE-----, the server's own first)");
        }
        if (leaf.getNotAfter().toInstant().isBefore(Instant.now())) {
            return Optional.of("--tls-cert " + cert + " expired on " + leaf.getNotAfter().toInstant()
                    + ": renew it, or leave out --tls-cert and --tls-key for a throwaway one");
        }
        PrivateKey privateKey;
        try {
            privateKey = privateKey(keyBytes);
        } catch (Encrypted e) {
            return Optional.of("--tls-key " + k + " is encrypted: give it without a passphrase"
                    + " (openssl pkey -in KEY -out PLAIN.key)");
        } catch (IOException | RuntimeException e) {
            privateKey = null;
        }
        if (privateKey == null) {
            return Optional.of("--tls-key " + k + " holds no PEM private key (-----BEGIN PRIVATE KEY-----,"
                    + " or the RSA or EC forms)");
        }
        if (!matches(privateKey, leaf)) {
            return Optional.of("--tls-key " + k + " does not match the certificate in --tls-cert " + cert
                    + " (its public key is another's)");
        }
        return Optional.empty();
    }

    /**
     * The first PEM certificate of the file, as nginx's PEM_read_bio_X509_AUX finds it, past blocks of
     * any other type (a key, parameters); null for none.
     */
    private static X509Certificate leaf(byte[] certificate) throws IOException, CertificateException {
        try (Reader in = new StringReader(new String(certificate, StandardCharsets.ISO_8859_1));
                PemReader pem = new PemReader(in)) {
            for (PemObject block = pem.readPemObject(); block != null; block = pem.readPemObject()) {
                X509CertificateHolder holder = switch (block.getType()) {
                    case "CERTIFICATE", "X509 CERTIFICATE" -> new X509CertificateHolder(block.getContent());
                    case "TRUSTED CERTIFICATE" -> new X509TrustedCertificateBlock(block.getContent()).getCertificateHolder();
                    default -> null;
                };
                if (holder != null) {
                    return new JcaX509CertificateConverter().getCertificate(holder);
                }
            }
            return null;
        }
    }

    /** Whether the file is a certificate in DER, the binary form PEM wraps in base64. */
    private static boolean isDer(byte[] bytes) {
        try {
            // DER begins with an ASN.1 SEQUENCE; Java's factory would read PEM text too.
            if (bytes.length == 0 || bytes[0] != 0x30) {
                return false;
            }
            CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(bytes));
            return true;
        } catch (CertificateException e) {
            return false;
        }
    }

    private static final class Encrypted extends Exception {
        private static final long serialVersionUID = 1L;
    }

    private static PrivateKey privateKey(byte[] key) throws IOException, Encrypted {
        try (Reader in = new StringReader(new String(key, StandardCharsets.US_ASCII)); PEMParser parser = new PEMParser(in)) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMEncryptedKeyPair || o instanceof PKCS8EncryptedPrivateKeyInfo) {
                    throw new Encrypted();
                }
                if (o instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
            return null;
        }
    }

    /** Whether {@code key} signs what the certificate's public key verifies: true for a matching pair of any algorithm. */
    static boolean matches(PrivateKey key, X509Certificate certificate) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC", "ECDSA" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            case "Ed448" -> "Ed448";
            default -> null;
        };
        if (algorithm == null) {
            return false;
        }
        try {
            byte[] data = "ratecache: does this key match its certificate?".getBytes(StandardCharsets.US_ASCII);
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(data);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(certificate.getPublicKey());
            verify.update(data);
            return verify.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
