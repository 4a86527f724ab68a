package dev.ratecache.model;

/**
 * One {@code limit_req_zone} + {@code limit_req} pair, in nginx's units.
 *
 * <p>{@code ngx_http_limit_req} stores {@code burst * 1000} and {@code delay * 1000};
 * {@code nodelay} is {@code delay = NGX_MAX_INT_T_VALUE / 1000} (times 1000), i.e. never delay;
 * the default (no nodelay, no delay=) is delay 0, i.e. every request over the rate queues.
 *
 * @param rate          the zone's rate
 * @param burstMilli    {@code burst} in thousandths
 * @param delayMilli    the delay threshold in thousandths (0 = queue, huge = nodelay)
 * @param rejectStatus  {@code limit_req_status} (nginx's default is 503)
 */
public record LimitReqSpec(Rate rate, long burstMilli, long delayMilli, int rejectStatus) implements LimitSpec {

    /** {@code NGX_MAX_INT_T_VALUE / 1000 * 1000} on a 64-bit build: the nodelay threshold. */
    public static final long NODELAY_MILLI = Long.MAX_VALUE / 1000 * 1000;

    public LimitReqSpec {
        if (rate == null || burstMilli < 0 || delayMilli < 0) {
            throw new IllegalArgumentException("bad limit_req: " + rate + " " + burstMilli + " " + delayMilli);
        }
    }

    /** {@code limit_req zone=... burst=N;} — requests over the rate wait their turn. */
    public static LimitReqSpec queue(Rate rate, int burst) {
        return new LimitReqSpec(rate, burst * 1000L, 0, 503);
    }

    /** {@code limit_req zone=... burst=N nodelay;} — accepted requests never wait. */
    public static LimitReqSpec nodelay(Rate rate, int burst) {
        return new LimitReqSpec(rate, burst * 1000L, NODELAY_MILLI, 503);
    }

    /** {@code limit_req zone=... burst=N delay=D;} — the first D excess requests do not wait. */
    public static LimitReqSpec delay(Rate rate, int burst, int delay) {
        return new LimitReqSpec(rate, burst * 1000L, delay * 1000L, 503);
    }

    /** The same limit answering rejected requests with {@code status} ({@code limit_req_status}). */
    public LimitReqSpec withRejectStatus(int status) {
        return new LimitReqSpec(rate, burstMilli, delayMilli, status);
    }

    @Override
    public Limiter limiter() {
        return new LimitReq(this);
    }
}
