package dev.ratecache.suite.reproduce;

import dev.ratecache.suite.matrix.Cell;
import java.util.List;

/**
 * One of the experiments this project comes from (the seeds: the source documents), rerun as
 * published: its tool and parameters, its cells, its published table row by row with why ours
 * differs, and what it found then beside what this run finds. A new experiment is one class that
 * implements this, and one line in {@link Reproductions#ALL}.
 */
public interface Experiment {
    /** How `reproduce NAME` names it: short, lower case, words joined by '-'. */
    String name();

    /** Its number among the seeds, as their files are named: "001". */
    String seed();

    /** What it compares, in a few words. */
    String title();

    /** The write-up: its title, year, the setup it ran on (machine, stack), as far as it says. */
    String source();

    /** The load it ran, as published: its tool and parameters. */
    String tool();

    /** What runs here in its place: the suite's tiers and origin, and how they stand in for theirs. */
    String here();

    /** Its cells, in the order they run, each named {@code name()/VARIANT}. */
    List<Cell> cells();

    /** What the suite's origin needs for its cells beyond its defaults (an endpoint of its own, a lifetime). */
    List<String> originArgs();

    /** Whether its origin reads the suite's own PostgreSQL (--origin-db postgres) rather than H2. */
    default boolean postgres() {
        return false;
    }

    /** The published table, row by row. */
    List<PublishedRow> published();

    /** What the write-up found, in one sentence with its figures. */
    String foundThen();

    /** What this run finds, first in one sentence with its figures, then what explains the difference. */
    List<String> foundHere(Measured measured);

    /** The cell builder's trait for the first published row that names {@code cell}, for its brackets. */
    default Cell.Published besideRow(String cell) {
        PublishedRow row = published().stream().filter(r -> cell.equals(r.cell())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no published row of seed " + seed() + " names " + cell));
        return new Cell.Published("seed " + seed(), row.row(), row.reference());
    }
}
