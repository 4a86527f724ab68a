package dev.ratecache.jtl;

/**
 * One request as a JTL line records it (the columns of jmeter/suite.properties).
 *
 * @param timeStamp       epoch milliseconds when the request started
 * @param elapsed         milliseconds until the whole response was in
 * @param label           what the plan calls the request (the suite's plans use the path)
 * @param responseCode    the HTTP status, or a text for a failure with none (as JMeter writes it)
 * @param responseMessage the reason phrase; {@link JtlSummary#CLIENT_CACHE_HIT} marks a client-cache hit
 * @param threadName      the user that sent it
 * @param success         whether the sample passed (JMeter: a status below 400 and no assertion failed)
 * @param bytes           bytes received
 * @param threads         users active when it ended (JMeter's grpThreads and allThreads)
 * @param url             the full URL
 * @param cacheStatus     the X-Cache-Status header (the edge cache's outcome), or empty
 * @param retryAfter      the Retry-After header of a rejection, or empty
 * @param scheduledAt     epoch milliseconds when a replay's schedule said the request must start, or
 *                        {@link #UNSCHEDULED} for a sample of a plan without a schedule (and in a JTL
 *                        written before the column existed)
 * @param client          the client of the replayed access log this request stands for, or empty
 * @param staleMs         for a stale read of the hot-set plan, how long (ms) after the acknowledgement
 *                        of the first write it missed it started; {@link #NOT_STALE} for a fresh read,
 *                        any other sample, and in a JTL written before the column existed
 * @param key             the key a replay sent in the limit key's header ({@code --key-field}), or empty
 */
public record Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
        String threadName, boolean success, long bytes, int threads, String url, String cacheStatus, String retryAfter,
        long scheduledAt, String client, long staleMs, String key) {

    public Sample {
        key = key == null ? "" : key;
    }

    /** A sample sent with no key: every plan's but a keyed replay's. */
    public Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
            String threadName, boolean success, long bytes, int threads, String url, String cacheStatus,
            String retryAfter, long scheduledAt, String client, long staleMs) {
        this(timeStamp, elapsed, label, responseCode, responseMessage, threadName, success, bytes, threads, url,
                cacheStatus, retryAfter, scheduledAt, client, staleMs, "");
    }

    /** {@link #scheduledAt()} of a sample that had no due time. Epoch 0 is never a replay's due time. */
    public static final long UNSCHEDULED = 0;

    /** {@link #staleMs()} of a sample that is not a stale read. An age is never negative. */
    public static final long NOT_STALE = -1;

    /** A sample that is not a stale read: the replay's, and every plan's before staleMs existed. */
    public Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
            String threadName, boolean success, long bytes, int threads, String url, String cacheStatus,
            String retryAfter, long scheduledAt, String client) {
        this(timeStamp, elapsed, label, responseCode, responseMessage, threadName, success, bytes, threads, url,
                cacheStatus, retryAfter, scheduledAt, client, NOT_STALE);
    }

    /** A sample of a plan without a schedule (every plan but the replay, and the client library's driver). */
    public Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
            String threadName, boolean success, long bytes, int threads, String url, String cacheStatus,
            String retryAfter) {
        this(timeStamp, elapsed, label, responseCode, responseMessage, threadName, success, bytes, threads, url,
                cacheStatus, retryAfter, UNSCHEDULED, "");
    }

    /** A sample with just what the summary reads: for tests and for callers that have no more. */
    public static Sample of(long timeStamp, long elapsed, String responseCode, boolean success) {
        return new Sample(timeStamp, elapsed, "", responseCode, "", "", success, 0, 1, "", "", "");
    }

    /** Whether the hot-set plan found it a stale read (an older version than one already acknowledged). */
    public boolean stale() {
        return staleMs != NOT_STALE;
    }

    /** Whether a replay's schedule gave it a due time. */
    public boolean scheduled() {
        return scheduledAt != UNSCHEDULED;
    }

    /**
     * Milliseconds it started after its due time (negative: early). Meaningful only when
     * {@link #scheduled()}.
     */
    public long lateness() {
        return timeStamp - scheduledAt;
    }

    /** Whether a client-side cache answered it, with no request on the wire. */
    public boolean clientCacheHit() {
        return responseMessage.contains(JtlSummary.CLIENT_CACHE_HIT);
    }

    /** Whether a rate limit refused it (429 or 503). */
    public boolean rejected() {
        return JtlSummary.isRejection(responseCode);
    }

    /** Epoch milliseconds when the response was complete. */
    public long end() {
        return timeStamp + elapsed;
    }

    /**
     * Whether JMeter aborted it itself: its HTTP client's own words for a request it closed, shut
     * down (its connection manager's "Connection already shutdown" too, seen on a CI run, and
     * java.net.Socket's "Socket is closed" for a socket JMeter closed before reading it, seen on
     * another), aborted or
     * interrupted, which no server can cause (a server that closes or resets a
     * connection reads "Connection reset" or "failed to respond"). JMeter aborts what is still in
     * flight when its threads are stopped at the run's end; on a saturated machine its open model
     * can start so late that the whole schedule is overdue, sends every arrival at once and stops
     * them at once ("Test schedule finished, however, there are N thread(s) still running"), so no
     * time bound tells these apart: the message does. They are the generator's, not the server's.
     */
    public boolean abortedByJMeter() {
        return !success && JMETER_OWN_ABORTS.stream().anyMatch(responseMessage::contains);
    }

    private static final java.util.List<String> JMETER_OWN_ABORTS = java.util.List.of("Socket closed",
            "Socket is closed", "Connection pool shut down", "Connection has been shut down", "Connection already shutdown", "Request aborted",
            "Request execution failed");
}
