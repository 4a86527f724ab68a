package dev.ratecache.appserver.config;

import org.springframework.boot.diagnostics.FailureAnalysis;

/** A failure analysis whose description is already the complete line to print. */
public class OneLineFailureAnalysis extends FailureAnalysis {

    public OneLineFailureAnalysis(String line, Throwable cause) {
        super(line, "", cause);
    }
}
