package dev.ratecache.suite.cli;

import dev.ratecache.suite.origin.Endpoint;
import dev.ratecache.suite.spec.UserFront;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The origin for a user's own config: it answers the config's paths as the endpoints they stand
 * for (their delay and freshness), through its replay mode's paths file, so that the requests the
 * config passes upstream reach an answer without the origin knowing the user's routes.
 */
final class OwnConfigOrigin {
    /** The paths file, in the run's folder. */
    static final String PATHS_CSV = "your-paths.csv";

    private OwnConfigOrigin() {}

    /** Writes the paths file into {@code runDir}; returns the origin's arguments that read it. */
    static List<String> args(UserFront own, List<Endpoint> endpoints, Path runDir) throws IOException {
        List<String> rows = new ArrayList<>(List.of("path,requests,delay_ms,body_bytes,max_age_s"));
        java.util.Set<String> listed = new java.util.HashSet<>();
        for (UserFront.SentPath p : own.paths()) {
            Endpoint e = endpoints.stream().filter(x -> x.name().equals(p.endpoint())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no endpoint " + p.endpoint()));
            // The path as the direct cells send it, and as the config passes it upstream.
            for (String path : List.of(p.path(), p.originPath())) {
                if (listed.add(path)) {
                    rows.add(path + ",0," + e.delay().toMillis() + ",1024," + e.maxAge().toSeconds());
                }
            }
        }
        Files.createDirectories(runDir);
        Path csv = runDir.resolve(PATHS_CSV);
        Files.write(csv, rows);
        return List.of("--origin.replay.paths-file=" + csv.toAbsolutePath());
    }
}
