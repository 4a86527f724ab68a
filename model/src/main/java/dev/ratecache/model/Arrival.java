package dev.ratecache.model;

/**
 * One request of an open workload: it reaches the front tier at {@code timeMs} whatever happened
 * to earlier requests.
 *
 * @param timeMs      model time of arrival at the front
 * @param client      the front's limit_req key (the client address)
 * @param path        the URI, also the edge cache key
 * @param hopToBackMs how long this request took from leaving the front (after any front delay) to
 *                    reaching the back, where it was measured, as in a comparison with real nginx's
 *                    logs, whose back tier sees a request a millisecond or more after the front let it
 *                    go, more on a busy machine; {@link #SPEC_HOP} for the spec's own hop
 * @param serviceMs   how long the origin took over this request's fetch (its own, or the background
 *                    refresh it started), where it was measured, as in a comparison with a real
 *                    origin, which a busy machine slows; {@link #SPEC_SERVICE} for the path's own
 *                    {@link PathSpec#serviceMs()}
 */
public record Arrival(long timeMs, String client, String path, long hopToBackMs, long serviceMs) {
    /** The hop of {@link SimulationSpec#hopMs()}, as for every request of a workload not measured. */
    public static final long SPEC_HOP = -1;
    /** The path's {@link PathSpec#serviceMs()}, as for every request of a workload not measured. */
    public static final long SPEC_SERVICE = -1;

    public Arrival {
        if (hopToBackMs < 0 && hopToBackMs != SPEC_HOP) {
            throw new IllegalArgumentException("hopToBackMs must be 0 or more, or SPEC_HOP (got " + hopToBackMs + ")");
        }
        if (serviceMs < 0 && serviceMs != SPEC_SERVICE) {
            throw new IllegalArgumentException("serviceMs must be 0 or more, or SPEC_SERVICE (got " + serviceMs + ")");
        }
    }

    public Arrival(long timeMs, String client, String path, long hopToBackMs) {
        this(timeMs, client, path, hopToBackMs, SPEC_SERVICE);
    }

    public Arrival(long timeMs, String client, String path) {
        this(timeMs, client, path, SPEC_HOP);
    }

    /** This arrival with the origin's time for its fetch as measured. */
    public Arrival withServiceMs(long measuredMs) {
        return new Arrival(timeMs, client, path, hopToBackMs, measuredMs);
    }
}
