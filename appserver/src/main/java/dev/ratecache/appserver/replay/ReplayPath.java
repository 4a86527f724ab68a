package dev.ratecache.appserver.replay;

import java.time.Duration;
import java.util.Optional;

/**
 * One row of the paths file: what the origin answers for one path of the replayed log.
 *
 * @param delay  empty when the log had no timing for the path, so the default delay applies
 * @param maxAge empty when the file gives the path no lifetime of its own, so origin.replay.max-age applies
 */
public record ReplayPath(String path, Optional<Duration> delay, long bodyBytes, Optional<Duration> maxAge) {

    public ReplayPath(String path, Optional<Duration> delay, long bodyBytes) {
        this(path, delay, bodyBytes, Optional.empty());
    }
}
