package dev.ratecache.suite.cli;

import java.util.Locale;

/** --app-cache: the origin's own cache of /items and /places reads, in Redis, or none. */
enum AppCacheOption {
    REDIS, OFF;

    /** As typed on the command line, listed in --help and in the error for a bad value. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
