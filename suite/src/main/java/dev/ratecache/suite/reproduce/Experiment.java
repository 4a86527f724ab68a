package dev.ratecache.suite.reproduce;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Source;
import java.util.List;

/**
 * One of the experiments this project comes from (the seeds: the source documents), rerun as
 * published: its tool and parameters, its cells, its published table row by row with why ours
 * differs, and what it found then beside what this run finds. A new experiment is one class that
 * implements this, and one line in {@link Reproductions#ALL}.
 */
public interface Experiment {
    /**
     * What the experiment is, as published and as rerun here: constants, which each experiment
     * gives once.
     *
     * @param name       how `reproduce NAME` names it: short, lower case, words joined by '-'
     * @param seed       its number among the seeds, as their files are named: "001"
     * @param title      what it compares, in a few words
     * @param source     the write-up: its title, year, the setup it ran on (machine, stack), as far as it says
     * @param tool       the load it ran, as published: its tool and parameters
     * @param here       what runs here in its place: the suite's tiers and origin, and how they stand in for theirs
     * @param foundThen  what the write-up found, in one sentence with its figures
     * @param published  the published table, row by row
     * @param originArgs what the suite's origin needs for its cells beyond its defaults (an endpoint of its own,
     *                   a lifetime)
     * @param postgres   whether its origin reads the suite's own PostgreSQL (--origin-db postgres) rather than H2
     */
    record About(String name, String seed, String title, String source, String tool, String here, String foundThen,
            List<PublishedRow> published, List<String> originArgs, boolean postgres) {
        public About {
            published = List.copyOf(published);
            originArgs = List.copyOf(originArgs);
        }
    }

    About about();

    default String name() {
        return about().name();
    }

    default String seed() {
        return about().seed();
    }

    default String title() {
        return about().title();
    }

    default String source() {
        return about().source();
    }

    /** The write-up, with its author, year and link: the seed's source. */
    default Source writeUp() {
        return Source.ofSeed(seed());
    }

    default String tool() {
        return about().tool();
    }

    default String here() {
        return about().here();
    }

    /** Its cells, in the order they run, each named {@code name()/VARIANT}. */
    List<Cell> cells();

    default List<String> originArgs() {
        return about().originArgs();
    }

    default boolean postgres() {
        return about().postgres();
    }

    default List<PublishedRow> published() {
        return about().published();
    }

    default String foundThen() {
        return about().foundThen();
    }

    /** What this run finds, first in one sentence with its figures, then what explains the difference. */
    List<String> foundHere(Measured measured);

    /** The cell builder's trait for the first published row that names {@code cell}, for its brackets. */
    default Cell.Published besideRow(String cell) {
        PublishedRow row = published().stream().filter(r -> cell.equals(r.cell())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no published row of seed " + seed() + " names " + cell));
        return new Cell.Published("seed " + seed(), row.row(), row.reference());
    }
}
