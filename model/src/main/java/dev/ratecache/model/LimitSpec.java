package dev.ratecache.model;

/**
 * One tier's per-key request limit, in the terms of the product that enforces it: nginx's
 * limit_req ({@link LimitReqSpec}), HAProxy's stick-table request rate ({@link HaproxyReqRateSpec})
 * or Varnish's vsthrottle ({@link VsthrottleSpec}), or Traefik's RateLimit middleware
 * ({@link TraefikRateLimitSpec}); or a quota per window ({@link QuotaSpec}), which the
 * suite's Redis script counts for every edge alike. The simulation asks each for a fresh
 * {@link Limiter} per zone and for the status a rejection is answered with.
 */
public sealed interface LimitSpec permits LimitReqSpec, HaproxyReqRateSpec, VsthrottleSpec, QuotaSpec,
        TraefikRateLimitSpec {

    /** The status a rejected request is answered with. */
    int rejectStatus();

    /** A zone of this limit with no state yet. */
    Limiter limiter();

    /**
     * nginx's rate and burst as the suite's HAProxy edge renders them. Must agree with the suite's
     * HaproxyEdge.Window (haproxy/snippets/front/client-limit.cfg): a threshold of burst+1 over
     * round((burst+1)*1000/rate) ms, at least 1, kept 2 periods.
     */
    static HaproxyReqRateSpec haproxy(int rate, int burst, int rejectStatus) {
        long threshold = burst + 1L;
        long period = periodMs(threshold, rate);
        return new HaproxyReqRateSpec(period, threshold, 2 * period, rejectStatus);
    }

    /**
     * nginx's rate and burst as the suite's Varnish edge renders them. Must agree with the suite's
     * VarnishEdge.Bucket (varnish/snippets/front/client-limit.vcl): a limit of burst+1 tokens over
     * round((burst+1)*1000/rate) ms, at least 1.
     */
    static VsthrottleSpec vsthrottle(int rate, int burst, int rejectStatus) {
        long tokens = burst + 1L;
        return new VsthrottleSpec(tokens, periodMs(tokens, rate), rejectStatus);
    }

    /**
     * nginx's rate and burst as the suite's Traefik edge renders them, its buckets in Traefik's
     * memory. Must agree with the suite's TraefikEdge.Bucket (traefik/snippets/shared/client-limit.yml):
     * average R per 1 s and a burst of B+1, what nginx passes at once from an idle bucket.
     */
    static TraefikRateLimitSpec traefik(int rate, int burst, int rejectStatus) {
        if (rate <= 0 || burst < 0) {
            throw new IllegalArgumentException("rate must be positive and burst not negative: " + rate + ", " + burst);
        }
        return new TraefikRateLimitSpec(rate, 1000, burst + 1L, TraefikRateLimit.Store.MEMORY, rejectStatus);
    }

    private static long periodMs(long perPeriod, int rate) {
        if (rate <= 0 || perPeriod <= 0) {
            throw new IllegalArgumentException("rate and burst+1 must be positive: " + rate + ", " + perPeriod);
        }
        return Math.max(1, Math.round(perPeriod * 1000.0 / rate));
    }
}
