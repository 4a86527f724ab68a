package dev.ratecache.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;

/**
 * The chain element between the cache and the wire: it takes the throttle's token, waits for
 * the slot the server's policy allows (when pacing), counts the exchange, and retries rate-limit
 * rejections. A quota-exceeded 429 is retried only when its reset is within the retry policy's
 * waits, and never before it. Background revalidations pass here too, on their own thread.
 *
 * <p>Sitting inside the caching element is what makes the guarantees hold by construction: it
 * only ever sees responses from the network, so nothing the cache answered is retried, a
 * revalidation that is rejected is retried like any request, and cache hits neither take a
 * token nor count as network requests. It also keeps rejections out of the cache: their
 * Cache-Control/Expires are set aside for {@code no-store} on the way up and put back by
 * {@link RateCacheClient} before the caller sees them, so a {@code 503} with {@code max-age}
 * can never answer a later request.
 */
final class NetworkExec implements ExecChainHandler {
    static final String NAME = "RATECACHE_NETWORK";

    private final RetryPolicy policy;
    private final Throttle throttle;
    private final PolicyPacer pacer;
    private final StatsRecorder stats;
    private final Consumer<ClassicHttpRequest> background;
    private volatile boolean closed;

    /**
     * @param pacer      paces to the server's RateLimit-Policy; null for none
     * @param background called on the thread of a background revalidation before it touches the
     *                   cache, with the request it sends (the one whose answer was served stale)
     */
    NetworkExec(RetryPolicy policy, Throttle throttle, PolicyPacer pacer, StatsRecorder stats,
            Consumer<ClassicHttpRequest> background) {
        this.policy = policy;
        this.throttle = throttle;
        this.pacer = pacer;
        this.stats = stats;
        this.background = background;
    }

    @Override
    public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
            throws IOException, HttpException {
        if (scope.clientContext instanceof RateCacheContext c) {
            return send(request, scope, chain, c.exchange);
        }
        // httpclient5-cache forks a revalidation with a context of its own, on its own thread.
        if (closed) {
            // The client closed while this thread was starting: a closed client sends nothing more.
            throw new InterruptedIOException("the client is closed");
        }
        stats.backgroundRevalidations.increment();
        background.accept(request);
        return send(request, scope, chain, new Exchange(System.nanoTime()));
    }

    /** From now on, a background revalidation that has not reached the wire is not sent. */
    void close() {
        closed = true;
    }

    private ClassicHttpResponse send(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain,
            Exchange exchange) throws IOException, HttpException {
        exchange.attempted = true;
        String host = pacer == null ? null : scope.route.getTargetHost().toURI();
        boolean mayRetry = policy.maxRetries() > 0 && RetryPolicy.isIdempotent(request.getMethod())
                && repeatable(request.getEntity());
        // The protocol interceptors below add headers to the request they send (Content-Length,
        // Host...), and refuse one that has them already: each retry sends a fresh copy.
        ClassicHttpRequest pristine = mayRetry ? ClassicRequestBuilder.copy(request).build() : null;
        ClassicHttpRequest attempt = request;
        for (int retry = 0; ; retry++) {
            if (throttle != null) {
                long waited = throttle.acquire();
                exchange.throttleWaitNanos += waited;
                stats.throttleWaitNanos.add(waited);
            }
            if (pacer != null) {
                long waited = pacer.acquire(host);
                exchange.throttleWaitNanos += waited;
                stats.throttleWaitNanos.add(waited);
            }
            exchange.networkRequests++;
            stats.network.increment();
            ClassicHttpResponse response = chain.proceed(attempt, scope);
            int status = response.getCode();
            exchange.lastNetworkStatus = status;
            if (pacer != null) {
                Header policyHeader = response.getFirstHeader(PolicyPacer.HEADER);
                pacer.learn(host, policyHeader == null ? null : policyHeader.getValue(),
                        values(response, RateLimitStatus.HEADER));
            }
            List<String> violated = quotaExceeded(response);
            Duration untilReset = null;
            if (violated != null) {
                untilReset = untilReset(response, violated);
                if (pacer != null) {
                    pacer.exceeded(host, violated, untilReset);
                }
            }
            if (pacer != null) {
                if (status == 429 && violated == null) {
                    pacer.rejected(host);
                } else if (status < 400) {
                    pacer.admitted(host);
                }
            }
            if (!policy.isRejection(status)) {
                return response;
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - exchange.startNanos);
            double random = ThreadLocalRandom.current().nextDouble();
            Duration wait = !mayRetry ? null
                    : violated != null ? policy.nextQuotaWait(retry, untilReset, elapsed, random)
                    : policy.nextWait(retry, RetryAfter.of(response, Instant.now()), elapsed, random);
            if (wait == null) {
                keepOutOfCache(response, exchange);
                return response;
            }
            discard(response);
            long waited = sleep(wait);
            exchange.retries++;
            exchange.retryWaitNanos += waited;
            stats.retried(status, waited);
            attempt = ClassicRequestBuilder.copy(pristine).build();
        }
    }

    private static List<String> values(ClassicHttpResponse response, String name) {
        Header[] headers = response.getHeaders(name);
        if (headers.length == 0) {
            return List.of();
        }
        List<String> values = new ArrayList<>(headers.length);
        for (Header h : headers) {
            values.add(h.getValue());
        }
        return values;
    }

    /**
     * The policies a quota-exceeded 429 names, or null when the response is not one. Its body is
     * read for this (the caller reads it in full anyway) and put back as it came, still encoded.
     */
    private static List<String> quotaExceeded(ClassicHttpResponse response) throws IOException {
        HttpEntity entity = response.getEntity();
        if (entity == null || !QuotaProblem.candidate(response.getCode(), entity.getContentType())) {
            return null;
        }
        byte[] raw = EntityUtils.toByteArray(entity);
        response.setEntity(new ByteArrayEntity(raw, ContentType.parseLenient(entity.getContentType()),
                entity.getContentEncoding()));
        byte[] body = decoded(raw, entity.getContentEncoding());
        return body == null ? null : QuotaProblem.violatedPolicies(response.getCode(), entity.getContentType(), body);
    }

    /**
     * The body as the caller will see it: below the chain's decompression, a gzipped problem is
     * still gzipped here. Null when it can't be decoded within the size a problem may have.
     */
    static byte[] decoded(byte[] raw, String encoding) {
        if (encoding == null || encoding.isBlank() || encoding.equalsIgnoreCase("identity")) {
            return raw;
        }
        if (!encoding.trim().equalsIgnoreCase("gzip") && !encoding.trim().equalsIgnoreCase("x-gzip")) {
            return null;
        }
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(raw))) {
            byte[] body = in.readNBytes(QuotaProblem.MAX_BODY + 1);
            return body.length > QuotaProblem.MAX_BODY ? null : body;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * How long the quota stays spent: the later of Retry-After and the reset the RateLimit header
     * gives the violated policies (those with nothing left when the problem names none); null
     * when the response says neither.
     */
    private static Duration untilReset(ClassicHttpResponse response, List<String> violated) {
        Duration wait = RetryAfter.of(response, Instant.now());
        for (RateLimitStatus s : RateLimitStatus.parse(values(response, RateLimitStatus.HEADER))) {
            boolean applies = violated.isEmpty() ? s.remaining() == 0 : violated.contains(s.policy());
            if (applies && s.reset() != null && (wait == null || s.reset().compareTo(wait) > 0)) {
                wait = s.reset();
            }
        }
        return wait;
    }

    private static boolean repeatable(HttpEntity entity) {
        return entity == null || entity.isRepeatable();
    }

    private static void keepOutOfCache(ClassicHttpResponse response, Exchange exchange) {
        Header[] cacheControl = response.getHeaders(HttpHeaders.CACHE_CONTROL);
        Header[] expires = response.getHeaders(HttpHeaders.EXPIRES);
        Header[] all = new Header[cacheControl.length + expires.length];
        System.arraycopy(cacheControl, 0, all, 0, cacheControl.length);
        System.arraycopy(expires, 0, all, cacheControl.length, expires.length);
        exchange.setAside = all;
        exchange.setAsideStatus = response.getCode();
        response.removeHeaders(HttpHeaders.CACHE_CONTROL);
        response.removeHeaders(HttpHeaders.EXPIRES);
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
    }

    /** Reads the rejection's body to the end so that its connection goes back to the pool. */
    private static void discard(ClassicHttpResponse response) throws IOException {
        try {
            EntityUtils.consume(response.getEntity());
        } finally {
            response.close();
        }
    }

    private static long sleep(Duration wait) throws InterruptedIOException {
        long start = System.nanoTime();
        try {
            TimeUnit.NANOSECONDS.sleep(wait.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to retry");
        }
        return System.nanoTime() - start;
    }
}
