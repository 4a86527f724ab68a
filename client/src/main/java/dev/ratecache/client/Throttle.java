package dev.ratecache.client;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BandwidthBuilder;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.local.LocalBucketBuilder;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;

/**
 * A token bucket that keeps a client under a known server limit instead of being rejected by
 * it: {@code rate} requests per second on average, up to {@code burst} at once after a quiet
 * spell. Only requests that go to the network take a token; cache hits are free. Waiters are
 * served in arrival order (each reserves its token, then waits out its turn). One instance may
 * be shared by several clients to keep them under one limit together. A Bucket4j bucket.
 */
public final class Throttle {
    private final double rate;
    private final int burst;
    private final Bucket bucket;

    private Throttle(double rate, int burst) {
        if (!(rate > 0) || Double.isInfinite(rate) || rate > 1e9) {
            throw new IllegalArgumentException("throttle rate must be a positive number of requests per second, at most 1e9 (got " + rate + ")");
        }
        if (burst < 1) {
            throw new IllegalArgumentException("throttle burst must be >= 1 (got " + burst + ")");
        }
        this.rate = rate;
        this.burst = burst;
        this.bucket = Buckets.of(List.of(Buckets.limit(burst, rate, burst)));
    }

    /** {@code requestsPerSecond} on average, at most {@code burst} back to back. */
    public static Throttle of(double requestsPerSecond, int burst) {
        return new Throttle(requestsPerSecond, burst);
    }

    /** Requests per second on average. */
    public double rate() { return rate; }
    /** Requests at most back to back. */
    public int burst() { return burst; }

    /**
     * Takes a token, waiting until it is due; returns the nanoseconds waited.
     *
     * @throws InterruptedIOException when interrupted while waiting (the interrupt flag is kept)
     */
    public long acquire() throws InterruptedIOException {
        return Buckets.take(bucket, "the client-side throttle");
    }

    @Override
    public String toString() {
        return rate + " r/s, burst " + burst;
    }

    /** The two limiters' shared use of Bucket4j. */
    static final class Buckets {
        private Buckets() {}

        /**
         * A limit of {@code capacity} tokens refilled continuously at {@code perSecond}, starting
         * with {@code initial}. Bucket4j refills whole tokens per period: a fractional rate is one
         * token per its period in nanoseconds.
         */
        static Bandwidth limit(long capacity, double perSecond, long initial) {
            Duration perToken = Duration.ofNanos(Math.max(1, Math.round(1e9 / perSecond)));
            return BandwidthBuilder.builder().capacity(capacity).refillGreedy(1, perToken).initialTokens(initial).build();
        }

        /** A bucket that every one of {@code limits} must admit. */
        static Bucket of(List<Bandwidth> limits) {
            LocalBucketBuilder builder = Bucket.builder().withNanosecondPrecision();
            limits.forEach(builder::addLimit);
            return builder.build();
        }

        /** Takes one token, waiting for it; returns the nanoseconds waited. */
        static long take(Bucket bucket, String what) throws InterruptedIOException {
            if (bucket.tryConsume(1)) {
                return 0;
            }
            long start = System.nanoTime();
            try {
                bucket.asBlocking().consume(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for " + what);
            }
            return System.nanoTime() - start;
        }
    }
}
