package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginCounters;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every edge product's tiers log, read as events: one stack per class, sent known requests
 * (a MISS and its HIT, a request with Authorization, a burst over the front's limit from one
 * address), then closed, and its events read at once, as the suite reads them after a cell. Each
 * test compares them with what the clients saw on the wire and what the origin counted. The
 * front's limit, 1 a second with burst {@value #FRONT_BURST}, is one no busy machine refills
 * within the burst, which is sent at once.
 */
@ExtendWith(SharedOrigin.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EdgeEventsBehaviours {
    static final int FRONT_BURST = 4;
    private static final int BURST = 2 * (FRONT_BURST + 1);
    /** The origin's /hare answers after this long (appserver's application.yml), less a millisecond of rounding. */
    private static final long HARE_DELAY_MS = 99;

    /** A request as a client sent it and the answer it read. */
    record Sent(String source, String path, Http.Raw answer) {}

    Edge.Running stack;
    StackPorts ports;
    OriginServer origin;
    final List<Sent> sent = Collections.synchronizedList(new ArrayList<>());
    long trafficStartMs;
    long trafficEndMs;
    List<EdgeEvent> front;
    List<EdgeEvent> back;
    OriginCounters reached;

    /** The product under test. */
    abstract Edge edge();

    /** The first three parts of the addresses this class sends from. */
    abstract String subnet();

    /** Requests of the product's own, sent after the shared ones and before the stack closes. */
    void moreTraffic() throws Exception {}

    @BeforeAll
    void sendThenClose(OriginServer shared) throws Exception {
        origin = shared;
        ports = StackPorts.free().origin(origin.port(), origin.managementPort());
        StackSwitches switches = new StackSwitches().frontRate(1).frontBurst(FRONT_BURST)
                .frontMode(LimitMode.NODELAY).backMode(LimitMode.NODELAY);
        stack = edge().start(switches.spec(ports), TestDirs.fresh(getClass(), "stack"));
        trafficStartMs = System.currentTimeMillis();

        String repeated = Stacks.fresh("hare");
        get(subnet() + ".1", repeated);
        get(subnet() + ".1", repeated);
        get(subnet() + ".2", Stacks.fresh("hare"), "Authorization: Bearer one");
        atOnce(IntStream.range(0, BURST).<Callable<Sent>>mapToObj(i -> () -> get(subnet() + ".3", Stacks.fresh("hare")))
                .toList());
        moreTraffic();

        trafficEndMs = System.currentTimeMillis();
        reached = origin.counters();
        stack.close();
        front = stack.frontEvents();
        back = stack.backEvents();
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    Sent get(String source, String path, String... headers) {
        Sent s = new Sent(source, path, Http.raw(source, ports.front(), "GET", path, headers));
        sent.add(s);
        return s;
    }

    /** Every request at once, each on a thread of its own. */
    static <T> List<T> atOnce(List<Callable<T>> requests) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(requests.size());
        try {
            List<T> all = new ArrayList<>();
            for (Future<T> a : pool.invokeAll(requests)) {
                all.add(a.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    /** What the tier's cache did, as the client read it in X-Cache-Status; NONE where the cache was not asked. */
    static EdgeEvent.Cache cacheSeen(Http.Raw answer) {
        String status = answer.header("X-Cache-Status");
        return status == null ? EdgeEvent.Cache.NONE : EdgeEvent.Cache.valueOf(status);
    }

    @Test
    void everyRequestSentIsOneEventOfTheFrontRightAfterClose() {
        assertThat(front).extracting(EdgeEvent::key, EdgeEvent::method, EdgeEvent::uri)
                .containsExactlyInAnyOrderElementsOf(sent.stream().map(s -> tuple(s.source(), "GET", s.path())).toList());
    }

    @Test
    void eachEventHasTheStatusAndCacheOutcomeTheClientSaw() {
        assertThat(front).extracting(EdgeEvent::uri, EdgeEvent::status, EdgeEvent::cache)
                .containsExactlyInAnyOrderElementsOf(sent.stream()
                        .map(s -> tuple(s.path(), s.answer().status(), cacheSeen(s.answer()))).toList());
        assertThat(front).extracting(EdgeEvent::cache)
                .contains(EdgeEvent.Cache.MISS, EdgeEvent.Cache.HIT, EdgeEvent.Cache.BYPASS);
    }

    @Test
    void eachEventCountsTheBodyTheClientRead() {
        // Answers to one URL with one cache outcome carry the same body.
        Map<List<Object>, Http.Raw> answers = new HashMap<>();
        sent.forEach(s -> answers.put(List.of(s.path(), cacheSeen(s.answer())), s.answer()));

        assertThat(front).allSatisfy(e -> assertBody(e, answers.get(List.of(e.uri(), e.cache()))));
    }

    /** That {@code event} counted the body of {@code answer}. */
    void assertBody(EdgeEvent event, Http.Raw answer) {
        assertThat(event.bytes()).isEqualTo(bodyBytes(answer));
    }

    static long bodyBytes(Http.Raw answer) {
        return answer.body().getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void aRejectionByTheLimitIsRejectedWith429AndNoUpstreamAndEveryOtherRequestPassed() {
        assertThat(front).filteredOn(e -> e.status() == 429).isNotEmpty().allSatisfy(e -> {
            assertThat(e.limit()).isEqualTo(EdgeEvent.Limit.REJECTED);
            assertThat(e.key()).isEqualTo(subnet() + ".3");
            assertThat(e.wentUpstream()).isFalse();
            assertThat(e.upstreamMs()).isZero();
        });
        assertThat(front).filteredOn(e -> e.status() != 429)
                .allSatisfy(e -> assertThat(e.limit()).isEqualTo(EdgeEvent.Limit.PASSED));
    }

    @Test
    void eachRequestArrivedNoLaterThanItEndedAndWithinTheTraffic() {
        assertThat(front).allSatisfy(e -> {
            assertThat(e.arrivalMs()).isLessThanOrEqualTo(e.endMs());
            // The tiers log whole milliseconds, the clock read here too: one either side.
            assertThat(e.arrivalMs()).isGreaterThanOrEqualTo(trafficStartMs - 1);
            assertThat(e.endMs()).isLessThanOrEqualTo(trafficEndMs + 1);
        });
    }

    @Test
    void onlyTheFrontsMissesAndBypassesWentUpstream() {
        assertThat(front).filteredOn(EdgeEvent::wentUpstream).extracting(EdgeEvent::cache)
                .isNotEmpty().allMatch(c -> c == EdgeEvent.Cache.MISS || c == EdgeEvent.Cache.BYPASS);
        assertThat(front).filteredOn(e -> e.cache() == EdgeEvent.Cache.MISS || e.cache() == EdgeEvent.Cache.BYPASS)
                .allSatisfy(e -> {
                    assertThat(e.upstreamStatus()).isEqualTo(String.valueOf(e.status()));
                    assertThat(e.upstreamArrivalMs()).isBetween(e.arrivalMs(), e.endMs());
                });
        assertThat(front).filteredOn(EdgeEvent::wentUpstream).filteredOn(e -> e.uri().startsWith("/hare?"))
                .allSatisfy(e -> assertThat(e.upstreamMs()).isGreaterThanOrEqualTo(HARE_DELAY_MS));
    }

    @Test
    void theBackTiersEventsAreExactlyTheRequestsThatReachedTheOrigin() {
        assertThat((long) back.size()).isEqualTo(reached.total().requests());
        assertThat(back).filteredOn(e -> e.uri().startsWith("/hare?")).hasSize((int) reached.requests("hare"))
                .allSatisfy(e -> assertThat(e.upstreamMs()).isGreaterThanOrEqualTo(HARE_DELAY_MS));
        assertThat(back).allSatisfy(e -> {
            // A refresh may ask with the stored validators, and the origin answer 304.
            assertThat(e.upstreamStatus()).isEqualTo(String.valueOf(e.status())).isIn("200", "304");
            assertThat(e.limit()).isEqualTo(EdgeEvent.Limit.PASSED);
            assertThat(e.cache()).isEqualTo(EdgeEvent.Cache.NONE);
        });
    }

    @Test
    void theBackTierKeysEachRequestByTheAddressThatSentItToTheFront() {
        List<Tuple> sentBy = sent.stream().map(s -> tuple(s.source(), s.path())).toList();

        assertThat(back).extracting(EdgeEvent::key, EdgeEvent::uri).isSubsetOf(sentBy)
                .containsAll(front.stream().filter(EdgeEvent::wentUpstream).map(e -> tuple(e.key(), e.uri())).toList());
    }
}
