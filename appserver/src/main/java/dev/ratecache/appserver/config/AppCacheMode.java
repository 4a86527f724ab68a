package dev.ratecache.appserver.config;

/**
 * Whether the origin keeps items in an app-level cache ({@code origin.app-cache}). Spring binds
 * the value case-insensitively; anything else stops start-up with one line.
 */
public enum AppCacheMode {
    /** Every read is a database query; no Redis connection is ever attempted. */
    OFF,
    /** Cache-aside on Redis: reads try Redis first, writes evict. */
    REDIS
}
