package dev.ratecache.accesslog;

import java.time.OffsetDateTime;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One request as its log line recorded it. The time keeps the offset it was logged with, so a
 * summary can show the user the times they know from their own log; ordering uses the instant.
 *
 * @param line the line's number in the file (1 for the first), for reports that point the user back
 * @param client the original client as logged (IPv4, IPv6 or whatever the log held), never rewritten
 * @param method the request method, or {@link #NO_REQUEST} when the line records no usable request
 *     line (nginx logs {@code "-"} or a TLS handshake's bytes for a connection that sent none)
 * @param uri the request target as logged: path and query
 * @param status the response status, 0 when the log does not say
 * @param bytes the response body's size, empty when the log does not say
 * @param requestSeconds nginx's {@code $request_time}, when logged
 * @param upstreamSeconds nginx's {@code $upstream_response_time}, summed over every upstream tried
 * @param key the request's key (API key, token) from the log's key field, or {@link #NO_KEY}: no key
 *     field was read, the line has none, or it is empty or {@code -} (what nginx logs for a header
 *     the request did not carry)
 * @param limitStatus nginx's {@code $limit_req_status} as logged (PASSED, DELAYED, REJECTED,
 *     DELAYED_DRY_RUN, REJECTED_DRY_RUN), or {@link #NO_LIMIT_STATUS}: no such field was read, or
 *     nginx logged it empty or {@code -} because no limit_req applied to the request
 */
public record LoggedRequest(long line, OffsetDateTime time, String client, String method, String uri, int status,
        OptionalLong bytes, OptionalDouble requestSeconds, OptionalDouble upstreamSeconds, String key,
        String limitStatus) {
    /** The method of a line that is well formed but records no request that could be sent again. */
    public static final String NO_REQUEST = "-";

    /** {@link #key()} of a request without one. */
    public static final String NO_KEY = "";

    /** {@link #limitStatus()} of a request no limit_req decided, or of a log without the field. */
    public static final String NO_LIMIT_STATUS = "";

    public LoggedRequest {
        key = key == null ? NO_KEY : key;
        limitStatus = limitStatus == null ? NO_LIMIT_STATUS : limitStatus;
    }

    /** A request of a log read without a limit status field. */
    public LoggedRequest(long line, OffsetDateTime time, String client, String method, String uri, int status,
            OptionalLong bytes, OptionalDouble requestSeconds, OptionalDouble upstreamSeconds, String key) {
        this(line, time, client, method, uri, status, bytes, requestSeconds, upstreamSeconds, key, NO_LIMIT_STATUS);
    }

    /** A request of a log read without a key field. */
    public LoggedRequest(long line, OffsetDateTime time, String client, String method, String uri, int status,
            OptionalLong bytes, OptionalDouble requestSeconds, OptionalDouble upstreamSeconds) {
        this(line, time, client, method, uri, status, bytes, requestSeconds, upstreamSeconds, NO_KEY);
    }

    /** Whether nginx logged a limit_req decision for this request. */
    public boolean hasLimitStatus() {
        return !limitStatus.isEmpty();
    }

    public boolean hasKey() {
        return !key.isEmpty();
    }

    /** The uri without its query: what the origin serves a delay and a size for. */
    public String path() {
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }
}
