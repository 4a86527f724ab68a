package dev.ratecache.client;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;

/**
 * A response read in full, with where it came from and what it took to get it. Immutable;
 * nothing to close.
 */
public final class RateCacheResponse {
    private final int code;
    private final String reason;
    private final Header[] headers;
    private final byte[] body;
    private final String contentType;
    private final ResponseSource source;
    private final int networkRequests;
    private final int retries;
    private final long retryWaitNanos;
    private final long throttleWaitNanos;

    RateCacheResponse(int code, String reason, Header[] headers, byte[] body, String contentType,
            ResponseSource source, int networkRequests, int retries, long retryWaitNanos, long throttleWaitNanos) {
        this.code = code;
        this.reason = reason;
        this.headers = headers;
        this.body = body;
        this.contentType = contentType;
        this.source = source;
        this.networkRequests = networkRequests;
        this.retries = retries;
        this.retryWaitNanos = retryWaitNanos;
        this.throttleWaitNanos = throttleWaitNanos;
    }

    /** The status code. */
    public int code() { return code; }
    /** The reason phrase, as sent (HTTP/2 and the cache may send none). */
    public String reason() { return reason; }
    /** Whether the code is 2xx. */
    public boolean isSuccessful() { return code >= 200 && code < 300; }

    /** The first value of header {@code name} (case-insensitive), or null. */
    public String header(String name) {
        for (Header h : headers) {
            if (h.getName().equalsIgnoreCase(name)) {
                return h.getValue();
            }
        }
        return null;
    }

    /** Every value of header {@code name}, in order. */
    public List<String> headers(String name) {
        List<String> values = new ArrayList<>(2);
        for (Header h : headers) {
            if (h.getName().equalsIgnoreCase(name)) {
                values.add(h.getValue());
            }
        }
        return values;
    }

    /** All headers, in order. */
    public List<Header> headers() { return List.of(headers); }

    /** The body's bytes (empty when there is none). The array is shared: don't change it. */
    public byte[] body() { return body; }

    /** The body decoded with the charset of its Content-Type, UTF-8 when it names none. */
    public String bodyString() {
        // Parsed here rather than for every response: most callers read bytes or never ask.
        ContentType type = contentType == null ? null : ContentType.parseLenient(contentType);
        Charset cs = type != null && type.getCharset() != null ? type.getCharset() : StandardCharsets.UTF_8;
        return new String(body, cs);
    }

    /**
     * What the response's {@code RateLimit} header said of each of the server's policies, in the
     * order sent ({@code "daily";r=REMAINING;t=RESET}; several header lines are one list); empty
     * when it said nothing readable. Items that don't read are left out. Read from the headers
     * when asked, so a response from the cache says what the server said when it stored it.
     */
    public List<RateLimitStatus> rateLimits() {
        List<String> values = headers(RateLimitStatus.HEADER);
        return values.isEmpty() ? List.of() : List.copyOf(RateLimitStatus.parse(values));
    }

    /** What the {@code RateLimit} header said of the policy named {@code policy} (its first item), or null. */
    public RateLimitStatus rateLimit(String policy) {
        for (RateLimitStatus s : rateLimits()) {
            if (s.policy().equals(policy)) {
                return s;
            }
        }
        return null;
    }

    /**
     * Whether this is the server's 429 for an exhausted quota: a body of type
     * {@code application/problem+json} whose {@code type} is
     * {@code https://iana.org/assignments/http-problem-types#quota-exceeded}.
     */
    public boolean isQuotaExceeded() {
        return violatedPolicies() != null;
    }

    /**
     * The policies an exhausted-quota 429 names in its problem's {@code violated-policies} (empty
     * when it names none), or null when this is not such a rejection.
     */
    public List<String> violatedPolicies() {
        return QuotaProblem.violatedPolicies(code, contentType, body);
    }

    /** Where the response came from. */
    public ResponseSource source() { return source; }
    /** Whether the body came from the cache (a fresh hit, a 304-validated or a stale entry). */
    public boolean fromCache() {
        return source != ResponseSource.NETWORK && source != ResponseSource.GENERATED;
    }
    /** Whether the response was stale when served, for either reason. */
    public boolean isStale() {
        return source == ResponseSource.STALE_WHILE_REVALIDATING || source == ResponseSource.STALE_IF_ERROR;
    }
    /** Exchanges this request made on the wire (0 for a fresh hit; retries and revalidations count). */
    public int networkRequests() { return networkRequests; }
    /** Retries after rate-limit rejections. */
    public int retries() { return retries; }
    /** Time spent waiting before those retries. */
    public Duration retryWait() { return Duration.ofNanos(retryWaitNanos); }
    /** Time spent waiting for the client-side throttle. */
    public Duration throttleWait() { return Duration.ofNanos(throttleWaitNanos); }

    @Override
    public String toString() {
        return code + " " + source + (retries > 0 ? " after " + retries + " retries (" + retryWaitNanos / 1_000_000 + " ms)" : "");
    }
}
