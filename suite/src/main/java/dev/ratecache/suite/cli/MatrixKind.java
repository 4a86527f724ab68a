package dev.ratecache.suite.cli;

import java.util.Locale;

/** The sets of cells --matrix chooses from (matrix/Matrix builds each). */
enum MatrixKind {
    DEFAULT, FULL, PROTECTION, CACHES, TIERS, FLEET, EDGES;

    /** As typed on the command line, listed in --help and in the error for a bad value. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
