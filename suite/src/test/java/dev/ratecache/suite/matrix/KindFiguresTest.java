package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.JtlSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The metrics of one kind of cell, answered by the figures that kind collected and by nothing else. */
class KindFiguresTest {
    private static final List<Metric> PER_KIND = List.of(Metric.EFFECTIVE_LIMIT, Metric.FLEET_FALLBACKS,
            Metric.DB_504S, Metric.DB_502S, Metric.POOL_WAIT_MEAN_MS, Metric.POOL_HOLD_MEAN_MS,
            Metric.POOL_ACTIVE_PEAK);

    private static CellMeasurement measured(CellMeasurement.Breakdowns breakdowns) {
        JtlSummary jtl = new JtlSummary(1000, 0, 0, 0, 100, 5, 1, 20, 3, 4, 5, 20, 10_000);
        return new CellMeasurement(jtl, 1000.0, null, new CellMeasurement.Cpu(null, null, 5.0, 2.0), 10, null, null,
                null, CellMeasurement.WindowCpu.UNKNOWN, breakdowns);
    }

    @Test
    void aCellThatCollectedNoneOfAKindsFiguresHasNoneOfItsMetrics() {
        CellMeasurement m = measured(CellMeasurement.Breakdowns.of(null, null, (KindFigures) null));

        assertThat(m.breakdowns().figures()).isEmpty();
        assertThat(PER_KIND).allSatisfy(metric -> assertThat(metric.of(m)).as(metric.id()).isNull());
    }

    @Test
    void eachKindsMetricsAreReadFromItsOwnFigures() {
        DatabaseFigures db = new DatabaseFigures(2, "10s", 7, 3, "gone", 1.5, 2L, 990, 2.5);
        FleetFallbacks fallbacks = new FleetFallbacks("127.0.0.1:6390", 100, 60);
        FleetFigures fleet = new FleetFigures("heavy", 24, 500, 80, 8.0, 40, 0, 1.0, 60L, List.of());
        CellMeasurement m = measured(CellMeasurement.Breakdowns.of(null, null, db, fallbacks, fleet));

        assertThat(m.breakdowns().figure(DatabaseFigures.class)).isSameAs(db);
        assertThat(PER_KIND).extracting(metric -> metric.of(m))
                .containsExactly(40 / 24.0, 60.0, 7.0, 3.0, 1.5, 2.5, 2.0);
    }

    @Test
    void aPoolWithoutAReadingHasNoPeak() {
        DatabaseFigures db = new DatabaseFigures(2, "10s", 0, 0, null, null, null, 0, null);
        CellMeasurement m = measured(CellMeasurement.Breakdowns.of(null, null, db));

        assertThat(Metric.POOL_ACTIVE_PEAK.of(m)).isNull();
        assertThat(Metric.POOL_WAIT_MEAN_MS.of(m)).isNull();
        assertThat(Metric.DB_504S.of(m)).isZero();
    }
}
