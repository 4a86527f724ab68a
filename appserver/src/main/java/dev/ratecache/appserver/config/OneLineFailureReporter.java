package dev.ratecache.appserver.config;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalysisReporter;

/**
 * Reports a failed start as one line on stderr.
 *
 * <p>The suite starts the origin many times and shows its stderr to the person running it; a
 * single line naming the cause is what they need. Spring Boot's logging reporter is silenced in
 * application.yml so the failure is not reported twice.
 */
public class OneLineFailureReporter implements FailureAnalysisReporter {

    @Override
    public void report(FailureAnalysis analysis) {
        System.err.println(lineFor(analysis));
        System.err.flush();
    }

    static String lineFor(FailureAnalysis analysis) {
        if (analysis instanceof OneLineFailureAnalysis) {
            return analysis.getDescription();
        }
        // Spring Boot's own analyses (a port in use, say) are written as paragraphs.
        String line = "origin: failed to start: " + squash(analysis.getDescription());
        String action = squash(analysis.getAction());
        return action.isEmpty() ? line : line + " Action: " + action;
    }

    private static String squash(String text) {
        return (text != null) ? text.strip().replaceAll("\\s+", " ") : "";
    }
}
