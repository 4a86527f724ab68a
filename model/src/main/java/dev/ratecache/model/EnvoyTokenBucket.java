package dev.ratecache.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Envoy's local rate limit with a wildcard descriptor, deciding as Envoy 1.40 does: a token bucket
 * per descriptor value (source/extensions/filters/common/local_ratelimit/local_ratelimit_impl.cc,
 * {@code DynamicDescriptor::addOrGetDescriptor} and {@code RateLimitTokenBucket::consume}), each an
 * {@code AtomicTokenBucketImpl} (source/common/common/token_bucket_impl.h), in doubles of seconds.
 *
 * <p>The bucket holds no token count, only a time {@code t}: the tokens at {@code now} are
 * {@code min(max_tokens, (now - t) * fill_rate)}, with {@code fill_rate = tokens_per_fill /
 * fill_interval} in tokens a second. A new bucket starts full ({@code t = now - max_tokens /
 * fill_rate}). A request that finds fewer than one token is refused and changes nothing; one that
 * finds {@code total >= 1} passes and moves {@code t = now - (total - 1) / fill_rate}. So the
 * refill is continuous: there is no timer and no {@code fill_interval} tick (the timer-based
 * bucket, the runtime guard {@code no_timer_based_rate_limit_token_bucket} and with it the
 * {@code fill_interval} rounding of earlier releases were removed before 1.40), the fraction of a
 * token earned is kept across passes (unlike vsthrottle 0.20's), and a refused request costs
 * nothing (unlike HAProxy's sliding window). {@code fill_interval} only sets the rate, and must be
 * at least 50 ms.
 *
 * <p>Rounding and clocks: {@code now} is the monotonic clock read at each call
 * ({@code timeNowInSeconds}: nanoseconds as a double of seconds), not a time cached per event-loop
 * iteration; the model takes the caller's milliseconds as seconds ({@code nowMs / 1000.0}). The
 * comparison {@code total < 1} is on doubles, so a gap worth exactly one token may compute as
 * 0.99999… and be refused; the model computes in the same doubles. The bucket is one per process,
 * shared by all worker threads through a compare-and-swap on {@code t} (no per-worker share); the
 * dynamic buckets are found under one mutex per wildcard descriptor.
 *
 * <p>Keys: each value a wildcard entry meets gets a bucket, kept in an LRU of
 * {@code max_dynamic_descriptors} (Envoy's default 20): the value used least recently is dropped
 * when a new one comes, and if it comes back it gets a new, full bucket. The model keeps the same
 * LRU. Not modelled: the share factor of a local cluster (the suite sets none), several matched
 * descriptors (the suite's key and ceiling are each a limiter of their own here), hits_addend.
 */
public final class EnvoyTokenBucket implements Limiter {

    private final double maxTokens;
    private final double fillRate;
    private final Map<String, double[]> buckets;

    /**
     * @param maxTokens       {@code token_bucket.max_tokens}
     * @param tokensPerFill   {@code token_bucket.tokens_per_fill}
     * @param fillIntervalMs  {@code token_bucket.fill_interval}, in milliseconds (at least 50)
     * @param maxDescriptors  {@code max_dynamic_descriptors}: buckets kept, the least recently used dropped
     */
    public EnvoyTokenBucket(long maxTokens, long tokensPerFill, long fillIntervalMs, int maxDescriptors) {
        if (maxTokens <= 0 || tokensPerFill <= 0 || fillIntervalMs < 50 || maxDescriptors <= 0) {
            throw new IllegalArgumentException("max_tokens and tokens_per_fill must be positive, fill_interval at"
                    + " least 50 ms, max_dynamic_descriptors positive: " + maxTokens + ", " + tokensPerFill + ", "
                    + fillIntervalMs + ", " + maxDescriptors);
        }
        this.maxTokens = maxTokens;
        // RateLimitTokenBucket: tokens_per_fill / std::chrono::duration<double>(fill_interval).count().
        this.fillRate = tokensPerFill / (fillIntervalMs / 1000.0);
        this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
                return size() > maxDescriptors;
            }
        };
    }

    @Override
    public Decision decide(String key, long nowMs) {
        return new Decision(consume(key, nowMs / 1000.0) ? LimitReqStatus.PASSED : LimitReqStatus.REJECTED, 0, 0, 0);
    }

    /** RateLimitTokenBucket::consume(1.0, 1) for {@code key}'s bucket at {@code now} seconds. */
    public boolean consume(String key, double now) {
        double[] t = buckets.get(key);
        if (t == null) {
            // AtomicTokenBucketImpl with init_fill: full at creation.
            t = new double[] {now - maxTokens / fillRate};
            buckets.put(key, t);
        }
        double total = Math.min(maxTokens, (now - t[0]) * fillRate);
        if (total < 1.0) {
            return false;
        }
        t[0] = now - ((total - 1.0) / fillRate);
        return true;
    }

    /** The tokens {@code key}'s bucket holds at {@code now} seconds; max_tokens for a key it has no bucket for. */
    public double tokens(String key, double now) {
        double[] t = buckets.get(key);
        return t == null ? maxTokens : Math.min(maxTokens, (now - t[0]) * fillRate);
    }
}
