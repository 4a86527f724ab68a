package dev.ratecache.accesslog;

import java.util.OptionalLong;

/**
 * What the origin should do for one path to behave as the logged one did: a row of paths.csv.
 * Medians, so that a few slow outliers (or cache hits timed at 0) do not set the delay of a path.
 *
 * @param path the uri without its query
 * @param requests how many of the replayed requests are for this path
 * @param delayMs the median upstream response time of the path, else its median request time;
 *     empty when the log records neither
 * @param bodyBytes the median body size logged for the path, 0 when the log records none
 */
public record PathProfile(String path, long requests, OptionalLong delayMs, long bodyBytes) {}
