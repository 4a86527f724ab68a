package dev.ratecache.suite.matrix;

/**
 * What a kind of cell collected of one run beyond what every cell measures, kept in its
 * {@link CellMeasurement.Breakdowns}, one of each type. Sealed so that nothing else can be kept there
 * and so that the permits clauses (this one and {@link CellTrait.Figure}'s) are the list of kinds a
 * reader of the breakdowns may meet.
 */
public sealed interface KindFigures permits ReplayBreakdown, FleetFallbacks, DatabaseFigures, CellTrait.Figure {
}
