package dev.ratecache.accesslog;

/**
 * One request as the replay sends it: a row of schedule.csv.
 *
 * @param offsetMs when to send it, in ms after the first, already divided by the speed
 * @param address the loopback source address standing in for {@code client}
 * @param method the request method as logged
 * @param uri the request target as logged (path and query)
 * @param client the original client as logged, so a result can be traced back to the log
 */
public record ScheduledRequest(long offsetMs, String address, String method, String uri, String client) {}
