package dev.ratecache.client;

import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;

/**
 * A token bucket that keeps a client under a known server limit instead of being rejected by
 * it: {@code rate} requests per second on average, up to {@code burst} at once after a quiet
 * spell. Only requests that go to the network take a token; cache hits are free. Waiters are
 * served in arrival order. One instance may be shared by several clients to keep them under
 * one limit together.
 */
public final class Throttle {
    private final double rate;
    private final int burst;
    private final double nanosPerToken;
    private double tokens;
    private long last;

    private Throttle(double rate, int burst) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("throttle rate must be a positive number of requests per second (got " + rate + ")");
        }
        if (burst < 1) {
            throw new IllegalArgumentException("throttle burst must be >= 1 (got " + burst + ")");
        }
        this.rate = rate;
        this.burst = burst;
        this.nanosPerToken = 1e9 / rate;
        this.tokens = burst;
        this.last = System.nanoTime();
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
        long wait = reserve();
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the client-side throttle");
            }
        }
        return wait;
    }

    /** Takes a token now, possibly going into debt; the debt is how long this caller must wait. */
    private synchronized long reserve() {
        long now = System.nanoTime();
        tokens = Math.min(burst, tokens + (now - last) / nanosPerToken);
        last = now;
        tokens -= 1;
        return tokens >= 0 ? 0 : (long) (-tokens * nanosPerToken);
    }

    @Override
    public String toString() {
        return rate + " r/s, burst " + burst;
    }
}
