package dev.ratecache.suite.origin;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/** The origin's own accounting, as its management port reports it. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record OriginCounters(Count total, Map<String, Count> endpoints) {

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Count(long requests, long notModified, long inFlight, long peakInFlight) {}

    /** Requests that reached {@code endpoint} (0 for an endpoint never hit). */
    public long requests(String endpoint) {
        Count c = endpoints.get(endpoint);
        return c == null ? 0 : c.requests();
    }

    public long notModified(String endpoint) {
        Count c = endpoints.get(endpoint);
        return c == null ? 0 : c.notModified();
    }
}
