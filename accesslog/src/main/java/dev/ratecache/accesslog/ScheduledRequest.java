package dev.ratecache.accesslog;

/**
 * One request as the replay sends it: a row of schedule.csv.
 *
 * @param offsetMs when to send it, in ms after the first, already divided by the speed
 * @param address the loopback source address standing in for {@code client}
 * @param method the request method as logged
 * @param uri the request target as logged (path and query)
 * @param client the original client as logged, so a result can be traced back to the log
 * @param key the key to send in the limit key's header, or {@link LoggedRequest#NO_KEY} to send none
 */
public record ScheduledRequest(long offsetMs, String address, String method, String uri, String client, String key) {
    public ScheduledRequest {
        key = key == null ? LoggedRequest.NO_KEY : key;
    }

    /** A request sent by address alone, as every replay was before keys. */
    public ScheduledRequest(long offsetMs, String address, String method, String uri, String client) {
        this(offsetMs, address, method, uri, client, LoggedRequest.NO_KEY);
    }
}
