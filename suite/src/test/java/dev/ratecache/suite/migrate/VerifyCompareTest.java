package dev.ratecache.suite.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.model.Rate;
import dev.ratecache.suite.edge.EdgeEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * --verify's judgement: a product's logged decisions against its model's at the logged times, with
 * the stated tolerance. Events written by hand, as an adapter reads them from its log.
 */
class VerifyCompareTest {
    static final long T0 = 1_700_000_000_000L;
    static final LimitSpec TEN_BURST_FOUR = LimitReqSpec.nodelay(Rate.perSecond(10), 4).withRejectStatus(429);

    static EdgeEvent event(long at, EdgeEvent.Limit limit) {
        return new EdgeEvent(at, at + 1, "127.0.0.1", "GET", "/hare", limit == EdgeEvent.Limit.REJECTED ? 429 : 200, 0,
                limit, EdgeEvent.Cache.HIT, "", 0, "");
    }

    /** 100 at once: burst 4 passes 5, refuses 95; the product logged the same. */
    static List<EdgeEvent> burst(int passed) {
        List<EdgeEvent> events = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            events.add(event(T0, i < passed ? EdgeEvent.Limit.PASSED : EdgeEvent.Limit.REJECTED));
        }
        return events;
    }

    @Test
    void aProductThatDecidesAsItsModelAgrees() {
        List<EdgeEvent> events = burst(5);
        Collections.reverse(events);
        events.add(event(T0 + 5000, EdgeEvent.Limit.NONE));
        Verify.Result r = Verify.compare("nginx", events, TEN_BURST_FOUR);
        // A request no limit decided is left out; the order the log wrote them in does not matter, only their times.
        assertThat(r.requests()).isEqualTo(100);
        assertThat(r.refused()).isEqualTo(95);
        assertThat(r.modelRefused()).isEqualTo(95);
        assertThat(r.disagreeing()).isZero();
        assertThat(r.agrees()).isTrue();
        assertThat(r.words()).isEqualTo("nginx: 100 requests, 95 refused by nginx, 95 by its model; 0 decided otherwise"
                + " by the model (at most 3 tolerated): agrees");
    }

    /** Three more passed than the model allows: within max(3, 2 % of 100); four are not. */
    @Test
    void theToleranceIsTwoPercentAndAtLeastThree() {
        assertThat(Verify.compare("p", burst(8), TEN_BURST_FOUR).agrees()).isTrue();
        Verify.Result over = Verify.compare("p", burst(9), TEN_BURST_FOUR);
        assertThat(over.disagreeing()).isEqualTo(4);
        assertThat(over.agrees()).isFalse();
        assertThat(over.words()).endsWith("DISAGREES");
    }

    @Test
    void aProductThatLoggedNothingDoesNotAgree() {
        assertThat(Verify.compare("p", List.of(), TEN_BURST_FOUR).agrees()).isFalse();
    }
}
