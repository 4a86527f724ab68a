package dev.ratecache.suite.spec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A user's own config in the front tier's place (--nginx-conf), which the product's adapter runs
 * instead of rendering one: the spec says only where the tiers listen and whether the config's
 * limits and cache stay ({@code front}, {@code cache.on}), and the config writes its own rewired
 * copy.
 */
public interface UserFront {
    /**
     * Writes the copy that runs as the front tier of {@code spec} into {@code prefix} (its conf/,
     * and the list of what was changed); returns the file the product is started with.
     */
    Path write(StackSpec spec, Path prefix) throws IOException, InterruptedException;

    /** The paths the plans send, each answered by the origin as one of its endpoints. */
    List<SentPath> paths();

    /** Whether a path the plans send meets a limit of the config. */
    boolean limits();

    /** Whether a path the plans send meets the config's cache. */
    boolean caches();

    /** The config, its server and its paths, in words, for the run's header. */
    String describe();

    /**
     * A path the plans send.
     *
     * @param path       as sent, e.g. /api/
     * @param endpoint   the origin endpoint whose delay and freshness it gets (hare, tortoise, snail)
     * @param originPath the path the origin gets through the config: its proxy_pass may replace the
     *                   location's part (location /v1/ with proxy_pass http://app/api/v1/ sends /api/v1/)
     */
    record SentPath(String path, String endpoint, String originPath) {
        /** A path the config passes upstream as it is. */
        public SentPath(String path, String endpoint) {
            this(path, endpoint, path);
        }
    }
}
