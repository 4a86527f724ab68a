package dev.ratecache.model;

import java.util.HashMap;
import java.util.Map;

/**
 * Varnish's {@code vsthrottle.is_denied(key, limit, period[, block])}, deciding as
 * vmod_vsthrottle.c of varnish-modules 0.20 does: a token bucket per key, in doubles of seconds.
 *
 * <p>The bucket (tb_alloc, calc_tokens, vmod_is_denied): a new key starts full, {@code limit}
 * tokens, {@code last_used = now}. Each call first refills
 * {@code tokens += (long) ((now - last_used) / period * limit)}, capped at {@code limit}; then a
 * token, if there is one, is taken, the request passes and {@code last_used = now}; with none
 * the request is denied and {@code last_used} stays.
 *
 * <p>Rounding: the {@code (long)} cast truncates the refill to whole tokens, and because
 * {@code last_used} moves to now whenever a token is taken, the fraction of a token the elapsed
 * time had earned is thrown away at every pass. A client sending faster than the limit therefore
 * gets through at less than the limit: with 10 per second and a request every 60 ms, 60 ms earns
 * 0.6 (denied, kept), 120 ms earns 1.2 (one passes, 0.2 lost), so one request in two passes, 8.3
 * per second, not 10. The refill is a double product of differences of a monotonic clock
 * (VTIM_mono), so a gap worth exactly one token may compute as 0.99999… and earn none. This is the
 * behaviour behind varnish-modules#237 (is_denied triggering with fewer requests per second than
 * configured), which #243 later fixed by carrying the fraction over; 0.20 has no such fix.
 *
 * <p>Block (block > 0): a call that finds no token sets {@code block = now + block}; until then
 * every call is denied and moves {@code last_used} to now, so the time blocked earns nothing
 * beyond what each call's refill truncates to, and a token refilled meanwhile is still taken by
 * the denied call. The first call at or after the block's end decides normally, and a pass clears
 * the block.
 *
 * <p>Keys: the bucket is found by a SHA-256 of key, limit, period and block, so one instance here
 * is one call site's parameters. Not modelled: return_token and remaining (the suite calls
 * neither), and the garbage collection (run_gc, every 1000 calls per partition of the buckets).
 * It removes buckets idle longer than a period, which a refill would have filled anyway, but in
 * 0.20 it does not look at the block: a blocked key that stays away longer than a period comes
 * back unblocked if the collection ran meanwhile (varnish-modules#206, fixed after 0.20 by #208).
 */
public final class Vsthrottle implements Limiter {

    /** {@code struct tbucket}. */
    private static final class Bucket {
        double lastUsed;
        double block;
        long tokens;
    }

    private final long limit;
    private final double periodSeconds;
    private final double blockSeconds;
    private final Map<String, Bucket> buckets = new HashMap<>();

    /**
     * @param limit         requests per period ({@code limit}, the bucket's capacity)
     * @param periodSeconds {@code period}, in seconds
     * @param blockSeconds  {@code block}, in seconds; 0 for none
     */
    public Vsthrottle(long limit, double periodSeconds, double blockSeconds) {
        if (limit < 0 || !(periodSeconds > 0) || !(blockSeconds >= 0)) {
            throw new IllegalArgumentException("limit must not be negative, period positive, block not negative: "
                    + limit + ", " + periodSeconds + ", " + blockSeconds);
        }
        this.limit = limit;
        this.periodSeconds = periodSeconds;
        this.blockSeconds = blockSeconds;
    }

    /** As {@link #isDenied(String, double)} at {@code nowMs / 1000} seconds. */
    @Override
    public Decision decide(String key, long nowMs) {
        return new Decision(isDenied(key, nowMs / 1000.0) ? LimitReqStatus.REJECTED : LimitReqStatus.PASSED,
                0, 0, 0);
    }

    /**
     * vmod_is_denied for {@code key} at {@code now}, VTIM_mono's seconds (the clock is read at the
     * call, under the partition's lock). Times must not go backwards for a key (vsthrottle asserts
     * it).
     */
    public boolean isDenied(String key, double now) {
        Bucket b = buckets.get(key);
        if (b == null) {
            b = new Bucket();
            b.lastUsed = now;
            b.tokens = limit;
            buckets.put(key, b);
        }
        refill(b, now);
        boolean denied = true;
        boolean blocked = false;
        if (blockSeconds > 0 && now < b.block) {
            blocked = true;
            b.lastUsed = now;
        }
        if (b.tokens > 0) {
            b.tokens--;
            if (!blocked) {
                denied = false;
            }
            b.lastUsed = now;
        } else if (blockSeconds > 0 && !blocked) {
            b.block = now + blockSeconds;
        }
        if (blockSeconds > 0 && !denied && !blocked) {
            b.block = 0;
        }
        return denied;
    }

    /** calc_tokens. */
    private void refill(Bucket b, double now) {
        double delta = now - b.lastUsed;
        if (delta < 0) {
            throw new IllegalArgumentException("time went backwards for a bucket: " + now + " < " + b.lastUsed);
        }
        long earned = (long) ((delta / periodSeconds) * limit);
        // C's long cannot overflow at realistic gaps; Java's cast saturates, so cap before adding.
        b.tokens = earned >= limit ? limit : Math.min(limit, b.tokens + earned);
    }
}
