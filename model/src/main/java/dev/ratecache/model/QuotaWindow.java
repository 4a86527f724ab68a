package dev.ratecache.model;

/**
 * How a {@link QuotaLimiter} lays its windows over time ({@code --quota-window}).
 */
public enum QuotaWindow {
    /**
     * A sliding-window counter interpolated between two fixed windows (Cloudflare's): the previous
     * fixed window's count weighted by the share of it still inside the sliding window, plus the
     * current one's. Exact when the previous window's requests came evenly; at worst a true sliding
     * window of W holds 2N - 1 admitted requests (all of the previous window's at its very end).
     */
    SLIDING,
    /** Windows of W aligned to the Unix epoch: window i is [i·W, (i+1)·W). */
    FIXED,
    /**
     * Windows aligned to UTC hours and days: the same as {@link #FIXED} when W divides a day (Unix
     * time has no leap seconds and the epoch is a UTC midnight); otherwise the windows restart at
     * each UTC midnight and the day's last one is short.
     */
    CALENDAR;

    /** The switch's spelling. */
    public String spelling() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
