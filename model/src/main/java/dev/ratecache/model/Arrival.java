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
 */
public record Arrival(long timeMs, String client, String path, long hopToBackMs) {
    /** The hop of {@link SimulationSpec#hopMs()}, as for every request of a workload not measured. */
    public static final long SPEC_HOP = -1;

    public Arrival {
        if (hopToBackMs < 0 && hopToBackMs != SPEC_HOP) {
            throw new IllegalArgumentException("hopToBackMs must be 0 or more, or SPEC_HOP (got " + hopToBackMs + ")");
        }
    }

    public Arrival(long timeMs, String client, String path) {
        this(timeMs, client, path, SPEC_HOP);
    }
}
