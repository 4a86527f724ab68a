package dev.ratecache.model;

/**
 * What happened to one client request.
 *
 * @param index         position in the workload (arrival list index, or issue order for users)
 * @param client        the front's limit_req key
 * @param path          the URI
 * @param issueMs       when the client issued it (the arrival time for an open workload)
 * @param arrivalMs     when it reached the front
 * @param front         the front's limit_req decision, null without a front limit
 * @param cache         the edge's {@code $upstream_cache_status}, null if it never reached the
 *                      cache (rejected at the front, or no cache)
 * @param back          the back's limit_req decision, null if it never reached the back
 * @param reachedOrigin whether this request itself was served by the origin
 * @param endMs         when the front sent the answer
 * @param clientEndMs   when the client had it (endMs plus the round-trip overhead)
 * @param status        200, or the rejecting tier's limit_req_status
 * @param clientCacheHit  answered by the user's own cache (a closed workload with a client cache): no
 *                        request left the client
 */
public record RequestOutcome(int index, String client, String path, long issueMs, long arrivalMs,
                             Decision front, CacheStatus cache, Decision back, boolean reachedOrigin,
                             long endMs, long clientEndMs, int status, boolean clientCacheHit) {

    public RequestOutcome(int index, String client, String path, long issueMs, long arrivalMs, Decision front,
            CacheStatus cache, Decision back, boolean reachedOrigin, long endMs, long clientEndMs, int status) {
        this(index, client, path, issueMs, arrivalMs, front, cache, back, reachedOrigin, endMs, clientEndMs, status,
                false);
    }

    /** The latency the client saw. */
    public long latencyMs() {
        return clientEndMs - issueMs;
    }

    /** Whether a limit_req of either tier rejected it. */
    public boolean rejected() {
        return (front != null && front.status() == LimitReqStatus.REJECTED)
                || (back != null && back.status() == LimitReqStatus.REJECTED);
    }
}
