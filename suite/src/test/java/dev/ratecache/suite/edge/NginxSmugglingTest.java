package dev.ratecache.suite.edge;

import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.StackTest;

/** The smuggling vectors through nginx's two tiers, the suite's default edge. */
@StackTest
class NginxSmugglingTest extends SmugglingVectors {
    @Override
    Edge edge() {
        return new NginxEdge(Repo.nginxTemplates());
    }

    @Override
    String pool() {
        return "127.8";
    }
}
