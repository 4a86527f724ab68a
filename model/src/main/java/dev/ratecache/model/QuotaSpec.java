package dev.ratecache.model;

/**
 * One quota ({@code --quota N/W}, {@code --quota-window MODE}): at most {@code limit} admitted
 * requests per key per window of {@code windowMs}, counted fleet-wide by the suite's Redis script
 * ({@link QuotaLimiter}). Only admitted requests count.
 *
 * @param limit        N, requests per window, at least 1
 * @param windowMs     W, in milliseconds; a calendar window is at most a day
 * @param mode         how the windows are laid over time
 * @param rejectStatus the status an exhausted quota is answered with
 */
public record QuotaSpec(long limit, long windowMs, QuotaWindow mode, int rejectStatus) implements LimitSpec {

    /** A UTC day, in milliseconds: Unix time has no leap seconds. */
    public static final long DAY_MS = 86_400_000L;

    public QuotaSpec {
        if (limit < 1 || windowMs < 1 || mode == null) {
            throw new IllegalArgumentException("bad quota: " + limit + " per " + windowMs + " ms, " + mode);
        }
        if (mode == QuotaWindow.CALENDAR && windowMs > DAY_MS) {
            // A calendar window restarts at each UTC midnight, so one longer than a day would never end.
            throw new IllegalArgumentException("a calendar window is at most a day (got " + windowMs + " ms)");
        }
    }

    /** {@code N} per {@code W} in {@code mode}, answered with 429. */
    public static QuotaSpec of(long limit, long windowMs, QuotaWindow mode) {
        return new QuotaSpec(limit, windowMs, mode, 429);
    }

    /** N a UTC day: a calendar window of a day, the one advise recommends. */
    public static QuotaSpec daily(long limit) {
        return of(limit, DAY_MS, QuotaWindow.CALENDAR);
    }

    @Override
    public Limiter limiter() {
        return new QuotaLimiter(this);
    }

    /** The start of the fixed (or calendar) window holding {@code nowMs}. */
    public long windowStart(long nowMs) {
        if (mode == QuotaWindow.CALENDAR && DAY_MS % windowMs != 0) {
            long day = Math.floorDiv(nowMs, DAY_MS) * DAY_MS;
            return day + (nowMs - day) / windowMs * windowMs;
        }
        return Math.floorDiv(nowMs, windowMs) * windowMs;
    }

    /** The end (exclusive) of the fixed (or calendar) window holding {@code nowMs}. */
    public long windowEnd(long nowMs) {
        long end = windowStart(nowMs) + windowMs;
        if (mode == QuotaWindow.CALENDAR) {
            return Math.min(end, Math.floorDiv(nowMs, DAY_MS) * DAY_MS + DAY_MS);
        }
        return end;
    }
}
