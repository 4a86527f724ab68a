package dev.ratecache.accesslog;

import java.util.List;

/**
 * How finely a log's times tell when each request came. nginx's {@code $time_local} (combined,
 * common) and {@code $time_iso8601} are whole seconds: a page and its assets logged in the same
 * second read as one instant though they were not, so whatever is worked out from their spacing (a
 * burst, a delay) has to say which spacing it assumed ({@link WithinSecond}).
 */
public enum TimeResolution {
    /** Every time is a whole second: where in its second a request came is not known. */
    WHOLE_SECONDS,
    /** The times carry fractions of a second ({@code $msec}, ISO with decimals, epoch milliseconds). */
    SUB_SECOND;

    /**
     * For formats whose times may be either (JSON lines, whose time field may be {@code $msec} or
     * {@code $time_iso8601}): sub-second when any request's time has a fraction of a second. Read from
     * the values, so a millisecond log stays sub-second even if a line or two fall on a whole second.
     */
    static TimeResolution of(List<LoggedRequest> requests) {
        for (LoggedRequest r : requests) {
            if (r.time().getNano() != 0) {
                return SUB_SECOND;
            }
        }
        return WHOLE_SECONDS;
    }

    /** For messages: "whole seconds" or "fractions of a second". */
    public String words() {
        return this == WHOLE_SECONDS ? "whole seconds" : "fractions of a second";
    }
}
