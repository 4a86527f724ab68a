package dev.ratecache.suite.kinds.edges;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EventFile;
import dev.ratecache.suite.report.Check;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-client promise at the edge, judged on the front tier's events of any product. */
class EdgePromiseTest {
    private static final long T0 = 1_795_752_000_000L;
    /** Rate 2 + burst 3. */
    private static final int LIMIT = 5;

    @TempDir
    Path dir;

    private static EdgeEvent event(String key, long atMs, EdgeEvent.Limit limit) {
        return new EdgeEvent(T0 + atMs, T0 + atMs + 5, key, "GET", "/hare", limit == EdgeEvent.Limit.REJECTED ? 429 : 200,
                10, limit, EdgeEvent.Cache.HIT, "", 0, "");
    }

    private Path run(String name, List<EdgeEvent> front) throws Exception {
        Path run = dir.resolve(name);
        EventFile.write(front, run.resolve("events/front.jsonl"));
        return run;
    }

    private static Check check() {
        return new Check(EdgePromise.text("edges/haproxy.flood-2x-one", LIMIT), "edges/haproxy.flood-2x-one", null, "<=",
                LIMIT);
    }

    /** What nginx's leaky bucket admits from one client: burst + 1 at once, then one per 1/rate. */
    private static List<EdgeEvent> leakyBucket() {
        List<EdgeEvent> events = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            events.add(event("10.0.0.1", 0, EdgeEvent.Limit.PASSED));
        }
        for (long t = 500; t <= 3000; t += 500) {
            events.add(event("10.0.0.1", t, EdgeEvent.Limit.PASSED));
            events.add(event("10.0.0.1", t + 1, EdgeEvent.Limit.REJECTED));
        }
        return events;
    }

    @Test
    void rateAndBurstInAnySecondKeepThePromiseAndRejectionsNeverCount() throws Exception {
        Check.Outcome o = EdgePromise.evaluate(check(), List.of(run("run-1", leakyBucket())), LIMIT);

        assertThat(o.passed()).isTrue();
        assertThat(o.detail()).startsWith("held; busiest, client 10.0.0.1: 5 admitted in the second from");
    }

    @Test
    void oneMoreThanRateAndBurstInASecondBreaksItNamingTheClientAndTheRun() throws Exception {
        List<EdgeEvent> slidingWindow = new ArrayList<>(leakyBucket());
        slidingWindow.add(event("10.0.0.2", 100, EdgeEvent.Limit.PASSED));
        for (int i = 0; i < 6; i++) {
            slidingWindow.add(event("10.0.0.9", 2000 + i * 150, EdgeEvent.Limit.PASSED));
        }

        Check.Outcome o = EdgePromise.evaluate(check(), List.of(run("run-1", leakyBucket()), run("run-2", slidingWindow)),
                LIMIT);

        assertThat(o.passed()).isFalse();
        assertThat(o.detail()).startsWith("broken by client 10.0.0.9: 6 admitted in the second from").contains("in run 2");
    }

    @Test
    void aBrokenPromiseSaysWhatInTheProductsCodeExplainsItAndAKeptOneDoesNot() {
        Check.Outcome broken = new Check.Outcome(check(), false, "broken by client 127.0.0.1: 301 admitted");
        Check.Outcome kept = new Check.Outcome(check(), true, "held");
        java.util.Optional<String> traefiks = dev.ratecache.suite.edge.EdgeProduct.TRAEFIK.declared().promiseCaveat();

        assertThat(EdgePromise.withCaveat(broken, traefiks).detail())
                .startsWith("broken by client 127.0.0.1: 301 admitted; Traefik's in-memory RateLimit");
        assertThat(EdgePromise.withCaveat(kept, traefiks).detail()).isEqualTo("held");
        assertThat(dev.ratecache.suite.edge.EdgeProduct.HAPROXY.declared().promiseCaveat()).isEmpty();
    }

    @Test
    void aSecondIsTheLogsMillisecondShortAtEachEnd() throws Exception {
        List<EdgeEvent> events = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            events.add(event("10.0.0.1", 0, EdgeEvent.Limit.PASSED));
        }
        // 998 ms after the burst: the next window's, not the burst's.
        events.add(event("10.0.0.1", 998, EdgeEvent.Limit.PASSED));

        assertThat(EdgePromise.evaluate(check(), List.of(run("run-1", events)), LIMIT).passed()).isTrue();
    }

    @Test
    void aFrontThatAdmittedNothingCannotBeJudged() throws Exception {
        Check.Outcome o = EdgePromise.evaluate(check(), List.of(run("run-1",
                List.of(event("10.0.0.1", 0, EdgeEvent.Limit.REJECTED)))), LIMIT);

        assertThat(o.passed()).isFalse();
        assertThat(o.detail()).isEqualTo("the front admitted no request: nothing to judge the promise on");
    }

    @Test
    void theBurstSentenceSaysTheFirstSecondTheRateAfterAndTheLongestRejection() {
        List<EdgeEvent> events = new ArrayList<>(leakyBucket());
        for (long t = 3100; t < 3400; t += 50) {
            events.add(event("10.0.0.1", t, EdgeEvent.Limit.REJECTED));
        }
        events.add(event("10.0.0.1", 3500, EdgeEvent.Limit.PASSED));
        events.add(event("10.0.0.3", 0, EdgeEvent.Limit.PASSED));

        EdgeBurst b = EdgeBurst.of(events);

        assertThat(b).isEqualTo(new EdgeBurst(5, 6 * 1000.0 / 2500, 349));
        assertThat(b.sentence(dev.ratecache.suite.edge.EdgeProduct.HAPROXY, 2, 2, 3)).isEqualTo("HAProxy's sliding-window"
                + " counter (http_req_rate), flooded at 2x the rate from one address, admitted 5 requests in the first second"
                + " (2.5x the rate of 2 r/s with burst 3), then 2 a second (1.20x the rate); its longest stretch of"
                + " rejections lasted 349 ms");
    }
}
