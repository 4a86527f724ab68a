package dev.ratecache.suite.kinds.db;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import java.util.ArrayList;
import java.util.List;

/** The cells of --matrix db: the database endpoint behind each cache, then the pool sweep. */
public final class DbCells {
    private DbCells() {}

    /** The name of --matrix db's set of cells, and of its table. */
    static final String DB = "db";

    /** The pool sweep's sizes: from under the machine's cores x 2 to far past it (HikariCP's pool-sizing note). */
    public static final List<Integer> POOLS = List.of(2, 5, 10, 20, 50);

    /**
     * The pool sweep's offered load, requests a second of the flood plan's open arrivals: above what
     * a pool of 2 answers on a 2-core machine, under what a pool of 10 does (measured on one: see
     * README's --matrix db).
     */
    public static final int SWEEP_RATE = 900;

    /**
     * The database endpoint ({@link Matrix#DB_PATH}) under the stress plan straight to the origin, behind
     * the edge cache, behind the origin's Redis app cache and behind both, rate limits off (they
     * would reject the uncached cells' traffic and hide the database's load); then the flood plan at
     * {@link #SWEEP_RATE} straight to the origin with each pool of {@link #POOLS}, the origin
     * restarted with that pool.
     */
    public static List<Cell> of() {
        List<Cell> cells = new ArrayList<>(List.of(
                Cell.named(Plan.STRESS, DB, "direct").direct().property("path", Matrix.DB_PATH).build(),
                Cell.named(Plan.STRESS, DB, "edge").frontLimit(false).backLimit(false).serverCache()
                        .property("path", Matrix.DB_PATH).build(),
                Cell.named(Plan.STRESS, DB, "app-cache").direct().appCache().property("path", Matrix.DB_PATH).build(),
                Cell.named(Plan.STRESS, DB, "both").frontLimit(false).backLimit(false).serverCache().appCache()
                        .property("path", Matrix.DB_PATH).build()));
        for (int size : POOLS) {
            cells.add(Cell.named(Plan.FLOOD, DB, "pool-" + size).direct().pool(new Cell.Pool(size))
                    .property("path", Matrix.DB_PATH).property("rate", String.valueOf(SWEEP_RATE)).build());
        }
        return cells;
    }
}
