package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulation's shape on plans whose answers follow from the rates. */
class SimulationTest {

    static final OriginSpec ORIGIN = SuiteFixture.origin(200);

    @Test
    void stressPlanRejectsMostAndTheOriginSeesOnlyTheBackRate() {
        // The suite's stress shape: 100 users x 10 loops on /hare from one address, front
        // 100 r/s burst 200 queue, back 10 r/s burst 50 queue, no cache.
        SimulationSpec spec = new SimulationSpec(LimitReqSpec.queue(Rate.perSecond(100), 200), null,
                LimitReqSpec.queue(Rate.perSecond(10), 50), ORIGIN, 0, 0);
        SimulationResult r = Simulation.run(spec, Workload.Closed.of(100, 10, 1000, List.of("/hare")));
        Aggregates a = r.aggregates();
        System.out.println("stress: " + a);
        assertThat(a.requests()).isEqualTo(1000);
        double seconds = (r.requests().stream().mapToLong(RequestOutcome::clientEndMs).max().orElseThrow()) / 1000.0;
        // The back admits at most burst+1 at once and then its rate: an upper bound on the origin.
        assertThat(a.originRequests()).isLessThanOrEqualTo((int) (51 + 10 * seconds) + 1);
        // ...and, with requests always waiting, it is kept busy at close to that rate.
        assertThat(a.originRequests()).isGreaterThanOrEqualTo((int) (10 * seconds * 0.8));
        assertThat(a.rejectedPercent()).isBetween(100.0 * (1000 - (51 + 10 * seconds) - 1) / 1000, 99.0);
        assertThat(a.rejectedPercent()).isGreaterThan(50.0);
        // Every rejection is the back's (429/503 from the back tier) or the front's, never both.
        assertThat(r.requests()).allMatch(o -> o.status() == 200 || o.rejected());
    }

    @Test
    void aUsersClientCacheAnswersItsRepeatsUntilTheMaxAgeFromReceiptRunsOut() {
        // Two users, 3 loops of /snail (5 s, fresh 60 s) and /hare (100 ms, fresh 3 s), no limits.
        SimulationSpec spec = new SimulationSpec(null, null, null, ORIGIN, 0, 0);
        Workload cached = new Workload.Closed(2, 3, 0, List.of("/snail", "/hare"), false, 0, 0, true, true);

        SimulationResult r = Simulation.run(spec, cached);

        // Each user fetches /snail and /hare once; the second and third loop take 0 ms from its cache.
        assertThat(r.requests()).hasSize(12);
        assertThat(r.requests()).filteredOn(RequestOutcome::clientCacheHit).hasSize(8)
                .allSatisfy(o -> assertThat(o.latencyMs()).isZero());
        assertThat(r.aggregates().originRequests()).isEqualTo(4);
        // Without the cache, every request goes out.
        Workload plain = new Workload.Closed(2, 3, 0, List.of("/snail", "/hare"), false, 0, 0, true, false);
        assertThat(Simulation.run(spec, plain).aggregates().originRequests()).isEqualTo(12);
    }

    @Test
    void aClientCacheEntryExpiresAfterItsMaxAgeCountedFromReceipt() {
        // One user, /hare (100 ms, fresh 3 s) then /snail (5 s, fresh 60 s), 3 loops: the /hare it
        // received at 0.1 s has expired when it comes back at 5.1 s, so it asks again; the loop after
        // that follows at once (/snail from its cache), while that second /hare is still fresh.
        SimulationSpec spec = new SimulationSpec(null, null, null, ORIGIN, 0, 0);
        Workload cached = new Workload.Closed(1, 3, 0, List.of("/hare", "/snail"), false, 0, 0, true, true);

        SimulationResult r = Simulation.run(spec, cached);

        assertThat(r.requests()).filteredOn(o -> o.path().equals("/hare"))
                .extracting(RequestOutcome::issueMs, RequestOutcome::clientCacheHit)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, false),
                        org.assertj.core.groups.Tuple.tuple(5100L, false), org.assertj.core.groups.Tuple.tuple(5200L, true));
        assertThat(r.requests()).filteredOn(o -> o.path().equals("/snail")).filteredOn(RequestOutcome::clientCacheHit)
                .hasSize(2);
    }

    @Test
    void openFloodAtTwiceTheRateLosesAboutHalf() {
        // One client, 20 r/s for 20 s against 10 r/s burst 5 nodelay: 6 + 10 x 20 of 400 pass.
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            arrivals.add(new Arrival(i * 50L, "c", "/hare"));
        }
        SimulationSpec spec = new SimulationSpec(LimitReqSpec.nodelay(Rate.perSecond(10), 5), null, null, ORIGIN, 0, 0);
        Aggregates a = Simulation.run(spec, new Workload.Open(arrivals)).aggregates();
        System.out.println("flood: " + a);
        assertThat(a.rejectedPercent()).isCloseTo(100.0 * (400 - 206) / 400, within(1.0));
        assertThat(a.rejectedPercent()).isBetween(45.0, 55.0);
    }

    @Test
    void aMeasuredHopDecidesWhenARequestReachesTheBack() {
        // The back admits one a second (burst 0, nodelay). Sent 500 ms apart, the second is rejected
        // at the spec's hop of 0; measured as 600 ms on its way to the back, it arrives a second after
        // the first and passes.
        SimulationSpec spec = new SimulationSpec(null, null, LimitReqSpec.nodelay(Rate.perSecond(1), 0), ORIGIN, 0, 0);
        List<Arrival> specHop = List.of(new Arrival(0, "c", "/hare"), new Arrival(500, "c", "/hare"));
        List<Arrival> measured = List.of(new Arrival(0, "c", "/hare", 0), new Arrival(500, "c", "/hare", 600));

        assertThat(Simulation.run(spec, new Workload.Open(specHop)).requests().get(1).back().status())
                .isEqualTo(LimitReqStatus.REJECTED);
        RequestOutcome late = Simulation.run(spec, new Workload.Open(measured)).requests().get(1);
        assertThat(late.back().status()).isEqualTo(LimitReqStatus.PASSED);
        assertThat(late.reachedOrigin()).isTrue();
    }

    @Test
    void aMeasuredServiceTimeDecidesWhenTheEdgeHasTheRefresh() {
        // /p takes 100 ms and is fresh 1 s, then stale-while-revalidate. Stored at 100 ms (second 0),
        // it is stale at 2500, whose background refresh is done by 2600 at the path's own time, so
        // 2800 is a HIT; measured as 500 ms, the refresh is still out at 2800: UPDATING.
        OriginSpec origin = new OriginSpec(8, java.util.Map.of("/p", new PathSpec(100, new Freshness(1, 30))));
        SimulationSpec spec = new SimulationSpec(null, SuiteFixture.edge(), null, origin, 0, 0);
        List<Arrival> specTimes = List.of(new Arrival(0, "c", "/p"), new Arrival(2500, "c", "/p"),
                new Arrival(2800, "c", "/p"));
        List<Arrival> measured = List.of(specTimes.get(0), specTimes.get(1).withServiceMs(500), specTimes.get(2));

        assertThat(Simulation.run(spec, new Workload.Open(specTimes)).requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.STALE, CacheStatus.HIT);
        assertThat(Simulation.run(spec, new Workload.Open(measured)).requests()).extracting(RequestOutcome::cache)
                .containsExactly(CacheStatus.MISS, CacheStatus.STALE, CacheStatus.UPDATING);
    }

    @Test
    void queuedRequestsReachTheBackAfterTheirFrontDelay() {
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            arrivals.add(new Arrival(0, "c", "/hare"));
        }
        SimulationSpec spec = new SimulationSpec(LimitReqSpec.queue(Rate.perSecond(10), 10), null,
                null, ORIGIN, 1, 0);
        SimulationResult r = Simulation.run(spec, new Workload.Open(arrivals));
        // Delays 0, 100, 200, 300, 400; each then needs 3 hops of 1 ms... 4 hops and 100 ms.
        assertThat(r.requests()).extracting(RequestOutcome::endMs).containsExactly(104L, 204L, 304L, 404L, 504L);
        assertThat(r.requests()).allMatch(RequestOutcome::reachedOrigin);
    }

    @Test
    void anUnlimitedClientIsCountedByNoPerClientLimit() {
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            arrivals.add(new Arrival(0, "limited", "/hare"));
            arrivals.add(new Arrival(0, "allowed", "/hare"));
        }
        SimulationSpec spec = new SimulationSpec(LimitReqSpec.nodelay(Rate.perSecond(1), 1).withRejectStatus(429), null, null, ORIGIN, 0, 0)
                .withUnlimitedClients(java.util.Set.of("allowed"));
        SimulationResult r = Simulation.run(spec, new Workload.Open(arrivals));
        // One at the rate and a burst of one for the limited client; all five for the allowed one.
        assertThat(r.requests()).filteredOn(o -> o.client().equals("limited")).filteredOn(o -> o.status() == 429).hasSize(3);
        assertThat(r.requests()).filteredOn(o -> o.client().equals("allowed")).allMatch(RequestOutcome::reachedOrigin);
    }

    @Test
    void originThreadsQueueFifo() {
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            arrivals.add(new Arrival(i, "c" + i, "/tortoise"));
        }
        SimulationSpec spec = new SimulationSpec(null, null, null, SuiteFixture.origin(2), 0, 0);
        SimulationResult r = Simulation.run(spec, new Workload.Open(arrivals));
        assertThat(r.requests()).extracting(RequestOutcome::endMs).containsExactly(2000L, 2001L, 4000L, 4001L);
    }

    @Test
    void cacheAbsorbsRepeatsAndTheLockCollapsesConcurrentMisses() {
        SimulationSpec spec = new SimulationSpec(null, SuiteFixture.edge(), null, ORIGIN, 0, 0);
        SimulationResult r = Simulation.run(spec, Workload.Closed.of(20, 5, 0, List.of("/tortoise")));
        Aggregates a = r.aggregates();
        System.out.println("cache: " + a);
        // 20 users at once: one MISS fetches for 2 s, 19 wait on the lock; the entry stays fresh
        // for 10 s, longer than the run, so the origin sees exactly one request.
        assertThat(a.originRequests()).isEqualTo(1);
        assertThat(r.requests().stream().filter(o -> o.cache() == CacheStatus.MISS)).hasSize(1);
        assertThat(a.edgeHitPercent()).isCloseTo(99.0, within(0.01));
        // Waiters poll every 500 ms: they are answered at 2000 ms, on the fourth poll.
        assertThat(r.requests().stream().filter(o -> o.issueMs() == 0).mapToLong(RequestOutcome::endMs).max())
                .hasValue(2000);
    }

    @Test
    void sameInputSameResultAndTheSeedDecidesTheOrder() {
        SimulationSpec spec = new SimulationSpec(LimitReqSpec.queue(Rate.perSecond(20), 10),
                SuiteFixture.edge(), LimitReqSpec.queue(Rate.perSecond(5), 5), ORIGIN, 1, 123);
        Workload w1 = new Workload.Closed(10, 3, 500, List.of("/hare", "/tortoise", "/snail"), true, 7, 2, true);
        Workload w2 = new Workload.Closed(10, 3, 500, List.of("/hare", "/tortoise", "/snail"), true, 8, 2, true);
        SimulationResult a = Simulation.run(spec, w1);
        SimulationResult b = Simulation.run(spec, w1);
        SimulationResult c = Simulation.run(spec, w2);
        assertThat(a).isEqualTo(b);
        assertThat(a.requests().stream().map(RequestOutcome::path).toList())
                .isNotEqualTo(c.requests().stream().map(RequestOutcome::path).toList());
        assertThat(a.requests()).hasSize(90);
    }

    @Test
    void drawnOrdersReplaceTheSeededShuffle() {
        SimulationSpec spec = new SimulationSpec(LimitReqSpec.queue(Rate.perSecond(20), 10),
                SuiteFixture.edge(), LimitReqSpec.queue(Rate.perSecond(5), 5), ORIGIN, 1, 123);
        List<String> paths = List.of("/hare", "/tortoise", "/snail");
        List<List<String>> drawn = List.of(
                List.of("/snail", "/hare", "/tortoise", "/tortoise", "/snail", "/hare"),
                List.of("/hare", "/tortoise", "/snail", "/snail", "/tortoise", "/hare"));
        Workload.Closed shuffled = new Workload.Closed(2, 2, 0, paths, true, 7, 2, true);
        SimulationResult r = Simulation.run(spec, shuffled.withDrawn(drawn));
        for (int u = 0; u < 2; u++) {
            String client = "user-" + u;
            assertThat(r.requests().stream().filter(o -> o.client().equals(client))
                    .sorted(java.util.Comparator.comparingLong(RequestOutcome::issueMs)).map(RequestOutcome::path).toList())
                    .as(client).isEqualTo(drawn.get(u));
        }
    }

    @Test
    void drawnOrdersMustHoldEveryUsersRequests() {
        Workload.Closed shuffled = new Workload.Closed(2, 2, 0, List.of("/hare", "/snail"), true, 7, 2, true);
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> shuffled.withDrawn(List.of(List.of("/hare", "/snail", "/hare", "/snail"))))
                .withMessageContaining("2 users' 4 requests");
    }
}
