package dev.ratecache.model;

/**
 * An Envoy tier's limit in its local rate limit's own terms ({@link EnvoyTokenBucket}): a
 * descriptor's {@code token_bucket} of {@code maxTokens}, {@code tokensPerFill} per
 * {@code fillIntervalMs}, its buckets kept in an LRU of {@code maxDescriptors}, refused with
 * {@code rejectStatus}. {@link LimitSpec#envoy} makes one from nginx's rate and burst as the suite
 * does.
 */
public record EnvoyTokenBucketSpec(long maxTokens, long tokensPerFill, long fillIntervalMs, int maxDescriptors,
        int rejectStatus) implements LimitSpec {

    /** max_dynamic_descriptors as the suite's front renders it (EnvoyEdge.MAX_CLIENTS). */
    public static final int SUITE_MAX_DESCRIPTORS = 80_000;

    public EnvoyTokenBucketSpec {
        if (maxTokens <= 0 || tokensPerFill <= 0 || fillIntervalMs < 50 || maxDescriptors <= 0) {
            throw new IllegalArgumentException("bad Envoy token bucket: " + maxTokens + " tokens, " + tokensPerFill
                    + " per " + fillIntervalMs + " ms, " + maxDescriptors + " buckets");
        }
    }

    @Override
    public Limiter limiter() {
        return new EnvoyTokenBucket(maxTokens, tokensPerFill, fillIntervalMs, maxDescriptors);
    }
}
