package dev.ratecache.suite.up;

import dev.ratecache.suite.edge.AccessLogTail;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The live line {@code up} prints every few seconds: requests/s at each tier, rejected/s, edge HIT %
 * and the origin's in-flight requests, from two readings of the tiers' counters and what the front
 * end's access log gained in between.
 */
public final class StatusLine {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private StatusLine() {}

    /**
     * One reading of the counters; empty where a counter could not be read (a tier not answering,
     * or the user's own origin, which has no counters).
     *
     * @param front          the front end's stub_status request counter
     * @param back           the back end's
     * @param origin         requests the suite's origin has served
     * @param originInFlight requests the origin is serving right now
     */
    public record Reading(OptionalLong front, OptionalLong back, OptionalLong origin, OptionalLong originInFlight) {}

    /**
     * The line for the interval between two readings.
     *
     * @param seconds the interval's length
     * @param log     what the front end's access log gained in the interval
     * @param polls   requests each poll itself adds to a tier's stub_status counter (its own GET of
     *                the status page), taken off so an idle stack reads 0.0
     */
    public static String format(LocalTime at, Reading before, Reading after, double seconds,
            AccessLogTail.Counts log, int polls) {
        return String.format(Locale.ROOT, "%s  front %s  back %s  origin %s req/s  rejected %s/s  HIT %s  in-flight %s",
                at.format(CLOCK),
                rate(before.front(), after.front(), polls, seconds),
                rate(before.back(), after.back(), polls, seconds),
                rate(before.origin(), after.origin(), 0, seconds),
                perSecond(log.rejected(), seconds),
                hitPct(log),
                after.originInFlight().isPresent() ? String.valueOf(after.originInFlight().getAsLong()) : "-");
    }

    /** Counter delta per second, less the poll's own requests; "-" when either reading is missing. */
    static String rate(OptionalLong before, OptionalLong after, int polls, double seconds) {
        if (before.isEmpty() || after.isEmpty() || seconds <= 0) {
            return "-";
        }
        // A counter that went down was restarted: its reading is not a rate.
        long delta = after.getAsLong() - before.getAsLong() - polls;
        return delta < -polls ? "-" : perSecond(Math.max(0, delta), seconds);
    }

    static String perSecond(long count, double seconds) {
        return seconds <= 0 ? "-" : String.format(Locale.ROOT, "%.1f", count / seconds);
    }

    /** Share of the interval's front-end responses that were edge-cache HITs; "-" with no responses. */
    static String hitPct(AccessLogTail.Counts log) {
        return log.responses() == 0 ? "- %"
                : String.format(Locale.ROOT, "%.1f %%", 100.0 * log.hits() / log.responses());
    }
}
