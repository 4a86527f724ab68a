package dev.ratecache.suite.kinds.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Plan;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The db matrix's cells: the query behind each cache, then the pool sweep. */
class DbCellsTest {
    @Test
    void theDbMatrixPutsTheQueryBehindEachCacheThenSweepsThePoolAtOneOfferedRate() {
        List<Cell> cells = DbCells.of();

        assertThat(cells).extracting(Cell::name).containsExactly("db/direct", "db/edge", "db/app-cache", "db/both",
                "db/pool-2", "db/pool-5", "db/pool-10", "db/pool-20", "db/pool-50");
        assertThat(cells).allSatisfy(c -> {
            assertThat(c.properties()).containsEntry("path", "/places?code=1227");
            assertThat(c.frontLimit() || c.backLimit()).as("limits would hide the database's load").isFalse();
        });
        assertThat(cells.subList(0, 4)).extracting(Cell::direct, Cell::serverCache, Cell::appCache).containsExactly(
                tuple(true, false, false), tuple(false, true, false), tuple(true, false, true), tuple(false, true, true));
        List<Cell> sweep = cells.subList(4, 9);
        assertThat(sweep).allSatisfy(c -> {
            assertThat(c.plan()).isEqualTo(Plan.FLOOD);
            assertThat(c.direct() && !c.appCache()).isTrue();
            assertThat(c.properties()).containsEntry("rate", String.valueOf(DbCells.SWEEP_RATE));
        });
        assertThat(sweep).extracting(c -> c.trait(Cell.Pool.class).size()).containsExactly(2, 5, 10, 20, 50);
        assertThat(sweep.get(0).describe()).endsWith("a pool of 2 database connections");
        assertThat(cells.get(0).trait(Cell.Pool.class)).as("the caches' cells run with the user's --db-pool").isNull();
    }
}
