package dev.ratecache.appserver.replay;

import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.config.ReplayProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The replay mode's answers, read once at start-up from {@code origin.replay.paths-file} so that a
 * replay is reproducible from the file alone. Empty, and {@link #enabled()} false, without one.
 */
@Component
public class ReplayPaths {

    /** How the origin answers one path: after this delay, with a body this long, fresh this long. */
    public record Answer(Duration delay, long bodyBytes, Duration maxAge) {
    }

    private final ReplayProperties properties;
    private final Map<String, ReplayPath> paths;

    public ReplayPaths(OriginProperties origin) {
        this.properties = origin.replay();
        this.paths = properties.enabled() ? ReplayPathsFile.read(properties.pathsFile()) : Map.of();
    }

    public boolean enabled() {
        return properties.enabled();
    }

    public Optional<Path> file() {
        return Optional.ofNullable(properties.pathsFile());
    }

    public int size() {
        return paths.size();
    }

    public boolean lists(String path) {
        return paths.containsKey(path);
    }

    /**
     * The answer for {@code path} as listed, with the default delay where the row had none, or
     * the defaults for a path the file does not list: a replay of an edited log still gets
     * content rather than errors that the log never had.
     */
    public Answer answerFor(String path) {
        ReplayPath listed = paths.get(path);
        if (listed == null) {
            return new Answer(properties.defaultDelay(), properties.defaultBodyBytes(), properties.maxAge());
        }
        return new Answer(listed.delay().orElse(properties.defaultDelay()), listed.bodyBytes(),
                listed.maxAge().orElse(properties.maxAge()));
    }
}
