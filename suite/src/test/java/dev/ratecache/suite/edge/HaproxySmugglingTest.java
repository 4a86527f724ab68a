package dev.ratecache.suite.edge;

import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.StackTest;

/** The smuggling vectors through HAProxy's two tiers. */
@StackTest
class HaproxySmugglingTest extends SmugglingVectors {
    @Override
    Edge edge() {
        return new HaproxyEdge(Repo.haproxyTemplates());
    }

    @Override
    String pool() {
        return "127.9";
    }
}
