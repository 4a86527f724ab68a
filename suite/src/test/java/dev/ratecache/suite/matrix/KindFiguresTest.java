package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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

    private static final Path SOURCES = Path.of("suite/src/main/java/dev/ratecache/suite");
    /** A class that keeps its figures in a measurement: it implements KindFigures or a trait's Figure. */
    private static final Pattern FIGURES = Pattern.compile(
            "\\b(?:record|class)\\s+(\\w+)\\b[^{]*\\bimplements\\b[^{]*\\b(?:KindFigures|CellTrait\\.Figure)\\b");

    /**
     * What KindFigures' permits clause listed before the kinds moved to packages of their own, checked
     * instead: every kind of figures in the main code, wherever its kind keeps it, is asked for by its
     * type somewhere else (a section, a check, a metric). One that nothing reads was collected for
     * nothing, and a reader that names no type could not find it in the breakdowns.
     */
    @Test
    void everyKindOfFiguresIsReadByItsTypeOutsideItself() throws IOException {
        Path root = Repo.root().resolve(SOURCES);
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.put(root.relativize(f).toString().replace('\\', '/'), Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        Map<String, String> figures = new TreeMap<>();
        sources.forEach((file, code) -> {
            Matcher m = FIGURES.matcher(code);
            while (m.find()) {
                figures.put(m.group(1), file);
            }
        });
        assertThat(figures).as("the kinds of figures found").containsKeys("QuotaFigures", "FaultFigures",
                "DatabaseFigures", "ReplayBreakdown");
        List<String> unread = new ArrayList<>();
        figures.forEach((type, file) -> {
            Pattern asked = Pattern.compile("\\b" + type + "\\.class\\b");
            if (sources.entrySet().stream().noneMatch(e -> !e.getKey().equals(file) && asked.matcher(e.getValue()).find())) {
                unread.add(file);
            }
        });
        assertThat(unread).as("figures no main class asks for by type (Breakdowns.figure(X.class), Check.perCell)")
                .isEmpty();
    }
}
