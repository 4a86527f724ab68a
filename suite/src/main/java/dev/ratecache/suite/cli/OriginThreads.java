package dev.ratecache.suite.cli;

import dev.ratecache.suite.origin.OriginDefaults;
import dev.ratecache.suite.switches.WholeNumber;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** --origin-threads, for every command that starts the suite's origin. */
final class OriginThreads implements WholeNumber.Flags {
    private static final WholeNumber THREADS = WholeNumber.of("--origin-threads", 1, 1000);

    @Option(names = "--origin-threads", paramLabel = "N",
            description = "Request threads of the suite's origin (its capacity on /hare is about N x 10 responses/s)."
                    + " Default: ${DEFAULT-VALUE}.")
    int threads = OriginDefaults.get().threads();

    int threads() {
        return threads;
    }

    Optional<String> problem() {
        return THREADS.problem(threads);
    }

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WholeNumber.byFlag(THREADS);
    }
}
