package dev.ratecache.suite.kinds.edges;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.edge.EdgeProduct;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A flood from many addresses refused at the back although each client kept far under its own limit. */
class EdgeLockoutTest {
    private static final long T0 = 1_795_955_895_937L;

    private static EdgeEvent front(String key, long atMs, EdgeEvent.Cache cache, int status) {
        return new EdgeEvent(T0 + atMs, T0 + atMs + 5, key, "GET", "/hare", status, 10, EdgeEvent.Limit.PASSED, cache,
                cache == EdgeEvent.Cache.HIT ? "" : String.valueOf(status), 5, "");
    }

    private static EdgeEvent back(long atMs, EdgeEvent.Limit limit, int rejectStatus) {
        return new EdgeEvent(T0 + atMs, T0 + atMs + 5, "origin", "GET", "/hare", limit == EdgeEvent.Limit.REJECTED
                ? rejectStatus : 200, 10, limit, EdgeEvent.Cache.NONE, limit == EdgeEvent.Limit.REJECTED ? "" : "200", 5, "");
    }

    /**
     * 100 clients, each once every 500 ms for 2 s: 5 misses answered, hits until 1000 ms, then every
     * request a miss the back refuses with {@code rejectStatus}.
     */
    private static List<List<EdgeEvent>> lockedOut(int rejectStatus) {
        List<EdgeEvent> front = new ArrayList<>();
        List<EdgeEvent> back = new ArrayList<>();
        for (int c = 0; c < 100; c++) {
            for (long at = c; at < 2000; at += 500) {
                String key = "127.16.0." + c;
                if (at < 5) {
                    front.add(front(key, at, EdgeEvent.Cache.MISS, 200));
                    back.add(back(at, EdgeEvent.Limit.PASSED, rejectStatus));
                } else if (at < 1000) {
                    front.add(front(key, at, EdgeEvent.Cache.HIT, 200));
                } else {
                    front.add(front(key, at, EdgeEvent.Cache.MISS, rejectStatus));
                    back.add(back(at, EdgeEvent.Limit.REJECTED, rejectStatus));
                }
            }
        }
        return List.of(front, back);
    }

    @Test
    void aFloodFromManyAddressesRefusedAtTheBackIsToldWithItsMissesAndWhenTheCacheWentEmpty() {
        List<List<EdgeEvent>> events = lockedOut(429);

        EdgeLockout l = EdgeLockout.of(events.get(0), events.get(1), 429);

        assertThat(l).isEqualTo(new EdgeLockout(400, 200, 0, 2, 205, 200, 1000));
        assertThat(l.sentence(EdgeProduct.HAPROXY, 100, 200)).isEqualTo("no client came near its own limit (the busiest"
                + " was admitted 2 in a second, of rate + burst 300), yet 50.0 % of the 400 requests were refused: the edge"
                + " cache sent 205 misses on to the back, whose limit, counting every client together, refused 200 of them."
                + " HAProxy's cache cannot send one miss of many to the origin, so every miss that arrives while a fetch is"
                + " under way goes on to the back; its sliding-window counter (http_req_rate) counts the requests it denies,"
                + " so while misses come faster than the back's rate its window never empties, and no answer comes back to"
                + " be stored. The cache answered nothing from 1000 ms to the flood's end.");
    }

    @Test
    void aProductWithACacheLockIsToldTheFiguresWithoutTheLockOutsCause() {
        List<List<EdgeEvent>> events = lockedOut(429);

        String sentence = EdgeLockout.of(events.get(0), events.get(1), 429).sentence(EdgeProduct.NGINX, 100, 200);

        assertThat(sentence).contains("refused 200 of them.").doesNotContain("cannot");
    }

    @Test
    void aTokenBucketAtTheBackIsNotSaidToCountWhatItDenies() {
        List<List<EdgeEvent>> events = lockedOut(429);

        String sentence = EdgeLockout.of(events.get(0), events.get(1), 429).sentence(EdgeProduct.ENVOY, 100, 200);

        assertThat(sentence).contains("Envoy's cache cannot send one miss of many to the origin, so every miss that"
                + " arrives while a fetch is under way goes on to the back.").doesNotContain("counts the requests it denies");
    }

    @Test
    void aProductWithoutACacheIsToldThatEveryAdmittedRequestWentOnToTheBack() {
        List<List<EdgeEvent>> events = lockedOut(429);

        String sentence = EdgeLockout.of(events.get(0), events.get(1), 429).sentence(EdgeProduct.TRAEFIK, 100, 200);

        assertThat(sentence).contains("refused: Traefik has no cache, so the 400 requests its front admitted went on to"
                + " the back, whose limit, counting every client together, refused 200 of them.")
                .doesNotContain("misses").doesNotContain("The cache answered nothing");
    }

    @Test
    void aBackThatRefusedLittleOrAFrontThatDidTheRefusingIsNoLockOut() {
        List<EdgeEvent> front = new ArrayList<>();
        List<EdgeEvent> back = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            front.add(front("127.16.0." + i, i, EdgeEvent.Cache.MISS, 200));
            back.add(back(i, i < 95 ? EdgeEvent.Limit.PASSED : EdgeEvent.Limit.REJECTED, 429));
        }
        assertThat(EdgeLockout.of(front, back, 429)).isNull();

        List<EdgeEvent> refusedAtTheFront = new ArrayList<>(lockedOut(429).get(0));
        for (int i = 0; i < 100; i++) {
            refusedAtTheFront.add(new EdgeEvent(T0 + 1500 + i, T0 + 1500 + i, "127.0.0.1", "GET", "/hare", 429, 0,
                    EdgeEvent.Limit.REJECTED, EdgeEvent.Cache.NONE, "", 0, ""));
        }
        assertThat(EdgeLockout.of(refusedAtTheFront, lockedOut(429).get(1), 429)).isNull();
    }

    /**
     * With --reject-status 503 the tiers refuse with 503: those are the refusals, and a 429 (which
     * then no limit of the run sends) is not one.
     */
    @Test
    void theRefusalsAreTheAnswersWithTheRunsRejectionStatus() {
        List<List<EdgeEvent>> events = lockedOut(503);

        assertThat(EdgeLockout.of(events.get(0), events.get(1), 503))
                .isEqualTo(new EdgeLockout(400, 200, 0, 2, 205, 200, 1000));

        List<List<EdgeEvent>> other = lockedOut(429);
        assertThat(EdgeLockout.of(other.get(0), other.get(1), 503).refused()).isZero();
    }
}
