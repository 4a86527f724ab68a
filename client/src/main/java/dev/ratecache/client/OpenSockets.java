package dev.ratecache.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.Proxy;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SchemePortResolver;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.DetachedSocketFactory;
import org.apache.hc.client5.http.io.HttpClientConnectionOperator;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.config.RegistryBuilder;

/**
 * Every socket the client opens, so that closing the client cuts them all. Closing the pool is
 * not enough for a background revalidation: one that leased its pool entry just before the pool
 * closed and connects just after holds a connection the closed pool no longer knows, and its
 * request would still reach the server.
 */
final class OpenSockets implements DetachedSocketFactory {
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    @Override
    public Socket create(Proxy proxy) throws IOException {
        if (closed) {
            throw new InterruptedIOException("the client is closed");
        }
        open.removeIf(Socket::isClosed);
        Socket socket = proxy == null ? new Socket() : new Socket(proxy);
        open.add(socket);
        if (closed) {
            // closeAll() may have gone over the set before this one was in it.
            socket.close();
            throw new InterruptedIOException("the client is closed");
        }
        return socket;
    }

    /** Closes every socket, and refuses to open another. */
    void closeAll() {
        closed = true;
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException e) {
                // Closing anyway: nothing more to do for this one.
            }
        }
        open.clear();
    }

    /** A connection manager builder whose connections are made on these sockets. */
    PoolingHttpClientConnectionManagerBuilder connectionManager() {
        return new PoolingHttpClientConnectionManagerBuilder() {
            @Override
            protected HttpClientConnectionOperator createConnectionOperator(SchemePortResolver schemePortResolver,
                    DnsResolver dnsResolver, TlsSocketStrategy tlsSocketStrategy) {
                return new DefaultHttpClientConnectionOperator(OpenSockets.this, schemePortResolver, dnsResolver,
                        RegistryBuilder.<TlsSocketStrategy>create().register(URIScheme.HTTPS.id, tlsSocketStrategy).build());
            }
        };
    }
}
