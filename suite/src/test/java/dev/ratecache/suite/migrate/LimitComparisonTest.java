package dev.ratecache.suite.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.model.Rate;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two limits' models on traffic small enough to check by hand: nginx's limit_req at 10 r/s burst 20
 * against the sliding window and the token bucket the other products render for it.
 */
class LimitComparisonTest {
    static final long T0 = 1_000_000;
    static final LimitSpec NGINX_NODELAY = LimitReqSpec.nodelay(Rate.perSecond(10), 20).withRejectStatus(429);

    /** 21 at once (what burst 20 passes from idle), then one every 100 ms for two seconds: exactly the rate. */
    static Traffic burstThenRate() {
        List<Traffic.Request> requests = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            requests.add(new Traffic.Request(T0, "10.0.0.9"));
        }
        for (int i = 1; i <= 20; i++) {
            requests.add(new Traffic.Request(T0 + i * 100L, "10.0.0.9"));
        }
        return new Traffic("t", "a burst then the rate", requests, List.of(new Traffic.Phase("the burst", T0)), false);
    }

    /**
     * nginx's bucket is full after the burst and drains one request every 100 ms, so each request at
     * the rate fits (excess 20000 - 10 * 100 + 1000 = 20000, not above the burst). The sliding window
     * of 21 requests over 2100 ms holds the burst's 21 already: each of the 20 is refused, and counted.
     */
    @Test
    void aSlidingWindowRefusesTheRateAfterABurstThatLimitReqPasses() {
        LimitComparison c = LimitComparison.of(burstThenRate(), NGINX_NODELAY, LimitSpec.haproxy(10, 20, 429));
        assertThat(c.requests()).isEqualTo(41);
        assertThat(c.fromAllowed()).isEqualTo(41);
        assertThat(c.toAllowed()).isEqualTo(21);
        assertThat(c.allowedNotBefore()).isZero();
        assertThat(c.refusedNotBefore()).isEqualTo(20);
        assertThat(c.clients()).singleElement().satisfies(d -> {
            assertThat(d.key()).isEqualTo("10.0.0.9");
            // One span: from the first request after the burst to the last, seconds 1 and 2 of the traffic.
            assertThat(d.spans()).containsExactly(new LimitComparison.Span(LimitComparison.Way.REFUSED_NOT_BEFORE,
                    T0 + 100, T0 + 2000, 20));
        });
        assertThat(c.traffic().when(T0 + 100, T0 + 2000)).isEqualTo("in seconds 1 to 3 of the burst");
    }

    /**
     * The same limit queueing: limit_req passes the first at once and delays the other 20 of the burst;
     * vsthrottle's 21 tokens pass all 21 at once. Nothing is refused by one and allowed by the other.
     */
    @Test
    void aQueuedBurstIsPassedAtOnceByATokenBucket() {
        List<Traffic.Request> burst = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            burst.add(new Traffic.Request(T0, "10.0.0.9"));
        }
        Traffic t = new Traffic("b", "a burst", burst, List.of(new Traffic.Phase("the burst", T0)), false);
        LimitComparison c = LimitComparison.of(t, LimitReqSpec.queue(Rate.perSecond(10), 20), LimitSpec.vsthrottle(10, 20, 429));
        assertThat(c.differing()).isZero();
        assertThat(c.delayedBefore()).isEqualTo(20);
        assertThat(c.clients()).isEmpty();
    }

    /**
     * A difference more than a second after the last of its way starts a new span; the other way's
     * between them do not break it (a token bucket's truncated refill allows and refuses by turns).
     */
    @Test
    void spansBreakOnAGapOfTheirOwnWay() {
        List<long[]> d = List.of(new long[] {T0 + 10, 1}, new long[] {T0 + 900, 0}, new long[] {T0 + 1500, 1},
                new long[] {T0 + 3200, 1}, new long[] {T0 + 3300, 0});
        assertThat(LimitComparison.spans(d, T0)).containsExactly(
                new LimitComparison.Span(LimitComparison.Way.REFUSED_NOT_BEFORE, T0 + 10, T0 + 1500, 2),
                new LimitComparison.Span(LimitComparison.Way.ALLOWED_NOT_BEFORE, T0 + 900, T0 + 900, 1),
                new LimitComparison.Span(LimitComparison.Way.REFUSED_NOT_BEFORE, T0 + 3200, T0 + 3200, 1),
                new LimitComparison.Span(LimitComparison.Way.ALLOWED_NOT_BEFORE, T0 + 3300, T0 + 3300, 1));
    }

    /** The generated traffics: one client each, the floods at 2x and 10x the rate for a minute. */
    @Test
    void theGeneratedTrafficsAreWhatTheyNameThemselves() {
        List<Traffic> all = Traffic.generated(10, 20);
        assertThat(all).extracting(Traffic::name).containsExactly("steady", "burst", "flood-2x", "flood-10x");
        assertThat(all.get(0).requests()).hasSize(600);
        assertThat(all.get(2).requests()).hasSize(1200);
        assertThat(all.get(3).requests()).hasSize(6000);
        // The burst: 100 in the warm-up's ten seconds, 42 at once after the idle minute, 100 after.
        assertThat(all.get(1).requests()).hasSize(242);
        assertThat(all.get(1).requests().stream().filter(r -> r.timeMs() == Traffic.START_MS + 70_000)).hasSize(42);
        assertThat(all).allSatisfy(t -> assertThat(t.requests().stream().map(Traffic.Request::key).distinct()).hasSize(1));
    }

    /**
     * The sentence and what differs, through the adapters: the HAProxy edge's nearest config to a
     * queueing limit takes nodelay for both tiers, each for HAProxy's own refusal.
     */
    @Test
    void theSentenceSaysBothWaysAndWhen() {
        StackSwitches given = new StackSwitches().frontRate(10).frontBurst(20).frontMode(dev.ratecache.suite.switches.LimitMode.NODELAY);
        Edge from = EdgeProduct.DEFAULT.declared();
        Edge to = EdgeProduct.HAPROXY.declared();
        Nearest nearest = Nearest.of(to, given, new StackPorts()).orElseThrow();
        assertThat(nearest.changes()).extracting(Nearest.Change::flags).containsExactly("--back-mode nodelay");
        assertThat(nearest.changes().get(0).why()).contains("never queues");
        Migration m = Migration.of(from, to, given, nearest, List.of(burstThenRate()));
        assertThat(m.sentences()).containsExactly("Moving from nginx's 10 r/s burst 20 (nodelay) to HAProxy's nearest,"
                + " on a burst then the rate: no request allowed that nginx refused; 20 requests refused that nginx"
                + " allowed, all in seconds 1 to 3 of the burst (of 41 requests, HAProxy allows 21, nginx 41).");
        assertThat(m.differences()).anySatisfy(l -> assertThat(l).contains("leaky bucket (limit_req)",
                "sliding-window counter (http_req_rate)"));
        assertThat(m.differences()).anySatisfy(l -> assertThat(l).startsWith("HAProxy cannot, where nginx can:")
                .contains("queue or delay"));
    }
}
