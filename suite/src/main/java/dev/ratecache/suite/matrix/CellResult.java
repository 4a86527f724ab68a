package dev.ratecache.suite.matrix;

import dev.ratecache.stats.Median;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every run of one cell; a cell that failed says why and where to look.
 *
 * @param failure null when every run completed
 * @param log     the log that explains the failure, or the cell's folder
 * @param failedRun what the run that failed had broken down before it failed (its replay.json,
 *                load-hosts.json, timeline), {@link CellMeasurement.Breakdowns#NONE} when it did not get that far
 */
public record CellResult(Cell cell, List<CellMeasurement> runs, String failure, Path log, Path dir,
        CellMeasurement.Breakdowns failedRun) {

    public CellResult(Cell cell, List<CellMeasurement> runs, String failure, Path log, Path dir) {
        this(cell, runs, failure, log, dir, CellMeasurement.Breakdowns.NONE);
    }

    public boolean failed() {
        return failure != null;
    }

    /** The folder of the cell's first run: the cell's own when it ran once, else run-1 inside it (MatrixRunner). */
    public Path firstRunDir() {
        Path first = dir.resolve("run-1");
        return java.nio.file.Files.isDirectory(first) ? first : dir;
    }

    /**
     * The breakdowns of the run the report shows over time: the first, or, when none finished, the
     * one that failed (as {@link #firstRunDir} is then its folder).
     */
    public CellMeasurement.Breakdowns firstBreakdowns() {
        return runs.isEmpty() ? failedRun : runs.get(0).breakdowns();
    }

    /** Each finished run's breakdowns, in run order; when none finished, the failed run's. */
    public List<CellMeasurement.Breakdowns> breakdownsPerRun() {
        return runs.isEmpty() ? List.of(failedRun) : runs.stream().map(CellMeasurement::breakdowns).toList();
    }

    /** Each finished run's folder: the cell's own when it ran once, else run-1, run-2, ... inside it. */
    public List<Path> runDirs() {
        if (firstRunDir().equals(dir)) {
            return List.of(dir);
        }
        List<Path> dirs = new ArrayList<>();
        for (int i = 1; i <= runs.size(); i++) {
            dirs.add(dir.resolve("run-" + i));
        }
        return dirs;
    }

    /** The median over the runs ({@link Median}: the mean of the two middle runs for an even count); null when none measured it. */
    public Double median(Metric metric) {
        List<Double> values = values(metric);
        return values.isEmpty() ? null : Median.of(values);
    }

    public Double min(Metric metric) {
        List<Double> values = values(metric);
        return values.isEmpty() ? null : values.get(0);
    }

    public Double max(Metric metric) {
        List<Double> values = values(metric);
        return values.isEmpty() ? null : values.get(values.size() - 1);
    }

    private List<Double> values(Metric metric) {
        List<Double> values = new ArrayList<>();
        for (CellMeasurement run : runs) {
            Double v = metric.of(run);
            if (v != null) {
                values.add(v);
            }
        }
        Collections.sort(values);
        return values;
    }
}
