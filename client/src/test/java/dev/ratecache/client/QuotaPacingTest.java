package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Spreading a quota's remaining requests over what is left of its window, on a clock driven by
 * hand: the slot each request is given, in seconds from the start.
 */
class QuotaPacingTest {
    private static final long S = 1_000_000_000L;
    private static final String HOST = "http://api";
    private static final String POLICY = "\"anonymous\";q=100;w=1;ratecache-burst=200, \"daily\";q=1000;w=86400";

    private final AtomicLong now = new AtomicLong(1_000 * S);
    private final PolicyPacer pacer = new PolicyPacer(now::get);

    private double slot() {
        return (pacer.reserve(HOST) - 1_000 * S) / (double) S;
    }

    private void at(double seconds) {
        now.set(1_000 * S + Math.round(seconds * S));
    }

    @Test
    void remainingIsSpreadOneEveryResetOverRemaining() {
        pacer.learn(HOST, POLICY, List.of("\"daily\";r=4;t=8"));

        assertThat(List.of(slot(), slot(), slot(), slot())).containsExactly(2.0, 4.0, 6.0, 8.0);
    }

    @Test
    void eachReportReplacesTheSpacingButNeverPullsAnIssuedSlotForward() {
        pacer.learn(HOST, POLICY, List.of("\"daily\";r=4;t=8"));
        assertThat(slot()).isEqualTo(2.0);
        at(2.1);
        // Someone else spent from the same quota: 1 left in 6 s.
        pacer.learn(HOST, POLICY, List.of("\"daily\";r=1;t=6"));
        assertThat(slot()).isEqualTo(8.1);
        at(2.2);
        // A report of more room does not give back the slot already handed out.
        pacer.learn(HOST, POLICY, List.of("\"daily\";r=100;t=5"));
        assertThat(slot()).isEqualTo(8.1);
    }

    @Test
    void concurrentRequestsEachTakeASlotOfTheirOwn() throws Exception {
        pacer.learn(HOST, POLICY, List.of("\"daily\";r=10;t=10"));
        List<Double> slots = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        List<Thread> threads = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Thread t = new Thread(() -> slots.add(slot()));
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }

        assertThat(slots).containsExactlyInAnyOrder(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);
    }

    @Test
    void noneLeftWaitsForTheResetThenGoesOn() {
        pacer.learn(HOST, POLICY, List.of("\"daily\";r=0;t=3"));

        assertThat(slot()).isEqualTo(3.0);
        // Past the reset the spacing is unknown until the next report: nothing is held back.
        at(3.5);
        assertThat(List.of(slot(), slot())).containsExactly(3.5, 3.5);
        pacer.learn(HOST, POLICY, List.of("\"daily\";r=999;t=86400"));
        assertThat(slot()).isBetween(3.5 + 86.0, 3.5 + 86.6);
    }

    @Test
    void theTighterOfTwoQuotasSetsTheSlot() {
        pacer.learn(HOST, "\"hourly\";q=100;w=3600, \"daily\";q=1000;w=86400",
                List.of("\"hourly\";r=50;t=100, \"daily\";r=10;t=100"));

        assertThat(List.of(slot(), slot())).containsExactly(10.0, 20.0);
    }

    @Test
    void burstPolicyAndUnknownPoliciesAreNotSpread() {
        pacer.learn(HOST, POLICY, List.of("\"anonymous\";r=0;t=1, \"other\";r=0;t=100"));
        assertThat(slot()).isZero();
        // Without a policy header first, a report's window is unknown.
        pacer.learn("http://other", null, List.of("\"daily\";r=0;t=100"));
        assertThat(pacer.reserve("http://other")).isEqualTo(now.get());
    }

    @Test
    void quotaExceededHoldsUntilItsReset() {
        pacer.exceeded(HOST, List.of("daily"), Duration.ofSeconds(4));
        assertThat(slot()).isEqualTo(4.0);
        pacer.exceeded("http://unnamed", List.of(), Duration.ofSeconds(2));
        assertThat(pacer.reserve("http://unnamed")).isEqualTo(now.get() + 2 * S);
        pacer.exceeded("http://unknown", List.of(), null);
        assertThat(pacer.reserve("http://unknown")).isEqualTo(now.get());
    }

    @Test
    void hostileResetsNeitherOverflowNorThrow() {
        pacer.learn(HOST, POLICY, List.of("\"daily\";r=0;t=999999999999999"));
        assertThat(pacer.reserve(HOST)).isEqualTo(Long.MAX_VALUE);
        pacer.exceeded("http://b", List.of("daily"), Duration.ofSeconds(Long.MAX_VALUE));
        assertThat(pacer.reserve("http://b")).isEqualTo(Long.MAX_VALUE);
        pacer.learn("http://c", "\"daily\";q=1;w=999999999999999", List.of("\"daily\";r=1;t=999999999999999"));
        assertThat(pacer.reserve("http://c")).isGreaterThan(now.get());
    }

    @Test
    void aReportedQuotaLeavesTheBucketToTheBurstPolicy() {
        // As a bucket, one request a day would hold the second for a day; spread by its report, 1 s.
        PolicyPacer real = new PolicyPacer();
        real.learn(HOST, "\"daily\";q=1;w=86400", List.of("\"daily\";r=100;t=100"));

        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            real.acquire(HOST);
            real.acquire(HOST);
        });
    }

    @Test
    void unreportedQuotaStaysInTheBucketAsBefore() {
        pacer.learn(HOST, "\"hourly\";q=3600;w=3600");
        assertThat(slot()).isZero();
        assertThat(PolicyPacer.parse("\"hourly\";q=3600;w=3600")).containsExactly(new PolicyPacer.Limit("hourly", 1, 3600));
    }
}
