package dev.ratecache.suite.reproduce;

import dev.ratecache.suite.matrix.Cell;
import java.util.List;

/** An experiment that answers as another does, for a test to change one of its answers. */
class ForwardingExperiment implements Experiment {
    private final Experiment of;

    ForwardingExperiment(Experiment of) {
        this.of = of;
    }

    @Override public String name() { return of.name(); }
    @Override public String seed() { return of.seed(); }
    @Override public String title() { return of.title(); }
    @Override public String source() { return of.source(); }
    @Override public String tool() { return of.tool(); }
    @Override public String here() { return of.here(); }
    @Override public List<Cell> cells() { return of.cells(); }
    @Override public List<String> originArgs() { return of.originArgs(); }
    @Override public List<PublishedRow> published() { return of.published(); }
    @Override public String foundThen() { return of.foundThen(); }
    @Override public List<String> foundHere(Measured measured) { return of.foundHere(measured); }
}
