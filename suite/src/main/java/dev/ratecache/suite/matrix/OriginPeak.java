package dev.ratecache.suite.matrix;


/** The busiest second at the origin: a sliding one-second window over the back tier's events. */
final class OriginPeak {
    private OriginPeak() {}

    /** Requests in that second (0 when none reached the origin); null without a back end. */
    static Double of(TierLogs logs) {
        if (logs.back() == null) {
            return null;
        }
        OriginWindows.Peak peak = OriginWindows.of(logs.back()).peak();
        return peak == null ? 0.0 : peak.count();
    }
}
