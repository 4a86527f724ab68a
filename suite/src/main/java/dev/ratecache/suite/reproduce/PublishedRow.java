package dev.ratecache.suite.reproduce;

import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Reference;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One row of a published table, beside the cell of ours that reproduces it.
 *
 * @param row            what the write-up measured in this row, in its terms
 * @param cell           the name of our cell beside it; null when no cell of ours has its shape (the
 *                       {@code whyOursDiffers} then says why)
 * @param figures        its figures, as printed; throughput first
 * @param whyOursDiffers where our setup differs from theirs, and what that does to the figures
 */
public record PublishedRow(String row, String cell, List<PublishedFigure> figures, String whyOursDiffers) {
    public PublishedRow {
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(whyOursDiffers, "whyOursDiffers");
        figures = List.copyOf(figures);
        if (figures.isEmpty() || figures.get(0).metric() != Metric.THROUGHPUT) {
            throw new IllegalArgumentException("a published row's first figure is its throughput: " + row);
        }
    }

    public PublishedRow(String row, String cell, String whyOursDiffers, PublishedFigure... figures) {
        this(row, cell, List.of(figures), whyOursDiffers);
    }

    /** Its figure for {@code metric}, if it published one. */
    public Optional<PublishedFigure> figure(Metric metric) {
        return figures.stream().filter(f -> f.metric() == metric).findFirst();
    }

    public double throughput() {
        return figures.get(0).value();
    }

    /** The row as the report's brackets show it beside the cell (throughput, rejections, latency). */
    public Reference reference() {
        return new Reference(throughput(), figure(Metric.REJECTED_PCT).map(PublishedFigure::value).orElse(0.0),
                value(Metric.MEAN_MS), value(Metric.MIN_MS), value(Metric.MAX_MS), whyOursDiffers);
    }

    private Double value(Metric metric) {
        return figure(metric).map(PublishedFigure::value).orElse(null);
    }
}
