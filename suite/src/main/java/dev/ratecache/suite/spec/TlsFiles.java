package dev.ratecache.suite.spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The files of TLS at the edge: the server's certificate (PEM, the leaf first, then any
 * intermediates), its private key (PEM), and the certificate a client trusts to reach it: the
 * throwaway CA's, or for a user's own certificate the certificate itself.
 */
public record TlsFiles(Path certificate, Path key, Path trust) {

    /** A user's own certificate and key, trusted as themselves (a self-signed one, or one a client pins). */
    public static TlsFiles own(Path certificate, Path key) {
        return new TlsFiles(certificate, key, certificate);
    }

    /** An SSLContext that trusts {@link #trust()} alone: what the suite's own clients (tests, checks) use. */
    public SSLContext sslContext() {
        return trusting(trust);
    }

    /** An SSLContext whose only trust anchors are the PEM certificates in {@code pem}. */
    public static SSLContext trusting(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate c : certificates) {
                store.setCertificateEntry("trusted-" + i++, c);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + pem + ": " + e.getMessage(), e);
        }
    }
}
