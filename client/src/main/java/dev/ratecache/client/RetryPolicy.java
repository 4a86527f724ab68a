package dev.ratecache.client;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * When and how long to wait before repeating a request the server rejected for being over its
 * rate limit. Immutable; build one with {@link #builder()}.
 *
 * <ul>
 *   <li>Only the {@linkplain #statuses() rejection statuses} (429 and 503 by default) are retried,
 *       and only for idempotent methods (GET, HEAD, OPTIONS, TRACE, PUT, DELETE) whose body, if any,
 *       can be sent again: a POST is never repeated.</li>
 *   <li>A {@code Retry-After} header (delta-seconds or an HTTP-date) is honoured, plus up to
 *       {@linkplain Builder#retryAfterJitter(double) a little jitter} so that clients told the same
 *       second don't all come back in it; without one, the wait is a jittered exponential backoff.</li>
 *   <li>No single wait is longer than {@link #maxWait()}; no retry is started that would end its
 *       wait after {@link #budget()} since the request began; at most {@link #maxRetries()}.</li>
 * </ul>
 */
public final class RetryPolicy {
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");
    private static final RetryPolicy DEFAULTS = builder().build();
    private static final RetryPolicy NONE = builder().maxRetries(0).build();

    private final Set<Integer> statuses;
    private final int maxRetries;
    private final Duration maxWait;
    private final Duration budget;
    private final Duration initialBackoff;
    private final double retryAfterJitter;

    private RetryPolicy(Builder b) {
        this.statuses = Set.copyOf(b.statuses);
        this.maxRetries = b.maxRetries;
        this.maxWait = b.maxWait;
        this.budget = b.budget;
        this.initialBackoff = b.initialBackoff;
        this.retryAfterJitter = b.retryAfterJitter;
    }

    /** 429 and 503, up to 3 retries, no wait over 10 s, 20 s in all, backoff from 200 ms, Retry-After + up to 10%. */
    public static RetryPolicy defaults() { return DEFAULTS; }

    /** Never retries; rejections are still counted and still never stored in the cache. */
    public static RetryPolicy none() { return NONE; }

    public static Builder builder() { return new Builder(); }

    /** A builder starting from this policy's settings. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.statuses = new TreeSet<>(statuses);
        b.maxRetries = maxRetries;
        b.maxWait = maxWait;
        b.budget = budget;
        b.initialBackoff = initialBackoff;
        b.retryAfterJitter = retryAfterJitter;
        return b;
    }

    /** The statuses that mean "over the limit, try later". */
    public Set<Integer> statuses() { return statuses; }
    /** Retries after the first attempt at most. */
    public int maxRetries() { return maxRetries; }
    /** The longest single wait. */
    public Duration maxWait() { return maxWait; }
    /** The time a request may take in all before retrying stops. */
    public Duration budget() { return budget; }
    /** The first backoff step when there is no Retry-After. */
    public Duration initialBackoff() { return initialBackoff; }
    /** The most added at random to a Retry-After wait, as a fraction of it. */
    public double retryAfterJitter() { return retryAfterJitter; }

    /** Whether {@code status} is one of this policy's rejections. */
    public boolean isRejection(int status) {
        return statuses.contains(status);
    }

    /** Whether a request with this method may be sent twice (RFC 9110 section 9.2.2). */
    public static boolean isIdempotent(String method) {
        return IDEMPOTENT.contains(method.toUpperCase(Locale.ROOT));
    }

    /**
     * The wait before retry number {@code retry} (0 for the first), or {@code null} when there is
     * to be no retry. {@code retryAfter} is the server's Retry-After as a duration (null when it sent
     * none), {@code elapsed} the time since the request began, {@code random} a value in [0, 1).
     */
    Duration nextWait(int retry, Duration retryAfter, Duration elapsed, double random) {
        if (retry >= maxRetries) {
            return null;
        }
        long nanos;
        if (retryAfter != null) {
            long asked = retryAfter.toNanos();
            nanos = asked + (long) (asked * retryAfterJitter * random);
        } else {
            // "Equal jitter": half the exponential step for sure, the other half at random, so
            // retries spread out but never collapse to zero.
            long step = initialBackoff.toNanos() << Math.min(retry, 30);
            nanos = step / 2 + (long) (step / 2 * random);
        }
        nanos = Math.min(Math.max(nanos, 0), maxWait.toNanos());
        if (elapsed.toNanos() + nanos > budget.toNanos()) {
            return null;
        }
        return Duration.ofNanos(nanos);
    }

    /**
     * The wait before retrying a request whose quota is exhausted (a 429 with the quota-exceeded
     * problem), or {@code null} for no retry. {@code untilReset} is how long the server said the
     * quota stays spent (its Retry-After, or the violated policy's reset, whichever is later; null
     * when it said neither). Unlike a burst rejection's, this wait is never cut to {@link #maxWait()}:
     * a retry before the reset can only be rejected again and spend nothing but the server's
     * time, so when the reset is unknown, further off than {@code maxWait}, or past the
     * {@link #budget()}, the rejection is answered at once.
     */
    Duration nextQuotaWait(int retry, Duration untilReset, Duration elapsed, double random) {
        if (retry >= maxRetries || untilReset == null) {
            return null;
        }
        long asked = untilReset.toNanos();
        if (asked > maxWait.toNanos()) {
            return null;
        }
        long nanos = Math.max(asked, Math.min(asked + (long) (asked * retryAfterJitter * random), maxWait.toNanos()));
        if (elapsed.toNanos() + nanos > budget.toNanos()) {
            return null;
        }
        return Duration.ofNanos(nanos);
    }

    @Override
    public String toString() {
        return maxRetries == 0 ? "no retries"
                : "retry " + statuses + " up to " + maxRetries + " times, each wait <= " + maxWait
                        + ", budget " + budget + ", backoff from " + initialBackoff;
    }

    /** Builds a {@link RetryPolicy}; every setting starts at {@link RetryPolicy#defaults()}'s value. */
    public static final class Builder {
        private Set<Integer> statuses = new TreeSet<>(Set.of(429, 503));
        private int maxRetries = 3;
        private Duration maxWait = Duration.ofSeconds(10);
        private Duration budget = Duration.ofSeconds(20);
        private Duration initialBackoff = Duration.ofMillis(200);
        private double retryAfterJitter = 0.1;

        private Builder() {}

        /** The statuses to retry; default 429 and 503. */
        public Builder statuses(Set<Integer> statuses) {
            for (int s : statuses) {
                if (s < 400 || s > 599) {
                    throw new IllegalArgumentException("retry statuses must be 4xx or 5xx (got " + s + ")");
                }
            }
            this.statuses = new TreeSet<>(statuses);
            return this;
        }

        /** Retries after the first attempt; 0 turns retrying off. Default 3. */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0) {
                throw new IllegalArgumentException("maxRetries must be >= 0 (got " + maxRetries + ")");
            }
            this.maxRetries = maxRetries;
            return this;
        }

        /** The longest single wait, whatever Retry-After says. Default 10 s. */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = positive(maxWait, "maxWait");
            return this;
        }

        /** The time a request may take in all, waits included, before retrying stops. Default 20 s. */
        public Builder budget(Duration budget) {
            this.budget = positive(budget, "budget");
            return this;
        }

        /** The first backoff step when the server sends no Retry-After; it doubles each retry. Default 200 ms. */
        public Builder initialBackoff(Duration initialBackoff) {
            this.initialBackoff = positive(initialBackoff, "initialBackoff");
            return this;
        }

        /**
         * Up to this fraction is added at random to a Retry-After wait (never taken off: the
         * server's time is a minimum). Default 0.1; 0 waits exactly what the server said.
         */
        public Builder retryAfterJitter(double fraction) {
            if (!(fraction >= 0 && fraction <= 1)) {
                throw new IllegalArgumentException("retryAfterJitter must be from 0 to 1 (got " + fraction + ")");
            }
            this.retryAfterJitter = fraction;
            return this;
        }

        /** The policy with these settings. */
        public RetryPolicy build() {
            return new RetryPolicy(this);
        }

        private static Duration positive(Duration d, String name) {
            Objects.requireNonNull(d, name);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be positive (got " + d + ")");
            }
            return d;
        }
    }
}
