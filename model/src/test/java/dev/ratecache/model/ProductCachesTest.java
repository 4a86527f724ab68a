package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulation with HAProxy's and Varnish's edge caches, against nginx's where they differ. */
class ProductCachesTest {

    static final EdgeCacheSpec HAPROXY = EdgeCacheSpec.haproxy(86_400);
    static final EdgeCacheSpec VARNISH = EdgeCacheSpec.varnish();
    static final EdgeCacheSpec ENVOY = EdgeCacheSpec.envoy();

    static SimulationResult run(EdgeCacheSpec cache, OriginSpec origin, List<Arrival> arrivals) {
        return Simulation.run(new SimulationSpec(null, cache, null, origin, 0, 0), new Workload.Open(arrivals));
    }

    static OriginSpec origin(String path, long serviceMs, Freshness freshness) {
        return new OriginSpec(8, Map.of(path, new PathSpec(serviceMs, freshness)));
    }

    static List<Arrival> at(String path, long... times) {
        List<Arrival> arrivals = new ArrayList<>();
        for (long t : times) {
            arrivals.add(new Arrival(t, "c", path));
        }
        return arrivals;
    }

    @Test
    void concurrentMissesOfOneUrlEachReachTheOriginUnderHaproxyButOnceUnderVarnish() {
        // Five at once for /tortoise (2 s): HAProxy has no lock (haproxy#214), Varnish coalesces
        // them on the one fetch and answers the four that waited, as HITs, when it arrives.
        List<Arrival> five = at("/tortoise", 0, 0, 0, 0, 0);

        SimulationResult haproxy = run(HAPROXY, SimulationTest.ORIGIN, five);
        assertThat(haproxy.aggregates().originRequests()).isEqualTo(5);
        assertThat(haproxy.requests()).extracting(RequestOutcome::cache).containsOnly(CacheStatus.MISS);

        SimulationResult varnish = run(VARNISH, SimulationTest.ORIGIN, five);
        assertThat(varnish.aggregates().originRequests()).isEqualTo(1);
        assertThat(varnish.requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.HIT, CacheStatus.HIT, CacheStatus.HIT, CacheStatus.HIT);
        assertThat(varnish.requests()).extracting(RequestOutcome::endMs).containsOnly(2000L);
    }

    @Test
    void varnishsWaitersHaveNoTimeout() {
        // An 8 s fetch: nginx's waiters give up after proxy_cache_lock_timeout (5 s) and fetch
        // themselves; Varnish's wait the 8 s for the one fetch.
        OriginSpec slow = origin("/slow", 8000, Freshness.maxAge(60));
        List<Arrival> three = at("/slow", 0, 0, 0);

        SimulationResult varnish = run(VARNISH, slow, three);
        assertThat(varnish.aggregates().originRequests()).isEqualTo(1);
        assertThat(varnish.requests()).extracting(RequestOutcome::endMs).containsExactly(8000L, 8000L, 8000L);
        assertThat(run(SuiteFixture.edge(), slow, three).aggregates().originRequests()).isEqualTo(3);
    }

    @Test
    void anExpiredHareUnderHaproxyIsAMissThatFetchesWhateverTheOriginAllows() {
        // /hare fresh 3 s with stale-while-revalidate 30: at 5 s nginx answers STALE and refreshes
        // in the background; HAProxy serves nothing stale and goes to the origin, a MISS.
        OriginSpec hare = origin("/hare", 100, new Freshness(3, 30));
        List<Arrival> times = at("/hare", 0, 1000, 5000, 5050);

        SimulationResult haproxy = run(HAPROXY, hare, times);
        assertThat(haproxy.requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.HIT, CacheStatus.MISS, CacheStatus.MISS);
        assertThat(haproxy.requests()).extracting(RequestOutcome::reachedOrigin).containsExactly(true, false, true, true);
        assertThat(haproxy.requests().get(2).endMs()).isEqualTo(5100);

        assertThat(run(SuiteFixture.edge(), hare, times).requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.HIT, CacheStatus.STALE, CacheStatus.UPDATING);
    }

    @Test
    void haproxyKeepsAnEntryFreshUntilTheSecondItsMaxAgeEndsIn() {
        // max-age=1, stored at 100 ms (second 0): expire = 0 + 1, fresh while expire > the second,
        // so through second 0 only; nginx (valid_sec >= the second) keeps it through second 1.
        OriginSpec p = origin("/p", 100, Freshness.maxAge(1));
        List<Arrival> times = at("/p", 0, 999, 1000);

        assertThat(run(HAPROXY, p, times).requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.HIT, CacheStatus.MISS);
        assertThat(run(SuiteFixture.edge(), p, times).requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.HIT, CacheStatus.HIT);
    }

    @Test
    void haproxyCapsFreshnessAtItsCacheSectionsMaxAge() {
        // The origin allows 60 s; a cache section with max-age 2 keeps it two seconds.
        OriginSpec p = origin("/p", 100, Freshness.maxAge(60));
        List<Arrival> times = at("/p", 0, 1999, 2000);

        assertThat(run(EdgeCacheSpec.haproxy(2), p, times).requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.HIT, CacheStatus.MISS);
        assertThat(run(HAPROXY, p, times).requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.HIT, CacheStatus.HIT);
    }

    @Test
    void varnishServesGraceFromStaleWhileRevalidateWithOneBackgroundFetch() {
        // max-age=1, stale-while-revalidate=30, 100 ms: stored at 100, fresh to 1100 to the
        // millisecond (Varnish's time is not whole seconds). At 1100 it is in grace: STALE, and one
        // background fetch, answered at 1200; 1150 is STALE too (Varnish's cache.vcl has no
        // UPDATING) and fetches nothing; 1250 has the refreshed object.
        OriginSpec p = origin("/p", 100, new Freshness(1, 30));
        SimulationResult r = run(VARNISH, p, at("/p", 0, 1099, 1100, 1150, 1250));

        assertThat(r.requests()).extracting(RequestOutcome::cache).containsExactly(CacheStatus.MISS, CacheStatus.HIT,
                CacheStatus.STALE, CacheStatus.STALE, CacheStatus.HIT);
        assertThat(r.aggregates().originRequests()).isEqualTo(2);
        assertThat(r.backgroundOriginRequests()).isEqualTo(1);
        assertThat(r.requests()).extracting(RequestOutcome::endMs).containsExactly(100L, 1099L, 1100L, 1150L, 1250L);
    }

    @Test
    void varnishBeyondGraceIsAPlainMiss() {
        // Grace 2 s: stored at 100, fresh to 1100, in grace to 3100.
        OriginSpec p = origin("/p", 100, new Freshness(1, 2));
        assertThat(run(VARNISH, p, at("/p", 0, 3100)).requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.MISS);
    }

    @Test
    void varnishKeepsAnObjectInGraceForStaleIfErrorAsGraceVclMapsIt() {
        // stale-if-error=600 and no stale-while-revalidate: grace.vcl gives the object 600 s of
        // grace, so the expired object is answered STALE even with the origin up; nginx uses
        // stale-if-error only on an error and fetches (EXPIRED). Without either, Varnish's grace is 0.
        List<Arrival> times = at("/p", 0, 2500);
        assertThat(run(VARNISH, origin("/p", 100, new Freshness(1, 0, 600)), times).requests())
                .extracting(RequestOutcome::cache).containsExactly(CacheStatus.MISS, CacheStatus.STALE);
        assertThat(run(SuiteFixture.edge(), origin("/p", 100, new Freshness(1, 0, 600)), times).requests())
                .extracting(RequestOutcome::cache).containsExactly(CacheStatus.MISS, CacheStatus.EXPIRED);
        assertThat(run(VARNISH, origin("/p", 100, Freshness.maxAge(1)), times).requests())
                .extracting(RequestOutcome::cache).containsExactly(CacheStatus.MISS, CacheStatus.MISS);
    }

    @Test
    void varnishMakesAMaxAgeZeroAnswerHitForMiss() {
        // A ttl of 0 is uncacheable (built-in vcl_beresp_stale): after the first answer (at 100) the
        // two requests of 200 each fetch instead of one waiting on the other's fetch.
        OriginSpec p = origin("/p", 100, Freshness.maxAge(0));
        SimulationResult r = run(VARNISH, p, at("/p", 0, 200, 200));

        assertThat(r.aggregates().originRequests()).isEqualTo(3);
        assertThat(r.requests()).extracting(RequestOutcome::endMs).containsExactly(100L, 300L, 300L);
    }

    /** A back of one request a second (vsthrottle, 1 token per 1000 ms) with a 1 ms hop each way. */
    static SimulationSpec behindOnePerSecond(EdgeCacheSpec cache, int rejectStatus, OriginSpec origin) {
        return new SimulationSpec(null, cache, LimitSpec.vsthrottle(1, 0, rejectStatus), origin, 1, 0);
    }

    @Test
    void aRefusedFetchMakesVarnishsObjectHitForMissUntilA200ReplacesIt() {
        // /t (2 s) takes the back's token at 1. /p's fetch at 10 is refused (429): the request that
        // came at 10 too, waiting on it, is woken and fetches itself, refused; 20 does not wait, the
        // hit-for-miss object sends it straight on. At 1100 the back has one token again, and the
        // two requests of 1100 each fetch (neither waits on the other): one 200, one 429. The 200
        // replaces the hit-for-miss object: 1300 is a HIT.
        Map<String, PathSpec> paths = Map.of("/t", new PathSpec(2000, Freshness.maxAge(60)),
                "/p", new PathSpec(100, Freshness.maxAge(60)));
        List<Arrival> arrivals = List.of(new Arrival(0, "c", "/t"), new Arrival(10, "c", "/p"),
                new Arrival(10, "c", "/p"), new Arrival(20, "c", "/p"), new Arrival(1100, "c", "/p"),
                new Arrival(1100, "c", "/p"), new Arrival(1300, "c", "/p"));
        SimulationResult r = Simulation.run(behindOnePerSecond(VARNISH, 429, new OriginSpec(8, paths)),
                new Workload.Open(arrivals));

        assertThat(r.requests()).extracting(RequestOutcome::cache).containsExactly(CacheStatus.MISS, CacheStatus.MISS,
                CacheStatus.MISS, CacheStatus.MISS, CacheStatus.MISS, CacheStatus.MISS, CacheStatus.HIT);
        assertThat(r.requests()).extracting(RequestOutcome::status).containsExactly(200, 429, 429, 429, 200, 429, 200);
        // The waiter was answered when the fetch it waited on was: 10 + a hop to the back and back.
        assertThat(r.requests().get(2).endMs()).isEqualTo(14);
    }

    @Test
    void aBackgroundFetchRefusedWith5xxLeavesVarnishsStaleObjectInGrace() {
        // /p: max-age=1, swr=30, stored at 4 (a hop each way). /t takes the back's token at 1151,
        // so the refresh that 1200 starts, and the one after it, are refused. A 503 is abandoned
        // (grace.vcl): 1400 is STALE again and starts another refresh. A 429 becomes hit-for-miss:
        // 1400 fetches itself, a MISS refused in turn.
        OriginSpec origin = new OriginSpec(8, Map.of("/p", new PathSpec(0, new Freshness(1, 30)),
                "/t", new PathSpec(0, Freshness.maxAge(60))));
        List<Arrival> times = List.of(new Arrival(0, "c", "/p"), new Arrival(1150, "c", "/t"),
                new Arrival(1200, "c", "/p"), new Arrival(1400, "c", "/p"));

        SimulationResult abandoned = Simulation.run(behindOnePerSecond(VARNISH, 503, origin), new Workload.Open(times));
        assertThat(abandoned.requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.MISS, CacheStatus.STALE, CacheStatus.STALE);
        assertThat(abandoned.requests()).extracting(RequestOutcome::status).containsOnly(200);

        SimulationResult hitForMiss = Simulation.run(behindOnePerSecond(VARNISH, 429, origin), new Workload.Open(times));
        assertThat(hitForMiss.requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.MISS, CacheStatus.STALE, CacheStatus.MISS);
        assertThat(hitForMiss.requests()).extracting(RequestOutcome::status).containsExactly(200, 200, 200, 429);
    }

    @Test
    void envoysCacheHasNoLockAndKeepsAnEntryUntilItsAgeInWholeSecondsPassesMaxAge() {
        // Five at once for /tortoise (2 s): no lock, each reaches the origin.
        SimulationResult five = run(ENVOY, SimulationTest.ORIGIN, at("/tortoise", 0, 0, 0, 0, 0));
        assertThat(five.aggregates().originRequests()).isEqualTo(5);

        // max-age=1, stored at 1000 ms (the answer after 1 s): age 1 s at 2999 ms is not past it, at 3000 it is 2.
        OriginSpec oneSecond = origin("/p", 1000, new Freshness(1, 0));
        SimulationResult hits = run(ENVOY, oneSecond, at("/p", 0, 2999, 3000));
        assertThat(hits.requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.HIT, CacheStatus.MISS);
    }

    @Test
    void envoysEntryAgesFromTheWholeSecondItsDateNamesNotFromTheStore() {
        // Stored at 1900 ms, dated second 1: age 1 s until 2999 ms, 2 s (past max-age=1) from 3000, not 3900.
        OriginSpec lateInItsSecond = origin("/p", 1900, new Freshness(1, 0));
        SimulationResult hits = run(ENVOY, lateInItsSecond, at("/p", 0, 2999, 3000));
        assertThat(hits.requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.HIT, CacheStatus.MISS);
    }
}
