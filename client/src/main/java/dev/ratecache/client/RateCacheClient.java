package dev.ratecache.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.hc.client5.http.cache.CacheResponseStatus;
import org.apache.hc.client5.http.cache.HttpCacheContext;
import org.apache.hc.client5.http.cache.RequestCacheControl;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.cache.CacheConfig;
import org.apache.hc.client5.http.impl.cache.CachingHttpClientBuilder;
import org.apache.hc.client5.http.impl.cache.FileResourceFactory;
import org.apache.hc.client5.http.impl.cache.HeapResourceFactory;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.config.NamedElementChain;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * An HTTP client for API consumers that caches what the server lets it cache and copes with
 * rate limiting: Apache HttpClient 5's caching client, set up with sensible defaults, plus
 * Retry-After-aware retries, stale-while-revalidate in the background, an optional client-side
 * throttle or pacing to the server's RateLimit-Policy, per-response provenance and running
 * statistics.
 *
 * <pre>{@code
 * RateCacheClient client = RateCacheClient.create();      // private 10 MiB memory cache, retries on 429/503
 * RateCacheResponse r = client.get("https://api.example.com/items/42");
 * r.code(); r.bodyString(); r.source();                    // 200, "{...}", NETWORK; next time CACHE
 * client.stats();                                          // requests=1 network=1 hits=0 misses=1 ...
 * }</pre>
 *
 * <p>Thread-safe; share one instance per set of settings, and {@link #close()} it when done.
 */
public final class RateCacheClient implements Closeable {
    private final CloseableHttpClient http;
    private final BoundedCacheStorage storage;
    private final boolean privateCache;
    private final RequestCacheControl requestCacheControl;
    private final RetryPolicy retryPolicy;
    private final Throttle throttle;
    private final boolean pacing;
    private final OpenSockets sockets = new OpenSockets();
    private final NetworkExec network;
    final StatsRecorder stats = new StatsRecorder();

    private RateCacheClient(Builder b) {
        this.retryPolicy = b.retryPolicy;
        this.throttle = b.throttle;
        this.pacing = b.paceToPolicy;
        HttpClientBuilder builder;
        boolean scoped = b.cache && !b.sharedCache;
        // A background revalidation runs on httpclient5-cache's own thread: it takes the credentials
        // scope of the request it revalidates (which carries them), so its answer is stored there.
        this.network = new NetworkExec(b.retryPolicy, b.throttle, b.paceToPolicy ? new PolicyPacer() : null,
                stats, scoped ? request -> BoundedCacheStorage.scope(principal(request)) : request -> { });
        if (b.cache) {
            this.storage = new BoundedCacheStorage(b.maxCacheBytes, b.maxEntries);
            this.privateCache = scoped;
            this.requestCacheControl = b.staleIfError == null ? null
                    : RequestCacheControl.builder().setStaleIfError(b.staleIfError.toSeconds()).build();
            CachingHttpClientBuilder caching = new CachingHttpClientBuilder() {
                @Override
                protected void customizeExecChain(NamedElementChain<ExecChainHandler> chain) {
                    // The caching element goes in here, just before PROTOCOL; the network element goes
                    // between the two, where only responses from the wire pass.
                    super.customizeExecChain(chain);
                    chain.addBefore(ChainElement.PROTOCOL.name(), network, NetworkExec.NAME);
                }
            };
            caching.setCacheConfig(CacheConfig.custom()
                    .setMaxObjectSize(b.maxObjectSize)
                    .setMaxCacheEntries(b.maxEntries)
                    .setSharedCache(b.sharedCache)
                    // stale-while-revalidate: httpclient5-cache serves the stale entry and revalidates
                    // it on a pool of this many threads, one revalidation per entry at a time, shut
                    // down with the client. None: revalidated before answering.
                    .setAsynchronousWorkers(b.revalidationThreads)
                    .setHeuristicCachingEnabled(false)
                    .build());
            caching.setHttpCacheStorage(storage);
            if (b.cacheDirectory != null) {
                try {
                    Files.createDirectories(b.cacheDirectory);
                } catch (IOException e) {
                    throw new IllegalArgumentException("cannot create the cache directory " + b.cacheDirectory + ": " + e, e);
                }
                caching.setResourceFactory(new FileResourceFactory(b.cacheDirectory.toFile()));
            } else {
                caching.setResourceFactory(HeapResourceFactory.INSTANCE);
            }
            builder = caching;
        } else {
            this.storage = null;
            this.privateCache = false;
            this.requestCacheControl = null;
            builder = new HttpClientBuilder() {
                @Override
                protected void customizeExecChain(NamedElementChain<ExecChainHandler> chain) {
                    chain.addBefore(ChainElement.PROTOCOL.name(), network, NetworkExec.NAME);
                }
            };
        }
        PoolingHttpClientConnectionManagerBuilder connections = sockets.connectionManager();
        if (b.sslContext != null) {
            connections.setTlsSocketStrategy(ClientTlsStrategyBuilder.create().setSslContext(b.sslContext).buildClassic());
        }
        builder.setConnectionManager(connections
                        .setMaxConnTotal(b.maxConnections)
                        .setMaxConnPerRoute(b.maxConnections)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.of(b.connectTimeout))
                                .setSocketTimeout(Timeout.of(b.responseTimeout))
                                .build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.of(b.responseTimeout)).build())
                // Like OkHttp: no cookie jar unless asked for, so a request's credentials are its headers.
                .disableCookieManagement()
                // HttpClient's own retry element sits outside the cache and would retry a POST on 503
                // and a cached rejection: keep it for I/O errors only; NetworkExec handles statuses.
                .setRetryStrategy(IoErrorsOnly.INSTANCE)
                .setUserAgent(b.userAgent);
        if (b.customizer != null) {
            b.customizer.accept(builder);
        }
        this.http = builder.build();
    }

    /** A client with every default: a private 10 MiB memory cache and {@link RetryPolicy#defaults()}. */
    public static RateCacheClient create() {
        return builder().build();
    }

    /** A builder with every setting at its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** GET {@code uri}. */
    public RateCacheResponse get(String uri) throws IOException {
        return execute(new HttpGet(uri));
    }

    /** GET {@code uri}. */
    public RateCacheResponse get(URI uri) throws IOException {
        return execute(new HttpGet(uri));
    }

    /**
     * Sends {@code request} through the cache (when on) and the network, retrying rejections as
     * the policy says, and reads the response in full.
     *
     * @throws IOException when no response could be had; counted as a failure
     */
    public RateCacheResponse execute(ClassicHttpRequest request) throws IOException {
        Exchange exchange = new Exchange(System.nanoTime());
        RateCacheContext context = new RateCacheContext(exchange);
        if (requestCacheControl != null) {
            context.setRequestCacheControl(requestCacheControl);
        }
        String outer = privateCache ? BoundedCacheStorage.scope(principal(request)) : null;
        try {
            return http.execute(request, context, response -> read(response, context, exchange));
        } catch (IOException | RuntimeException e) {
            stats.failed();
            throw e;
        } finally {
            if (privateCache) {
                BoundedCacheStorage.scope(outer);
            }
        }
    }

    private RateCacheResponse read(ClassicHttpResponse response, HttpCacheContext context, Exchange exchange)
            throws IOException {
        ResponseSource source = source(context, exchange);
        if (exchange.setAside != null && source == ResponseSource.NETWORK && response.getCode() == exchange.setAsideStatus) {
            response.removeHeaders(HttpHeaders.CACHE_CONTROL);
            for (Header h : exchange.setAside) {
                response.addHeader(h);
            }
        }
        HttpEntity entity = response.getEntity();
        byte[] body = entity == null ? new byte[0] : EntityUtils.toByteArray(entity);
        boolean rejection = source == ResponseSource.NETWORK && retryPolicy.isRejection(response.getCode());
        RateCacheResponse r = new RateCacheResponse(response.getCode(), response.getReasonPhrase(), response.getHeaders(),
                body, entity == null ? null : entity.getContentType(), source, exchange.networkRequests, exchange.retries,
                exchange.retryWaitNanos, exchange.throttleWaitNanos);
        stats.answered(source, rejection, source == ResponseSource.NETWORK && r.isQuotaExceeded());
        return r;
    }

    private ResponseSource source(HttpCacheContext cacheContext, Exchange exchange) {
        if (storage == null || cacheContext.getCacheResponseStatus() == null) {
            return ResponseSource.NETWORK;
        }
        CacheResponseStatus status = cacheContext.getCacheResponseStatus();
        return switch (status) {
            case VALIDATED -> exchange.lastNetworkStatus == 304 ? ResponseSource.VALIDATED : ResponseSource.NETWORK;
            // httpclient5-cache labels both stale answers alike: one after this request tried the
            // network is stale-if-error; one without trying was served while a revalidation runs
            // on its own context and thread.
            case CACHE_MODULE_RESPONSE -> cacheContext.getCacheEntry() == null ? ResponseSource.GENERATED
                    : exchange.attempted ? ResponseSource.STALE_IF_ERROR : ResponseSource.STALE_WHILE_REVALIDATING;
            // A revalidation that was answered with anything but 200/304 (a 429, say) keeps the
            // CACHE_HIT label although the response came from the wire.
            case CACHE_HIT -> exchange.networkRequests == 0 ? ResponseSource.CACHE : ResponseSource.NETWORK;
            default -> ResponseSource.NETWORK;
        };
    }

    /**
     * A digest of the request's credentials (Authorization, Proxy-Authorization, Cookie), null for
     * none: a private cache keeps one key space per digest, and never stores the secrets themselves.
     */
    static String principal(HttpRequest request) {
        if (!request.containsHeader(HttpHeaders.AUTHORIZATION) && !request.containsHeader(HttpHeaders.PROXY_AUTHORIZATION)
                && !request.containsHeader("Cookie")) {
            return null;
        }
        MessageDigest sha = null;
        for (String name : new String[] {HttpHeaders.AUTHORIZATION, HttpHeaders.PROXY_AUTHORIZATION, "Cookie"}) {
            for (Header h : request.getHeaders(name)) {
                if (sha == null) {
                    sha = sha256();
                }
                sha.update(name.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
                sha.update((byte) 0);
                sha.update(h.getValue().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
        }
        return sha == null ? null : HexFormat.of().formatHex(sha.digest(), 0, 16);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** A snapshot of the running statistics. */
    public ClientStats stats() {
        return stats.snapshot();
    }

    /** How this client retries rejections. */
    public RetryPolicy retryPolicy() { return retryPolicy; }
    /** The client-side throttle, or null when there is none. */
    public Throttle throttle() { return throttle; }
    /** Whether requests are paced to the server's RateLimit-Policy (and its quotas to RateLimit). */
    public boolean pacesToPolicy() { return pacing; }
    /** Whether responses are cached at all. */
    public boolean cacheEnabled() { return storage != null; }
    /** Entries in the cache (0 without one). */
    public int cacheEntryCount() { return storage == null ? 0 : storage.size(); }
    /** Bytes the cache holds, bodies and headers, roughly (0 without one). */
    public long cacheSize() { return storage == null ? 0 : storage.bytes(); }

    /** Empties the cache. */
    public void evictAll() {
        if (storage != null) {
            storage.clear();
        }
    }

    /**
     * Stops the background revalidations, closes the connections (cutting a revalidation still on
     * the wire) and empties the cache (deleting a file-backed cache's bodies).
     */
    @Override
    public void close() throws IOException {
        network.close();
        try {
            http.close(CloseMode.IMMEDIATE);
            sockets.closeAll();
        } finally {
            evictAll();
        }
    }

    /** Retries requests that failed with an I/O error as HttpClient does; never a status code. */
    private static final class IoErrorsOnly extends DefaultHttpRequestRetryStrategy {
        static final IoErrorsOnly INSTANCE = new IoErrorsOnly();

        @Override
        public boolean retryRequest(HttpResponse response, int execCount, HttpContext context) {
            return false;
        }
    }

    /**
     * Settings for a {@link RateCacheClient}. Defaults: caching on, a private cache of 10 MiB in
     * memory, responses up to 1 MiB stored, one background revalidation thread, {@link RetryPolicy#defaults()},
     * no throttle, no pacing, connect timeout 10 s, response timeout 30 s, 64 connections.
     */
    public static final class Builder {
        private boolean cache = true;
        private long maxCacheBytes = 10L * 1024 * 1024;
        private Path cacheDirectory;
        private int maxEntries = 10_000;
        private long maxObjectSize = 1024 * 1024;
        private boolean sharedCache;
        private Duration staleIfError;
        private int revalidationThreads = 1;
        private boolean paceToPolicy;
        private RetryPolicy retryPolicy = RetryPolicy.defaults();
        private Throttle throttle;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration responseTimeout = Duration.ofSeconds(30);
        private int maxConnections = 64;
        private javax.net.ssl.SSLContext sslContext;
        private String userAgent = "ratecache-client";
        private Consumer<HttpClientBuilder> customizer;

        private Builder() {}

        /** Caches in memory, holding up to {@code maxBytes} of responses (least recently used go first). */
        public Builder cache(long maxBytes) {
            this.cache = true;
            this.maxCacheBytes = positive(maxBytes, "cache size");
            this.cacheDirectory = null;
            return this;
        }

        /**
         * Keeps response bodies in files under {@code directory}, up to {@code maxBytes}; the index
         * stays in memory, so the cache starts empty each time and is deleted on {@link #close()}.
         */
        public Builder cache(Path directory, long maxBytes) {
            this.cache = true;
            this.maxCacheBytes = positive(maxBytes, "cache size");
            this.cacheDirectory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /** No caching: only the retries, throttle and statistics. */
        public Builder noCache() {
            this.cache = false;
            return this;
        }

        /** The largest response body stored; bigger ones pass through uncached. Default 1 MiB. */
        public Builder maxObjectSize(long bytes) {
            this.maxObjectSize = positive(bytes, "max object size");
            return this;
        }

        /** The most entries kept, whatever their size. Default 10,000. */
        public Builder maxEntries(int entries) {
            this.maxEntries = (int) positive(entries, "max entries");
            return this;
        }

        /**
         * {@code false} (the default): a private cache, as in a browser: {@code private} responses
         * are stored, and each set of credentials (Authorization, Proxy-Authorization and Cookie
         * request headers) has entries of its own. {@code true}: a shared cache, as in a proxy:
         * {@code private} responses and responses to requests with Authorization (unless
         * {@code public} or {@code s-maxage}) are not stored, and entries are shared by all.
         */
        public Builder sharedCache(boolean shared) {
            this.sharedCache = shared;
            return this;
        }

        /**
         * Lets the cache answer with a response up to {@code maxStale} past its freshness when the
         * server can't be reached or answers 500, 502, 503 or 504 (sent as the request directive
         * {@code Cache-Control: stale-if-error}). Off by default: a stale answer must be asked
         * for, by the server's own {@code stale-if-error} or here. Never overrides {@code must-revalidate}.
         */
        public Builder staleIfError(Duration maxStale) {
            if (maxStale != null && (maxStale.isNegative() || maxStale.toSeconds() < 1)) {
                throw new IllegalArgumentException("staleIfError must be at least 1 s (got " + maxStale + ")");
            }
            this.staleIfError = maxStale;
            return this;
        }

        /**
         * Threads that revalidate in the background. A stale response whose
         * {@code stale-while-revalidate} window is still open is answered at once
         * ({@link ResponseSource#STALE_WHILE_REVALIDATING}) while one of these revalidates it, one
         * revalidation per entry at a time; more stale entries than threads wait their turn. The
         * threads are stopped by {@link RateCacheClient#close()}. {@code 0}: every stale response
         * is revalidated before it is answered. Default 1. Never serves stale past the window, nor
         * for {@code must-revalidate} or {@code no-cache}.
         */
        public Builder revalidationThreads(int threads) {
            if (threads < 0 || threads > 64) {
                throw new IllegalArgumentException("revalidationThreads must be from 0 to 64 (got " + threads + ")");
            }
            this.revalidationThreads = threads;
            return this;
        }

        /**
         * {@code true}: paces the requests to each host to the {@code RateLimit-Policy} its
         * responses announce ({@code "name";q=QUOTA;w=WINDOW}, plus the suite's edge's
         * {@code ratecache-burst}), waiting before a request instead of being rejected. A quota
         * (a policy whose window is longer than a second) that the host reports in its
         * {@code RateLimit} header ({@code "daily";r=REMAINING;t=RESET}) is spread over what
         * remains of its window: at most one request every t/r seconds, and with none left none
         * until the reset (a wait as long as the server says; an interrupt ends it). Before the
         * first policy arrives, and from hosts that send none, nothing is paced. All of this
         * client's requests to a host are paced together, as one identity. Off by default;
         * retries of 429 and 503 stay as the {@link RetryPolicy} says either way.
         */
        public Builder paceToPolicy(boolean pace) {
            this.paceToPolicy = pace;
            return this;
        }

        /** How rejections are retried; {@link RetryPolicy#none()} to never retry. Default {@link RetryPolicy#defaults()}. */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Waits for a token before each request that goes to the network; null for none. */
        public Builder throttle(Throttle throttle) {
            this.throttle = throttle;
            return this;
        }

        /** Shorthand for {@code throttle(Throttle.of(requestsPerSecond, burst))}. */
        public Builder throttle(double requestsPerSecond, int burst) {
            return throttle(Throttle.of(requestsPerSecond, burst));
        }

        /** The longest wait for a connection to be made. Default 10 s. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** The longest wait for a response's next bytes. Default 30 s. */
        public Builder responseTimeout(Duration timeout) {
            this.responseTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** Connections kept, per host and in all. Default 64. */
        public Builder maxConnections(int n) {
            this.maxConnections = (int) positive(n, "max connections");
            return this;
        }

        /**
         * Trusts the certificates in {@code pem} (PEM, one or more: a private CA, or a server's own
         * self-signed certificate) instead of the JDK's CAs: for an API behind a private CA, such
         * as the suite's throwaway one ({@code ./run-tests.sh up --tls} prints its path).
         */
        public Builder trustCertificates(Path pem) {
            Objects.requireNonNull(pem, "pem");
            try (java.io.InputStream in = java.nio.file.Files.newInputStream(pem)) {
                java.security.KeyStore store = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
                store.load(null, null);
                int i = 0;
                for (java.security.cert.Certificate c : java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificates(in)) {
                    store.setCertificateEntry("trusted-" + i++, c);
                }
                if (i == 0) {
                    throw new IllegalArgumentException(pem + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
                }
                return sslContext(org.apache.hc.core5.ssl.SSLContexts.custom().loadTrustMaterial(store, null).build());
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the certificates in " + pem + ": " + e.getMessage(), e);
            } catch (java.security.cert.CertificateException e) {
                throw new IllegalArgumentException(pem + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)", e);
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalArgumentException("cannot trust the certificates in " + pem + ": " + e.getMessage(), e);
            }
        }

        /** The TLS context of every https connection: its trust, and any client certificate. Default: the JDK's. */
        public Builder sslContext(javax.net.ssl.SSLContext context) {
            this.sslContext = Objects.requireNonNull(context, "context");
            return this;
        }

        /** The User-Agent sent with every request. Default {@code ratecache-client}. */
        public Builder userAgent(String userAgent) {
            this.userAgent = Objects.requireNonNull(userAgent, "userAgent");
            return this;
        }

        /**
         * Adjusts the underlying HttpClient builder (a proxy, TLS, a credentials provider...)
         * after this builder's settings. Leave its retry strategy and exec chain alone: the
         * client's guarantees depend on them.
         */
        public Builder configure(Consumer<HttpClientBuilder> customizer) {
            this.customizer = customizer;
            return this;
        }

        /** A new client with these settings; the builder may be used again. */
        public RateCacheClient build() {
            if (cache && maxObjectSize > maxCacheBytes) {
                maxObjectSize = maxCacheBytes;
            }
            return new RateCacheClient(this);
        }

        private static long positive(long n, String what) {
            if (n <= 0) {
                throw new IllegalArgumentException(what + " must be positive (got " + n + ")");
            }
            return n;
        }
    }
}
