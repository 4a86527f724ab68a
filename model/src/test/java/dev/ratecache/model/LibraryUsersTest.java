package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The client library as the model's users: RFC 9111 freshness counted from the send, and
 * stale-while-revalidate answered at once while one background revalidation per entry runs.
 */
class LibraryUsersTest {
    /** /p: 100 ms at the origin, fresh 1 s, then servable stale for 60 s. */
    private static final OriginSpec ORIGIN = new OriginSpec(10, Map.of("/p", new PathSpec(100, new Freshness(1, 60))));
    private static final Workload.Library SYNCHRONOUS = new Workload.Library(3, 1000, 20_000, 0);
    private static final Workload.Library IN_THE_BACKGROUND = new Workload.Library(3, 1000, 20_000, 1);

    /** The back end queues at 1 r/s (burst 10): each of several users' first requests waits a second more. */
    private static SimulationSpec queued() {
        return new SimulationSpec(null, null, LimitReqSpec.queue(Rate.perSecond(1), 10), ORIGIN, 0, 0);
    }

    private static Workload users(int users, int loops, Workload.Library library) {
        return new Workload.Closed(users, loops, 0, List.of("/p"), false, 0, 0, false, false, library);
    }

    @Test
    void responseThatQueuedPastItsMaxAgeIsRevalidatedBeforeItsNextUseWithoutBackgroundThreads() {
        SimulationResult r = Simulation.run(queued(), users(3, 3, SYNCHRONOUS));

        // The first user's answer came at once and stays fresh through its loops; the others queued
        // 1 s and 2 s, so theirs arrived stale and each next use waited on the queue again.
        assertThat(r.aggregates().originRequests()).isGreaterThan(3);
        assertThat(r.requests()).filteredOn(o -> !o.clientCacheHit()).hasSize(r.aggregates().originRequests());
    }

    @Test
    void staleResponseInsideItsWindowAnswersAtOnceAndItsRevalidationIsGivenUpWhenTheUserEnds() {
        SimulationResult r = Simulation.run(queued(), users(3, 3, IN_THE_BACKGROUND));

        // Every user sent its first request only; the stale ones answered at once, and their
        // revalidations, queued behind the back end's limit, were given up as each user ended.
        assertThat(r.requests()).hasSize(9);
        assertThat(r.requests()).filteredOn(RequestOutcome::clientCacheHit).hasSize(6)
                .allSatisfy(o -> assertThat(o.latencyMs()).isZero());
        assertThat(r.aggregates().originRequests()).isEqualTo(3);
    }

    @Test
    void backgroundRevalidationThatReachesTheOriginRefreshesTheEntry() {
        // No limit: one user, /p fetched, then a long run of loops spaced by the overhead: the entry
        // goes stale after 1 s, one revalidation refreshes it, and so on.
        SimulationSpec open = new SimulationSpec(null, null, null, ORIGIN, 0, 0);
        Workload slowLoops = new Workload.Closed(1, 40, 0, List.of("/p"), false, 0, 100, false, false, IN_THE_BACKGROUND);

        SimulationResult r = Simulation.run(open, slowLoops);

        // 40 samples 100 ms apart: about 4 s, so about 4 revalidations besides the first fetch; only
        // the first sample went to the network itself.
        assertThat(r.requests()).filteredOn(o -> !o.clientCacheHit()).hasSize(1);
        assertThat(r.aggregates().originRequests()).isBetween(4, 5);
    }

    @Test
    void staleResponsePastItsWindowIsFetchedBeforeItAnswers() {
        OriginSpec noWindow = new OriginSpec(10, Map.of("/p", new PathSpec(100, new Freshness(1, 0))));
        SimulationSpec spec = new SimulationSpec(null, null, LimitReqSpec.queue(Rate.perSecond(1), 10), noWindow, 0, 0);

        SimulationResult background = Simulation.run(spec, users(3, 3, IN_THE_BACKGROUND));
        SimulationResult synchronous = Simulation.run(spec, users(3, 3, SYNCHRONOUS));

        assertThat(background.aggregates().originRequests()).isEqualTo(synchronous.aggregates().originRequests());
        assertThat(background.requests()).filteredOn(o -> !o.clientCacheHit()).hasSize(background.aggregates().originRequests());
    }
}
