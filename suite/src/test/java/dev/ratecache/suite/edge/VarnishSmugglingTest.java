package dev.ratecache.suite.edge;

import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.StackTest;

/** The smuggling vectors through Varnish's two tiers. */
@StackTest
class VarnishSmugglingTest extends SmugglingVectors {
    @Override
    Edge edge() {
        return new VarnishEdge(Repo.varnishTemplates());
    }

    @Override
    String pool() {
        return "127.10";
    }

    /**
     * varnishd answers a head it cannot parse (400) for the session, not for a request, and the
     * log the suite reads holds requests; a head over http_req_size it drops without an answer.
     */
    @Override
    boolean logsUnreadRequests() {
        return false;
    }
}
