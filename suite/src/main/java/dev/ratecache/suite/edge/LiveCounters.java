package dev.ratecache.suite.edge;

import java.io.IOException;
import java.util.OptionalLong;

/**
 * Running tiers' figures as up's status line reads them, every few seconds: each product tells
 * them its own way (nginx its stub_status pages and front access log, HAProxy its access logs,
 * Varnish its counters), which {@link Edge#liveCounters} hides.
 */
public interface LiveCounters {
    /** Each tier's requests so far, and what the front answered since the previous call. */
    Reading read() throws IOException;

    /** Requests each read itself adds to a tier's counter (nginx's GET of its status page). */
    default int polls() {
        return 0;
    }

    /** Where the figures come from, as the banner says it beside the status line's period. */
    String source();

    /**
     * @param front    requests the front tier has had, empty when it could not be read
     * @param back     the back tier's
     * @param answered what the front answered since the previous read
     */
    record Reading(OptionalLong front, OptionalLong back, AccessLogTail.Counts answered) {}
}
