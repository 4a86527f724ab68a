package dev.ratecache.model;

/**
 * One origin path: how long a request thread spends on it and the freshness it answers with.
 *
 * @param serviceMs the origin's service delay for the path
 * @param freshness the Cache-Control the origin sends
 */
public record PathSpec(long serviceMs, Freshness freshness) {
}
