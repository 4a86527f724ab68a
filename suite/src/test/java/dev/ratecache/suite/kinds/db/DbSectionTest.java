package dev.ratecache.suite.kinds.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.DatabaseFigures;
import dev.ratecache.suite.report.ReportSection;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --matrix db's section: a row per cell, and where the pool sweep's optimum lies against cores x 2. */
class DbSectionTest {
    private static final Path DIR = Path.of("unused");

    private static Cell cell(String name) {
        return DbCells.of().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** A cell that answered {@code perSecond} responses, {@code errors} of 1000 of them 504s, at a mean of half its p99. */
    private static CellResult result(String name, double perSecond, long p99, long errors, double postgresCpuS) {
        JtlSummary jtl = new JtlSummary(1000, 0, errors, 0, perSecond, p99 / 2.0, 1, p99, 3, 4, 5, p99, 10_000);
        DatabaseFigures db = new DatabaseFigures(2, "10s", errors, 0, null, 1.5, 2L, 1000 - errors, 2.0);
        CellMeasurement m = new CellMeasurement(jtl, 1000.0, null,
                new CellMeasurement.Cpu(null, null, 5.0, 2.0, postgresCpuS), 10, null, null, null,
                CellMeasurement.WindowCpu.UNKNOWN, CellMeasurement.Breakdowns.of(null, null, db));
        return new CellResult(cell(name), List.of(m), null, DIR, DIR);
    }

    @Test
    void eachCellIsARowWithItsPoolAndItsDatabaseFigures() {
        ReportSection s = DbSection.of(List.of(result("db/direct", 300, 80, 0, 3), result("db/pool-2", 400, 900, 100, 4)),
                Map.of(), 2).get(0);

        assertThat(s.tables().get(0).rows()).extracting(ReportSection.Row::cells).containsExactly(
                List.of("db/direct", "as run", "300.0 / n/a", "80", "1.5", "0.00 / n/a", "1000", "30", "50"),
                List.of("db/pool-2", "2", "400.0 / n/a", "900", "1.5", "10.00 / n/a", "900", "40", "50"));
    }

    @Test
    void aLargerPoolSlowerThanTheBestPastCoresTimesTwoIsSaidToShowTheNote() {
        List<CellResult> sweep = List.of(result("db/pool-2", 700, 40, 0, 6), result("db/pool-5", 800, 30, 0, 7),
                result("db/pool-50", 600, 90, 0, 9));

        String line = DbSection.of(sweep, Map.of(), 2).get(0).lines().get(0);

        assertThat(line).startsWith("On this machine (2 cores) the pool of 5 did best: 800.0 requests/s with rows at a"
                + " mean of 15 ms (the fastest of those within 5 % of the most answered)")
                .contains("cores x 2 = 4 connections; this machine shows it: the pool of 50 answered 600.0/s at a mean"
                        + " of 45 ms");
    }

    @Test
    void aLargerPoolAsFastAsTheBestIsSaidNotToShowIt() {
        List<CellResult> sweep = List.of(result("db/pool-2", 500, 40, 0, 6), result("db/pool-10", 800, 30, 0, 7),
                result("db/pool-50", 790, 31, 0, 7));

        assertThat(DbSection.of(sweep, Map.of(), 2).get(0).lines().get(0))
                .contains("the pool of 10 did best").contains("this machine does not show a bigger pool slower");
    }

    @Test
    void whenEveryPoolKeepsUpWithTheOfferedRateTheFastestDidBest() {
        // An idle run's sweep at 900 arrivals a second: every pool answered them all; the waits differ.
        List<CellResult> sweep = List.of(result("db/pool-2", 990, 266, 0, 3), result("db/pool-5", 1005, 218, 0, 4),
                result("db/pool-10", 998, 124, 0, 4), result("db/pool-20", 982, 118, 0, 4),
                result("db/pool-50", 1011, 132, 0, 4));

        assertThat(DbSection.of(sweep, Map.of(), 2).get(0).lines().get(0))
                .startsWith("On this machine (2 cores) the pool of 20 did best: 982.0 requests/s with rows at a mean of"
                        + " 59 ms (every pool answered within 5 % of the most, so the fastest of them)")
                .contains("this machine does not show a bigger pool slower: the pool of 50");
    }

    @Test
    void the504sDoNotCountAsAnswers() {
        List<CellResult> sweep = List.of(result("db/pool-2", 900, 3000, 500, 6), result("db/pool-5", 600, 30, 0, 7));

        assertThat(DbSection.of(sweep, Map.of(), 2).get(0).lines().get(0)).contains("the pool of 5 did best");
    }

    @Test
    void noDbCellNoSection() {
        assertThat(DbSection.of(List.of(), Map.of(), 2)).isEmpty();
    }
}
