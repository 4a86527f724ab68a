package dev.ratecache.suite.matrix;

import java.nio.file.Path;

/** A cell's run went wrong in a way a log explains. */
public final class CellFailure extends Exception {
    private final Path log;
    private final CellMeasurement.Breakdowns breakdowns;

    public CellFailure(String message, Path log) {
        this(message, log, CellMeasurement.Breakdowns.NONE);
    }

    /** A run that failed after breaking its samples down: the report still shows them. */
    public CellFailure(String message, Path log, CellMeasurement.Breakdowns breakdowns) {
        super(message);
        this.log = log;
        this.breakdowns = breakdowns;
    }

    /** What the run had broken down before it failed. */
    public CellMeasurement.Breakdowns breakdowns() {
        return breakdowns;
    }

    /** The log that explains the failure. */
    public Path log() {
        return log;
    }
}
