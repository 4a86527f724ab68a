package dev.ratecache.model;

/**
 * A limit_req_zone rate, held the way nginx holds it: thousandths of a request per second.
 *
 * <p>{@code ngx_http_limit_req_zone} parses {@code rate=Nr/s} or {@code rate=Nr/m} and stores
 * {@code ctx->rate = rate * 1000 / scale} with integer division, so {@code 1r/m} is 16 (not
 * 16.67) thousandths per second. The model keeps that truncation.
 *
 * @param milliPerSecond thousandths of a request per second, at least 1
 */
public record Rate(long milliPerSecond) {

    public Rate {
        if (milliPerSecond <= 0) {
            throw new IllegalArgumentException("rate must be positive: " + milliPerSecond);
        }
    }

    /** {@code rate=Nr/s}. */
    public static Rate perSecond(long requests) {
        return new Rate(requests * 1000 / 1);
    }

    /** {@code rate=Nr/m}, truncated as {@code ngx_http_limit_req_zone} does. */
    public static Rate perMinute(long requests) {
        return new Rate(requests * 1000 / 60);
    }
}
