package dev.ratecache.suite.cli;

import dev.ratecache.suite.origin.OriginDefaults;
import java.util.Optional;
import picocli.CommandLine.Option;

/** --origin-threads, for every command that starts the suite's origin. */
final class OriginThreads {
    @Option(names = "--origin-threads", paramLabel = "N",
            description = "Request threads of the suite's origin (its capacity on /hare is about N x 10 responses/s)."
                    + " Default: ${DEFAULT-VALUE}.")
    int threads = OriginDefaults.get().threads();

    int threads() {
        return threads;
    }

    Optional<String> problem() {
        return threads < 1 || threads > 1000
                ? Optional.of("--origin-threads must be a whole number from 1 to 1000 (got " + threads + ")")
                : Optional.empty();
    }
}
