package dev.ratecache.appserver.config;

import dev.ratecache.appserver.replay.ReplayPathsFileException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a paths file the origin cannot use into one line in the form of the other configuration
 * errors: the property, the file, what is wrong in it and what the file must hold.
 */
public class InvalidReplayPathsFileAnalyzer extends AbstractFailureAnalyzer<ReplayPathsFileException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ReplayPathsFileException cause) {
        return new OneLineFailureAnalysis("origin: invalid configuration: origin.replay.paths-file=" + cause.file()
                + ": " + cause.problem() + " (accepted: " + AcceptedForms.REPLAY_PATHS_FILE + ")", cause);
    }
}
