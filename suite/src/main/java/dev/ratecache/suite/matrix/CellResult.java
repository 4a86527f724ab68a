package dev.ratecache.suite.matrix;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every run of one cell; a cell that failed says why and where to look.
 *
 * @param failure null when every run completed
 * @param log     the log that explains the failure, or the cell's folder
 */
public record CellResult(Cell cell, List<CellMeasurement> runs, String failure, Path log, Path dir) {

    public boolean failed() {
        return failure != null;
    }

    /** The median over the runs (the middle run's value; the mean of the two middle ones for an even count). */
    public Double median(Metric metric) {
        List<Double> values = values(metric);
        if (values.isEmpty()) {
            return null;
        }
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
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
