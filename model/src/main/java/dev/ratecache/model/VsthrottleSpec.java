package dev.ratecache.model;

/**
 * A Varnish tier's limit in vsthrottle's own terms ({@link Vsthrottle}):
 * {@code vsthrottle.is_denied(KEY, LIMIT, PERIODms)} answered with {@code synth(STATUS)}, no block.
 * {@link LimitSpec#vsthrottle} makes one from nginx's rate and burst as the suite does.
 *
 * @param limit        tokens per period, the bucket's capacity
 * @param periodMs     the period, in whole ms as the suite renders it
 * @param rejectStatus the synthetic answer's status
 */
public record VsthrottleSpec(long limit, long periodMs, int rejectStatus) implements LimitSpec {

    public VsthrottleSpec {
        if (limit < 0 || periodMs <= 0) {
            throw new IllegalArgumentException("bad vsthrottle limit: " + limit + " per " + periodMs + " ms");
        }
    }

    @Override
    public Limiter limiter() {
        return new Vsthrottle(limit, periodSeconds(periodMs), 0);
    }

    /**
     * The period as the compiled VCL passes it: varnishd -C turns the literal {@code 5100ms} into
     * {@code 5100.000 * 0.001}, the very double this product is (not always 5100 / 1000.0).
     */
    static double periodSeconds(long periodMs) {
        return periodMs * 0.001;
    }
}
