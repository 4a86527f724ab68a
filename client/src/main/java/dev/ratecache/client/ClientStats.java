package dev.ratecache.client;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A snapshot of a client's running statistics, in the manner of OkHttp's {@code Cache} counts.
 * Every request ends as exactly one of hit, validation, stale (while revalidating, or if error),
 * miss or failure, so
 * {@code requestCount() == hitCount() + validationCount() + staleCount() + missCount() + failureCount()}.
 */
public final class ClientStats {
    private final long requests;
    private final long network;
    private final long hits;
    private final long validations;
    private final long staleWhileRevalidating;
    private final long staleIfError;
    private final long misses;
    private final long failures;
    private final long rejected;
    private final long quotaRejected;
    private final Map<Integer, Long> retriesByStatus;
    private final long backgroundRevalidations;
    private final Duration retryWait;
    private final Duration throttleWait;

    ClientStats(long requests, long network, long hits, long validations, long staleWhileRevalidating,
            long staleIfError, long misses, long failures, long rejected, long quotaRejected, Map<Integer, Long> retriesByStatus,
            long backgroundRevalidations, Duration retryWait, Duration throttleWait) {
        this.requests = requests;
        this.network = network;
        this.hits = hits;
        this.validations = validations;
        this.staleWhileRevalidating = staleWhileRevalidating;
        this.staleIfError = staleIfError;
        this.misses = misses;
        this.failures = failures;
        this.rejected = rejected;
        this.quotaRejected = quotaRejected;
        this.retriesByStatus = Collections.unmodifiableMap(new TreeMap<>(retriesByStatus));
        this.backgroundRevalidations = backgroundRevalidations;
        this.retryWait = retryWait;
        this.throttleWait = throttleWait;
    }

    /** All zeros: a starting point for {@link #plus(ClientStats)}. */
    public static ClientStats empty() {
        return new ClientStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Map.of(), 0, Duration.ZERO, Duration.ZERO);
    }

    /** Requests made through the client. */
    public long requestCount() { return requests; }
    /** Exchanges on the wire: first attempts, retries and revalidations (background ones too) each count one. */
    public long networkCount() { return network; }
    /** Requests answered from the cache without the network ({@link ResponseSource#CACHE}). */
    public long hitCount() { return hits; }
    /** Requests answered from the cache after a 304 ({@link ResponseSource#VALIDATED}). */
    public long validationCount() { return validations; }
    /** Requests answered with a stale response, for either reason: the sum of the two counts below. */
    public long staleCount() { return staleWhileRevalidating + staleIfError; }
    /** Requests answered at once with a stale response while it was refreshed in the background ({@link ResponseSource#STALE_WHILE_REVALIDATING}). */
    public long staleWhileRevalidatingCount() { return staleWhileRevalidating; }
    /** Requests answered with a stale response because the server failed ({@link ResponseSource#STALE_IF_ERROR}). */
    public long staleIfErrorCount() { return staleIfError; }
    /** Requests answered by the server with a full response, whatever its status ({@link ResponseSource#NETWORK}). */
    public long missCount() { return misses; }
    /** Requests that ended in an I/O error, or in a 504 the cache made up ({@link ResponseSource#GENERATED}). */
    public long failureCount() { return failures; }
    /** Requests whose final answer was still a rate-limit rejection from the server (e.g. 429 after every retry). */
    public long rejectedCount() { return rejected; }
    /**
     * Requests whose final answer from the server was a 429 for an exhausted quota (the
     * {@code quota-exceeded} problem) rather than for going too fast: the rejections that waiting
     * a little will not cure. Counted in {@link #rejectedCount()} too while 429 is one of the
     * retry policy's statuses (as by default).
     */
    public long quotaRejectedCount() { return quotaRejected; }
    /** Retries in all. */
    public long retryCount() { return retriesByStatus.values().stream().mapToLong(Long::longValue).sum(); }
    /** Retries made after a response with {@code status}. */
    public long retryCount(int status) { return retriesByStatus.getOrDefault(status, 0L); }
    /** Retries by the status that caused them, in status order. */
    public Map<Integer, Long> retriesByStatus() { return retriesByStatus; }
    /** Revalidations started in the background, one per stale entry at a time (their exchanges count in {@link #networkCount()}). */
    public long backgroundRevalidationCount() { return backgroundRevalidations; }
    /** Time spent waiting before retries (Retry-After or backoff), summed over all requests. */
    public Duration retryWait() { return retryWait; }
    /** Time spent waiting for the client-side throttle and for the server's policy (when pacing), summed over all requests. */
    public Duration throttleWait() { return throttleWait; }

    /** The sum of two snapshots, e.g. of several clients. */
    public ClientStats plus(ClientStats o) {
        Map<Integer, Long> retries = new TreeMap<>(retriesByStatus);
        o.retriesByStatus.forEach((k, v) -> retries.merge(k, v, Long::sum));
        return new ClientStats(requests + o.requests, network + o.network, hits + o.hits,
                validations + o.validations, staleWhileRevalidating + o.staleWhileRevalidating,
                staleIfError + o.staleIfError, misses + o.misses, failures + o.failures, rejected + o.rejected,
                quotaRejected + o.quotaRejected, retries,
                backgroundRevalidations + o.backgroundRevalidations, retryWait.plus(o.retryWait),
                throttleWait.plus(o.throttleWait));
    }

    @Override
    public String toString() {
        return "requests=" + requests + " network=" + network + " hits=" + hits + " validations=" + validations
                + " staleWhileRevalidating=" + staleWhileRevalidating + " staleIfError=" + staleIfError
                + " misses=" + misses + " failures=" + failures + " rejected=" + rejected + " quotaRejected=" + quotaRejected
                + " retries=" + retriesByStatus + " backgroundRevalidations=" + backgroundRevalidations
                + " retryWait=" + retryWait.toMillis() + "ms throttleWait=" + throttleWait.toMillis() + "ms";
    }
}
