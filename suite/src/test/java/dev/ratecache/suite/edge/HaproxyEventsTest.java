package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.StackTest;

/**
 * Both HAProxy tiers' access logs as events ({@link EdgeEventsBehaviours}). HAProxy 2.6 counts no
 * body apart from its head: an answer's bytes are its Content-Length, and for a chunked answer (the
 * suite's origin sends its bodies chunked) what HAProxy counted of head and body together.
 */
@StackTest
class HaproxyEventsTest extends EdgeEventsBehaviours {
    @Override
    Edge edge() {
        return new HaproxyEdge(Repo.haproxyTemplates());
    }

    @Override
    String subnet() {
        return "127.0.7";
    }

    @Override
    void assertBody(EdgeEvent event, Http.Raw answer) {
        if (answer.header("Content-Length") != null) {
            super.assertBody(event, answer);
        } else {
            assertThat(event.bytes()).isGreaterThan(bodyBytes(answer));
        }
    }
}
