package dev.ratecache.suite.spec;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A quota per client (--quota): at most {@code limit} requests a window of {@code windowSeconds},
 * beside the burst limit, counted for the whole fleet in Redis. A leaky bucket cannot hold a
 * window of hours or days; a counter per window can.
 *
 * @param window how the windows are laid out in time
 */
public record Quota(long limit, long windowSeconds, Window window) {
    /** The longest window a quota takes: a month of 31 days. */
    public static final long MAX_WINDOW_SECONDS = 31L * 86_400;
    public static final String FORM = "N/m, N/h, N/d or N/SECONDSs, e.g. 1000/d or 600/60s";
    /** The most requests a window a quota takes: N has at most nine digits. */
    public static final long MAX_LIMIT = 999_999_999;
    private static final Pattern SHAPE = Pattern.compile("([1-9]\\d{0,8})/(m|h|d|[1-9]\\d{0,7}s)");
    /** {@link #SHAPE} with numbers of any size, to tell a number out of range from a value of another shape. */
    private static final Pattern LOOSE = Pattern.compile("(\\d{1,4096})/(m|h|d|(\\d{1,4096})s)");

    public Quota {
        if (limit < 1 || windowSeconds < 1 || windowSeconds > MAX_WINDOW_SECONDS) {
            throw new IllegalArgumentException("a quota needs a positive limit and a window of 1 s to 31 days");
        }
    }

    /**
     * How the windows lie in time. {@code sliding}: the sliding-window counter, the previous fixed
     * window's count weighed by how much of it the sliding one still covers, plus the current
     * one's: exact for even traffic, and in the worst case (the whole previous window's quota sent
     * at its very end) up to 2N - 1 in a sliding window of W seconds. {@code fixed}: windows from
     * the Unix epoch. {@code calendar}: windows from each UTC midnight; for a window that divides a
     * day (a minute, an hour, a day) the same as fixed, for another the day's last is short.
     */
    public enum Window {
        SLIDING, FIXED, CALENDAR;

        /** The script's number for it (nginx/lua/quota_window.lua). */
        public int code() {
            return ordinal();
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A --quota value, {@link #FORM}; throws naming the accepted form.
     */
    public static Quota parse(String text, Window window) {
        String quoted = "'" + dev.ratecache.accesslog.Printable.shown(text) + "'";
        Matcher m = SHAPE.matcher(text.trim());
        if (!m.matches()) {
            // The right shape with a number out of range: say which, and its range, not the shape again.
            Matcher loose = LOOSE.matcher(text.trim());
            if (loose.matches() && !within(loose.group(1), 1, MAX_LIMIT)) {
                throw new IllegalArgumentException(quoted + " is not a quota: N must be a whole number from 1 to "
                        + MAX_LIMIT + " (got " + dev.ratecache.accesslog.Printable.shown(loose.group(1)) + ")");
            }
            if (loose.matches() && loose.group(3) != null && !within(loose.group(3), 1, MAX_WINDOW_SECONDS)) {
                throw new IllegalArgumentException(quoted + " is not a quota: its window must be from 1 s to 31 days ("
                        + MAX_WINDOW_SECONDS + "s; got " + dev.ratecache.accesslog.Printable.shown(loose.group(3)) + "s)");
            }
            throw new IllegalArgumentException(quoted + " is not a quota: use " + FORM);
        }
        String unit = m.group(2);
        long seconds = switch (unit) {
            case "m" -> 60;
            case "h" -> 3_600;
            case "d" -> 86_400;
            default -> Long.parseLong(unit.substring(0, unit.length() - 1));
        };
        if (seconds > MAX_WINDOW_SECONDS) {
            throw new IllegalArgumentException(quoted + " is not a quota: its window must be from 1 s to 31 days ("
                    + MAX_WINDOW_SECONDS + "s; got " + seconds + "s)");
        }
        return new Quota(Long.parseLong(m.group(1)), seconds, window);
    }

    /** Whether {@code digits} is a number from min to max, however many digits it has. */
    private static boolean within(String digits, long min, long max) {
        String plain = digits.replaceFirst("^0+(?=\\d)", "");
        return plain.length() <= 18 && Long.parseLong(plain) >= min && Long.parseLong(plain) <= max;
    }

    /** The policy's name in RateLimit-Policy and RateLimit: daily, hourly, minutely, or quota for another window. */
    public String policyName() {
        return windowSeconds == 86_400 ? "daily" : windowSeconds == 3_600 ? "hourly" : windowSeconds == 60 ? "minutely"
                : "quota";
    }

    /** Its item of RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-11): "daily";q=1000;w=86400. */
    public String policyItem() {
        return "\"" + policyName() + "\";q=" + limit + ";w=" + windowSeconds;
    }

    /** The model's quota (model/): the same count, answered with 429, as nginx/lua/quota.lua does. */
    public dev.ratecache.model.QuotaSpec model() {
        return dev.ratecache.model.QuotaSpec.of(limit, windowSeconds * 1000,
                dev.ratecache.model.QuotaWindow.valueOf(window.name()));
    }

    /** The same quota, its windows laid out by {@code other}: a tiers file's quota takes --quota-window's. */
    public Quota withWindow(Window other) {
        return new Quota(limit, windowSeconds, other);
    }

    /** As --quota takes it. */
    public String flag() {
        return limit + "/" + (windowSeconds == 86_400 ? "d" : windowSeconds == 3_600 ? "h" : windowSeconds == 60 ? "m"
                : windowSeconds + "s");
    }
}
