package dev.ratecache.suite.matrix;

/**
 * What a kind of cell collected of one run beyond what every cell measures, kept in its
 * {@link CellMeasurement.Breakdowns}, one of each type, and read back by type
 * ({@link CellMeasurement.Breakdowns#figure}).
 *
 * <p>Not sealed: a kind's figures live in the kind's own package (kinds/quotas' QuotaFigures), and a
 * sealed interface of the suite, which is no named module, may permit only classes of its own
 * package, which would pull every kind's figures back into this one. What the permits clause said
 * instead is checked by KindFiguresTest: it finds every implementation in the main code and fails
 * for one that no reader asks for by its type (a section, a check, a metric), since a figure
 * collected and never read is a kind half added.
 */
public interface KindFigures {
}
