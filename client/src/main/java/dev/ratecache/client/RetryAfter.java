package dev.ratecache.client;

import java.time.Duration;
import java.time.Instant;
import org.apache.hc.client5.http.utils.DateUtils;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpResponse;

/** Reads a response's Retry-After (RFC 9110 section 10.2.3). */
final class RetryAfter {
    private RetryAfter() {}

    /** The wait the response asks for, or null when it asks for none or says it unreadably. */
    static Duration of(HttpResponse response, Instant now) {
        Header h = response.getFirstHeader(HttpHeaders.RETRY_AFTER);
        if (h == null) {
            return null;
        }
        Header date = response.getFirstHeader(HttpHeaders.DATE);
        return parse(h.getValue(), date == null ? null : date.getValue(), now);
    }

    /**
     * {@code value} is delta-seconds or an HTTP-date. A date is taken relative to the response's
     * own Date header when there is one, so a client whose clock is off still waits as long as
     * the server meant; otherwise relative to {@code now}. A date in the past means no wait.
     */
    static Duration parse(String value, String dateHeader, Instant now) {
        String v = value.trim();
        if (v.isEmpty()) {
            return null;
        }
        if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Duration.ofSeconds(Long.parseLong(v));
            } catch (NumberFormatException tooLong) {
                return Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L);
            }
        }
        Instant at = DateUtils.parseStandardDate(v);
        if (at == null) {
            return null;
        }
        Instant base = dateHeader == null ? null : DateUtils.parseStandardDate(dateHeader);
        Duration wait = Duration.between(base != null ? base : now, at);
        return wait.isNegative() ? Duration.ZERO : wait;
    }
}
