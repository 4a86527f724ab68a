package dev.ratecache.model;

/**
 * One request of an open workload: it reaches the front tier at {@code timeMs} whatever happened
 * to earlier requests.
 *
 * @param timeMs model time of arrival at the front
 * @param client the front's limit_req key (the client address)
 * @param path   the URI, also the edge cache key
 */
public record Arrival(long timeMs, String client, String path) {
}
