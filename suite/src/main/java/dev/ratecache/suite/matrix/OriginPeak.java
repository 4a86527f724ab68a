package dev.ratecache.suite.matrix;

import java.io.IOException;

/** The busiest second at the origin: a sliding one-second window over the back end's access log. */
final class OriginPeak {
    private OriginPeak() {}

    /** Requests in that second (0 when none reached the origin); null without a back end. */
    static Double of(TierLogs logs) throws IOException {
        if (logs.back() == null) {
            return null;
        }
        OriginWindows.Peak peak = OriginWindows.of(logs.back()).peak();
        return peak == null ? 0.0 : peak.count();
    }
}
