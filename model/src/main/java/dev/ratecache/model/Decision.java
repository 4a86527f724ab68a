package dev.ratecache.model;

/**
 * What limit_req decided for one request. The other {@link Limiter}s answer PASSED or REJECTED
 * only, with no delay, excess or index (0 each), but for Traefik's, which answers DELAYED with the
 * delay of a request held for its token.
 *
 * @param status       the {@code $limit_req_status} nginx would log
 * @param delayMs      how long the request waits before the next phase (0 unless DELAYED)
 * @param excessMilli  the excess nginx computed, in thousandths of a request (as in its
 *                     "limiting requests, excess: 5.123" log line)
 * @param limitIndex   which of the location's limit_req directives decided (0 for a single one)
 */
public record Decision(LimitReqStatus status, long delayMs, long excessMilli, int limitIndex) {

    /** Whether the request goes on to the next phase (now or after its delay). */
    public boolean accepted() {
        return status != LimitReqStatus.REJECTED;
    }
}
