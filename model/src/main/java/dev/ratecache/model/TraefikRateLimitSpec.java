package dev.ratecache.model;

/**
 * A Traefik tier's limit in the RateLimit middleware's own terms ({@link TraefikRateLimit}):
 * {@code rateLimit: {average: AVERAGE, period: PERIOD, burst: BURST}}, its buckets in Traefik's
 * memory or in Redis. Traefik answers a rejection 429, always. {@link LimitSpec#traefik} makes one
 * from nginx's rate and burst as the suite does.
 *
 * @param average      {@code average}, requests per period
 * @param periodMs     {@code period}, in ms
 * @param burst        {@code burst}
 * @param store        where the buckets are kept
 * @param rejectStatus the status of a rejection: 429
 */
public record TraefikRateLimitSpec(long average, long periodMs, long burst, TraefikRateLimit.Store store,
        int rejectStatus) implements LimitSpec {

    public TraefikRateLimitSpec {
        if (average < 0 || periodMs < 0 || burst < 0) {
            throw new IllegalArgumentException("bad Traefik rate limit: average " + average + " per " + periodMs
                    + " ms, burst " + burst);
        }
    }

    @Override
    public Limiter limiter() {
        return new TraefikRateLimit(average, periodMs * 1_000_000L, burst, store);
    }
}
