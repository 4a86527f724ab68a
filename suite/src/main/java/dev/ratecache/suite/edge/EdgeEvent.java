package dev.ratecache.suite.edge;

/**
 * One request as a tier of any edge product logged it, in the suite's own terms: what the
 * collectors, predictions and the report read, instead of a product's log fields. Each adapter
 * reads its product's own log into these.
 *
 * @param arrivalMs       when the request arrived, in epoch milliseconds
 * @param endMs           when its response was finished, in epoch milliseconds
 * @param key             the client's address, what the per-client limit counts by unless it is keyed by
 *                        a key the client sends (--limit-key); keyed, still the address, in every product
 *                        as nginx logs it ($remote_addr): the key is a credential, which no log holds
 * @param method          the request's method
 * @param uri             the request's target as sent (path and query)
 * @param status          the status the tier answered
 * @param bytes           the body bytes it sent
 * @param limit           what the tier's rate limit did
 * @param cache           what the tier's cache did
 * @param upstreamStatus  the status the tier's upstream answered, "" when it asked none
 * @param upstreamMs      how long its upstream took, 0 when it asked none
 * @param fleet           with a fleet-wide limit, what the fleet's store said (nginx's PASSED, REJECTED,
 *                        FALLBACK, ...); "" otherwise
 */
public record EdgeEvent(long arrivalMs, long endMs, String key, String method, String uri, int status, long bytes,
        Limit limit, Cache cache, String upstreamStatus, long upstreamMs, String fleet) {

    /** What a tier's rate limit did to a request. */
    public enum Limit {
        PASSED, DELAYED, REJECTED,
        /** A dry-run limit that would have delayed or rejected it. */
        DRY_RUN,
        /** No limit applies to it (or the tier has none). */
        NONE
    }

    /** What a tier's cache did, in nginx's words ($upstream_cache_status), which the report has always used. */
    public enum Cache {
        HIT, MISS, EXPIRED, STALE, UPDATING, REVALIDATED,
        /** The request went past the cache (Authorization, a cookie, a pass). */
        BYPASS,
        /** The tier has no cache, or did not consult it (a rejection). */
        NONE
    }

    /** Whether the request reached the tier's upstream. */
    public boolean wentUpstream() {
        return !upstreamStatus.isEmpty();
    }

    /** When the upstream received the request, in epoch milliseconds: what the origin's busiest second counts. */
    public long upstreamArrivalMs() {
        return endMs - upstreamMs;
    }
}
