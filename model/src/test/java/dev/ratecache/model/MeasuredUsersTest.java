package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A closed plan's users as a run measured them: when each started, and its pace between requests. */
class MeasuredUsersTest {

    private static final SimulationSpec NO_TIERS = new SimulationSpec(null, null, null, SuiteFixture.origin(200), 0, 0);

    private static List<Long> arrivals(SimulationResult r, String client) {
        return r.requests().stream().filter(o -> o.client().equals(client)).map(RequestOutcome::arrivalMs).toList();
    }

    @Test
    void aUserSendsItsNextRequestItsMeasuredPaceAfterItsAnswer() {
        // /hare takes 100 ms at the origin; after each answer the user took 40 ms, then 7 ms.
        Workload.Closed users = new Workload.Closed(1, 3, 0, List.of("/hare"), false, 0, 0, true, false)
                .withPace(List.of(List.of(40L, 7L, 0L)), null);

        assertThat(arrivals(Simulation.run(NO_TIERS, users), "user-0")).containsExactly(0L, 140L, 247L);
    }

    @Test
    void usersStartWhenTheRunMeasuredThemStartNotOnTheRampUpsSteps() {
        Workload.Closed ramp = new Workload.Closed(2, 1, 1000, List.of("/hare"), false, 0, 0, true, false);
        Workload.Closed bunched = ramp.withPace(List.of(List.of(0L), List.of(0L)), List.of(0L, 30L));

        assertThat(arrivals(Simulation.run(NO_TIERS, ramp), "user-1")).containsExactly(500L);
        assertThat(arrivals(Simulation.run(NO_TIERS, bunched), "user-1")).containsExactly(30L);
    }

    @Test
    void aPaceThatDoesNotCoverEveryRequestIsRefused() {
        Workload.Closed users = new Workload.Closed(2, 2, 0, List.of("/hare"), false, 0, 0, true, false);

        assertThatThrownBy(() -> users.withPace(List.of(List.of(1L, 1L)), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("each of 2 users' 2 requests");
        assertThatThrownBy(() -> users.withPace(null, List.of(0L)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("each of 2 users' first request");
    }
}
