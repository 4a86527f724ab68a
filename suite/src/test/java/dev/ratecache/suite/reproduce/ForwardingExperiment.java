package dev.ratecache.suite.reproduce;

import dev.ratecache.suite.matrix.Cell;
import java.util.List;

/** An experiment that answers as another does, for a test to change one of its answers. */
class ForwardingExperiment implements Experiment {
    private final Experiment of;

    ForwardingExperiment(Experiment of) {
        this.of = of;
    }

    @Override public About about() { return of.about(); }
    @Override public List<Cell> cells() { return of.cells(); }
    @Override public List<String> foundHere(Measured measured) { return of.foundHere(measured); }
}
