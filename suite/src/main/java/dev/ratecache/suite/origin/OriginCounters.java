package dev.ratecache.suite.origin;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/** The origin's own accounting, as its management port reports it. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record OriginCounters(Count total, Map<String, Count> endpoints, Items items, DatabasePart database) {

    public OriginCounters(Count total, Map<String, Count> endpoints, Items items) {
        this(total, endpoints, items, null);
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Count(long requests, long notModified, long inFlight, long peakInFlight) {}

    /** The /items resource's own accounting: its database statements and its app cache (null from an older origin). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Items(Database database, AppCache appCache) {}

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Database(long reads, long writes) {
        public long queries() {
            return reads + writes;
        }
    }

    /**
     * The database behind /items and /places and its pool, since the last reset (null from an older origin).
     *
     * @param timeouts requests answered 504: no pooled connection freed up within the acquire timeout
     * @param failures requests answered 502: the database failed or could not be reached
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record DatabasePart(String product, long queries, long timeouts, long failures, String lastFailure, Pool pool) {}

    /**
     * Micrometer's HikariCP meters: connections now, and since the reset the connections handed out,
     * the time spent waiting for them, the waits that ended with none, and the connections given
     * back with the time they were held.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Pool(long max, long active, long idle, long pending, long acquisitions, double acquireMsTotal,
            double acquireMsMax, long timeouts, long usages, double usageMsTotal) {}

    /** The origin's view of its app cache: {@code mode} off or redis; errors are failed cache operations. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AppCache(String mode, long hits, long misses, long errors, String lastError) {}

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
