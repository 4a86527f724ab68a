package dev.ratecache.model;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;

/**
 * Traefik's RateLimit middleware, deciding as Traefik 3.7.15 does, in its two stores: the
 * in-memory one (a {@code golang.org/x/time/rate} Limiter per source) and Redis (a Lua token
 * bucket). Read from Traefik's source, pkg/middlewares/ratelimiter/ (rate_limiter.go,
 * in_memory_limiter.go, redis_limiter.go, lua.go, ttlmap/ttlmap.go) at v3.7.9, the newest tag of
 * the source snapshot read, and checked against the 3.7.15 binary: the Lua script it carries is
 * v3.7.9's but for {@code #rl_source} in place of {@code table.maxn(rl_source)} (the same count for
 * the hash's four fields); and golang.org/x/time's rate/rate.go at its commit of September 2025
 * (after v0.13.0; the 3.7.15 binary links v0.16.0, whose rate.go was not read). The
 * request-by-request comparison with the binary (the suite's TraefikRateLimitAgainstTraefikTest)
 * is what vouches for the versions between.
 *
 * <p>The settings (rate_limiter.go, New): {@code rate = average * 1s / period}, a float64 of
 * requests a second; {@code period} 0 is a second; {@code average} 0 is {@code rate.Inf}, no limit
 * at all; {@code burst} is {@code max(burst, 1)} (the dynamic config's default is 1, and 0 is
 * taken as 1). {@code maxDelay}, how long a request may be held for a token still to come, is
 * {@code 1s / (int(rate) * 2)} in whole nanoseconds for a rate of 1 or more (the rate truncated to
 * an integer first: 2.9 r/s gets 250 ms, not 172), and 500 ms below 1. A source's bucket is kept
 * {@code ttl} seconds after its last request: 2 for a rate of 1 or more, else {@code 1 + int(1/rate)}.
 *
 * <p>One request, in memory (in_memory_limiter.go, Allow, and rate.go): the source's bucket is
 * looked up in a ttlmap, whose expiry is {@code unix_seconds(now) + ttl}, compared in whole Unix
 * seconds ({@code expiry <= now.Unix()}); an expired or missing bucket is a new one, full, of
 * {@code burst} tokens. So a key idle for between ttl-1 and ttl seconds, by where the second
 * boundaries fall, comes back with a full burst, whatever the refill would have given it: with
 * 10 r/s and a burst of 51, a client that drained it and waits 2 s gets 51 again, not 20. Then
 * {@code Reserve()}: {@code advance} refills {@code elapsed.Seconds() * rate} tokens (float64,
 * no rounding), capped at burst; one is taken, and a negative balance is a wait of
 * {@code int64((-tokens / rate) * 1e9)} ns, truncated. The reservation is always taken (the
 * bucket may go below zero). If that wait, read again as {@code Delay()} a moment later, exceeds
 * maxDelay the reservation is cancelled ({@code CancelAt}: the token is given back, capped at
 * burst) and the answer is 429 with {@code Retry-After: ceil(wait in seconds)} and
 * {@code X-Retry-In: wait}; otherwise the request sleeps the wait and goes on. So Traefik is a
 * token bucket whose requests within half a token of the next are delayed, not rejected: no
 * request is queued longer than maxDelay, and a rejected one costs nothing. Only a rejection with
 * {@code burst} below 1, impossible after {@code max(burst, 1)}, answers "No bursty traffic
 * allowed". Nothing is rounded to a millisecond: the clock is Go's, in nanoseconds, read once for
 * the ttlmap, once to reserve, once for the delay and once to cancel; this model reads it once.
 *
 * <p>In Redis (redis_limiter.go, lua.go), one EVALSHA per request, atomic: the rate is passed in
 * tokens per microsecond ({@code rate / 1e6}), now as {@code time.Now().UnixMicro()} (Traefik's
 * clock, in whole microseconds, not Redis's) and maxDelay in whole microseconds, truncated. A
 * missing key is {@code last = 0, tokens = 0}, which the elapsed time since 1970 fills to the
 * burst. The refill, the take and the wait are the same float arithmetic; a wait above maxDelay
 * gives the token back in the script. Differences from memory: the key expires in Redis
 * {@code ttl} seconds after the last request, to the millisecond, not on whole Unix seconds; the
 * wait comes back through Lua's {@code tostring}, 14 significant digits, and is turned into
 * nanoseconds by truncation; and the script compares the wait in microseconds with maxDelay
 * truncated to microseconds, where Go then compares nanoseconds. A wait just above maxDelay's
 * whole microseconds (maxDelay 166 666 666 ns at 3 r/s, a wait of 166 666.3 µs) has its token
 * given back by the script and is still served by Go after the wait: a pass that costs nothing.
 * And the time is read before the script's round trip, so scripts can reach Redis out of the order
 * of their times (two requests at once, a busy machine, or several Traefik instances whose clocks
 * differ): a script with a time before the key's {@code last} refills nothing, then stores its
 * older time as {@code last}, so the next script refills that span a second time. Call
 * {@link #outcome} in the order the scripts run, with the times they carry, and this model does the
 * same.
 *
 * <p>{@code average} 0 with Redis rejects every request: evaluateScript returns no delay for a rate of
 * Inf, which ServeHTTP reads as "No bursty traffic allowed", a 429 without Retry-After; in memory
 * the same setting lets everything through.
 *
 * <p>Not modelled: the ttlmap's capacity of 65536 sources (the entry nearest expiry is evicted),
 * two requests of a new source racing to create its bucket, and Redis errors (answered 500).
 */
public final class TraefikRateLimit implements Limiter {
    private static final long SECOND_NS = 1_000_000_000L;

    /** Which store holds the buckets: Traefik's own memory, or Redis (the middleware's {@code redis} option). */
    public enum Store { MEMORY, REDIS }

    /**
     * One decision in Traefik's terms.
     *
     * @param passed  whether the request goes on to the service (after {@code waitNs})
     * @param waitNs  the reservation's wait: how long a passed request sleeps first, or, rejected,
     *                the X-Retry-In it is told; 0 when a token was there
     */
    public record Outcome(boolean passed, long waitNs) {
        /** The Retry-After a rejection carries: the wait in seconds, rounded up. */
        public long retryAfterSeconds() {
            return (waitNs + SECOND_NS - 1) / SECOND_NS;
        }
    }

    /** x/time/rate's Limiter, or the Redis hash: tokens and when they were counted. */
    private static final class Bucket {
        double tokens;
        /** Nanoseconds in memory, microseconds in Redis. */
        long last;
        /** In memory: the ttlmap's expiry, in Unix seconds; in Redis: the key's, in ns. */
        long expiry;
    }

    private final double rate;
    private final long burst;
    private final long maxDelayNs;
    private final int ttlSeconds;
    private final Store store;
    private final Map<String, Bucket> buckets = new HashMap<>();

    /**
     * @param average  the middleware's {@code average}; 0 is no limit
     * @param periodNs its {@code period}, in nanoseconds; 0 is a second
     * @param burst    its {@code burst}; below 1 is 1
     * @param store    where the buckets are kept
     */
    public TraefikRateLimit(long average, long periodNs, long burst, Store store) {
        if (average < 0 || periodNs < 0) {
            throw new IllegalArgumentException("average and period must not be negative: " + average + ", " + periodNs);
        }
        long period = periodNs == 0 ? SECOND_NS : periodNs;
        this.rate = average > 0 ? (double) (average * SECOND_NS) / (double) period : Double.POSITIVE_INFINITY;
        this.burst = Math.max(burst, 1);
        this.maxDelayNs = average == 0 ? 0 : rate < 1 ? 500_000_000L : SECOND_NS / ((long) rate * 2);
        this.ttlSeconds = rate >= 1 ? 2 : 1 + (int) (1 / rate);
        this.store = store;
    }

    /** Requests a second, as Traefik computes it. */
    public double rate() {
        return rate;
    }

    /** The longest a request is held for a token still to come, in nanoseconds. */
    public long maxDelayNs() {
        return maxDelayNs;
    }

    /** How long a source's bucket is kept after its last request, in seconds. */
    public int ttlSeconds() {
        return ttlSeconds;
    }

    /**
     * As {@link #outcome} at {@code nowMs}: PASSED, DELAYED by the wait rounded up to a millisecond,
     * or REJECTED.
     */
    @Override
    public Decision decide(String key, long nowMs) {
        Outcome o = outcome(key, nowMs * 1_000_000L);
        if (!o.passed()) {
            return new Decision(LimitReqStatus.REJECTED, 0, 0, 0);
        }
        long delayMs = (o.waitNs() + 999_999) / 1_000_000;
        return new Decision(delayMs > 0 ? LimitReqStatus.DELAYED : LimitReqStatus.PASSED, delayMs, 0, 0);
    }

    /**
     * One request of source {@code key} at {@code nowNs}, Traefik's wall clock in Unix
     * nanoseconds (the ttlmap and the Redis script read Unix time). Times must not go backwards
     * for a key by more than the product would tolerate: x/time/rate takes an earlier time as no
     * time passed.
     */
    public Outcome outcome(String key, long nowNs) {
        if (Double.isInfinite(rate)) {
            // redis_limiter.go answers a rate of Inf with no delay at all (nil), which ServeHTTP
            // takes for a bucket that cannot hold one request: 429 "No bursty traffic allowed".
            return new Outcome(store == Store.MEMORY, 0);
        }
        return store == Store.MEMORY ? inMemory(key, nowNs) : redis(key, nowNs);
    }

    private Outcome inMemory(String key, long now) {
        long unixSeconds = Math.floorDiv(now, SECOND_NS);
        Bucket b = buckets.get(key);
        if (b == null || b.expiry <= unixSeconds) {
            // rate.NewLimiter: full, last the zero time, whose distance saturates to the full burst.
            b = new Bucket();
            b.tokens = burst;
            b.last = Long.MIN_VALUE;
            buckets.put(key, b);
        }
        b.expiry = unixSeconds + ttlSeconds;
        // reserveN(now, 1, InfDuration)
        double tokens = advance(b, now) - 1;
        long waitNs = 0;
        if (tokens < 0) {
            waitNs = durationFromTokens(-tokens);
        }
        b.last = now;
        b.tokens = tokens;
        if (waitNs > maxDelayNs) {
            // CancelAt(now): the reservation was the last, so its whole token comes back.
            b.tokens = Math.min(advance(b, now) + 1, burst);
            return new Outcome(false, waitNs);
        }
        return new Outcome(true, waitNs);
    }

    /** Limiter.advance: the tokens at {@code now}, capped at burst; an earlier time counts as no time. */
    private double advance(Bucket b, long now) {
        long last = Math.min(b.last, now);
        double delta = b.last == Long.MIN_VALUE ? Double.POSITIVE_INFINITY : seconds(now - last) * rate;
        return Math.min(b.tokens + delta, burst);
    }

    /** Go's Duration.Seconds: whole seconds and the remaining nanoseconds, each a float64. */
    static double seconds(long ns) {
        long sec = ns / SECOND_NS;
        long nsec = ns % SECOND_NS;
        return (double) sec + (double) nsec / 1e9;
    }

    /** Limit.durationFromTokens: {@code time.Duration((tokens / limit) * 1e9)}, truncated. */
    private long durationFromTokens(double tokens) {
        double ns = (tokens / rate) * 1e9;
        return ns > Long.MAX_VALUE ? Long.MAX_VALUE : (long) ns;
    }

    private Outcome redis(String key, long nowNs) {
        double limit = rate / 1_000_000;
        long t = Math.floorDiv(nowNs, 1000);
        long maxDelayMicros = maxDelayNs / 1000;
        Bucket b = buckets.get(key);
        // EXPIRE key ttl, checked by Redis to the millisecond: idle longer, and the hash is gone.
        if (b == null || nowNs > b.expiry) {
            b = new Bucket();
            b.tokens = 0;
            b.last = 0;
            buckets.put(key, b);
        }
        long last = Math.min(b.last, t);
        double elapsed = t - last;
        double tokens = Math.min(b.tokens + limit * elapsed, burst) - 1;
        double wait = 0;
        if (tokens < 0) {
            wait = -tokens / limit;
            if (wait > maxDelayMicros) {
                tokens = Math.min(tokens + 1, burst);
            }
        }
        b.last = t;
        b.tokens = tokens;
        b.expiry = nowNs + ttlSeconds * SECOND_NS;
        // tostring in Redis's Lua 5.1 ("%.14g"), then strconv.ParseFloat and Duration(delay * 1µs).
        long waitNs = (long) (luaToString(wait) * 1000.0);
        return new Outcome(waitNs <= maxDelayNs, waitNs);
    }

    /** A Lua 5.1 number as tostring prints it and ParseFloat reads it back: 14 significant digits. */
    static double luaToString(double value) {
        if (value == 0 || Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        return new BigDecimal(value).round(new MathContext(14, RoundingMode.HALF_EVEN)).doubleValue();
    }
}
