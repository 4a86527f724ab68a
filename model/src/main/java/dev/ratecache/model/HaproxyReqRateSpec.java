package dev.ratecache.model;

/**
 * A HAProxy tier's limit in HAProxy's own terms ({@link HaproxyReqRate}):
 * {@code stick-table ... expire EXPIRE store http_req_rate(PERIOD)} and
 * {@code http-request deny deny_status STATUS if { sc_http_req_rate(0) gt THRESHOLD }}.
 * {@link LimitSpec#haproxy} makes one from nginx's rate and burst as the suite does.
 *
 * @param periodMs     {@code http_req_rate(PERIOD)}, in ms
 * @param threshold    the deny rule's {@code gt} value
 * @param expireMs     the stick-table's {@code expire}, in ms
 * @param rejectStatus {@code deny_status}
 */
public record HaproxyReqRateSpec(long periodMs, long threshold, long expireMs, int rejectStatus) implements LimitSpec {

    public HaproxyReqRateSpec {
        if (periodMs <= 0 || threshold < 0 || expireMs <= 0) {
            throw new IllegalArgumentException("bad http_req_rate limit: period " + periodMs + " ms, gt " + threshold
                    + ", expire " + expireMs + " ms");
        }
    }

    @Override
    public Limiter limiter() {
        return new HaproxyReqRate(periodMs, threshold, expireMs);
    }
}
