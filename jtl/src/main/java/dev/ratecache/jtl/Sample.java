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
 */
public record Sample(long timeStamp, long elapsed, String label, String responseCode, String responseMessage,
        String threadName, boolean success, long bytes, int threads, String url, String cacheStatus, String retryAfter) {

    /** A sample with just what the summary reads: for tests and for callers that have no more. */
    public static Sample of(long timeStamp, long elapsed, String responseCode, boolean success) {
        return new Sample(timeStamp, elapsed, "", responseCode, "", "", success, 0, 1, "", "", "");
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
}
