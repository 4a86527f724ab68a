package dev.ratecache.accesslog;

/**
 * One original client and the source address that stands in for it: a row of clients.csv, so the
 * user can find their own clients again in nginx's log of the replay.
 *
 * @param requests how many of the replayed requests are this client's
 */
public record ClientAddress(String client, String address, long requests) {}
