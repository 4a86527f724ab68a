package dev.ratecache.suite.matrix;

import java.nio.file.Path;

/** A cell's run went wrong in a way a log explains. */
public final class CellFailure extends Exception {
    private final Path log;

    public CellFailure(String message, Path log) {
        super(message);
        this.log = log;
    }

    /** The log that explains the failure. */
    public Path log() {
        return log;
    }
}
