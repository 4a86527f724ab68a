package dev.ratecache.suite.kinds.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.report.Check;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The promises through a fault: a reload fails nothing and its limit holds; a killed worker is started again. */
class FaultPromiseTest {
    private static final InjectedFault RELOAD = new InjectedFault(InjectedFault.Kind.RELOAD, 2, 10);
    private static final InjectedFault KILL = new InjectedFault(InjectedFault.Kind.WORKER_KILL, 2, 0);
    private static final Check RELOAD_CHECK = new Check(FaultPromise.text("faults/reload", InjectedFault.Kind.RELOAD),
            "faults/reload", null, "==", 1);
    private static final Check KILL_CHECK = new Check(FaultPromise.text("faults/worker-kill", InjectedFault.Kind.WORKER_KILL),
            "faults/worker-kill", null, "==", 1);

    private static FaultFigures reload(long failed, Long effectMs, long beforePeak) {
        return new FaultFigures(RELOAD, 1, null, failed, 0, effectMs, beforePeak, 12, 15, null);
    }

    private static FaultFigures kill(Long respawnMs, long lost) {
        return new FaultFigures(KILL, 1, null, lost, lost, null, 0, 0, 0, respawnMs);
    }

    @Test
    void aReloadKeepsItWithNoFailureAndTheNewLimitInForce() {
        Check.Outcome o = FaultPromise.evaluate(RELOAD_CHECK, List.of(reload(0, 300L, 40)));

        assertThat(o.passed()).isTrue();
        assertThat(o.detail()).contains("the new limit held from 300 ms after the signal");
    }

    @Test
    void aReloadBreaksItWithOneFailedRequestOrTheOldLimitStillInForce() {
        assertThat(FaultPromise.evaluate(RELOAD_CHECK, List.of(reload(1, 300L, 40))).passed()).isFalse();
        assertThat(FaultPromise.evaluate(RELOAD_CHECK, List.of(reload(0, null, 40))).passed()).isFalse();
    }

    @Test
    void aReloadWhoseSecondsBeforeWereUnderTheNewLimitTellsNothing() {
        assertThat(FaultPromise.evaluate(RELOAD_CHECK, List.of(reload(0, 0L, 15))).passed()).isFalse();
    }

    @Test
    void aKilledWorkerStartedAgainKeepsItWhateverWasLostAndTheFirstBrokenRunIsNamed() {
        assertThat(FaultPromise.evaluate(KILL_CHECK, List.of(kill(40L, 4))).passed()).isTrue();
        Check.Outcome o = FaultPromise.evaluate(KILL_CHECK, List.of(kill(40L, 4), kill(null, 0)));
        assertThat(o.passed()).isFalse();
        assertThat(o.detail()).contains("NO WORKER STARTED").endsWith("(run 2)");
    }

    @Test
    void anOriginRestartKeepsItWithNothingFailedAndTheEdgeBackOnTheNewOrigin() {
        InjectedFault restart = new InjectedFault(InjectedFault.Kind.ORIGIN_RESTART, 2, 0);
        Check check = new Check(FaultPromise.text("faults/origin-restart", restart.kind()), "faults/origin-restart",
                null, "==", 1);
        assertThat(FaultPromise.evaluate(check, List.of(new FaultFigures(restart, 1, null, 0, 0, null, 0, 0, 0, null,
                4000L, 120, 2L))).passed()).isTrue();
        assertThat(FaultPromise.evaluate(check, List.of(new FaultFigures(restart, 1, null, 3, 0, null, 0, 0, 0, null,
                4000L, 120, 2L))).passed()).as("three 502s while it was down").isFalse();
        assertThat(FaultPromise.evaluate(check, List.of(new FaultFigures(restart, 1, null, 0, 0, null, 0, 0, 0, null,
                4000L, 120, 0L))).passed()).as("the edge never asked the new origin").isFalse();
    }

    @Test
    void aStaleRefusedRestartKeepsItWithNoStaleAnErrorMeanwhileAndNoFailureOnceBack() {
        InjectedFault refused = new InjectedFault(InjectedFault.Kind.STALE_REFUSED, 2, 0);
        Check check = new Check(FaultPromise.text("faults/stale-refused", refused.kind()), "faults/stale-refused",
                null, "==", 1);
        java.util.function.BiFunction<Long, Long, FaultFigures> run = (stale, errors) -> new FaultFigures(refused, 1,
                null, errors, 0, null, 0, 0, 0, null, 3000L, stale, 5L, errors, 0L, null);
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(0L, 90L))).passed()).isTrue();
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(1L, 90L))).passed()).as("one stale answer").isFalse();
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(0L, 0L))).passed())
                .as("no error meanwhile: no expired entry was asked for, the rule went untested").isFalse();
        assertThat(FaultPromise.evaluate(check, List.of(new FaultFigures(refused, 1, null, 91, 0, null, 0, 0, 0, null,
                3000L, 0, 5L, 90L, 1L, null))).passed()).as("a failure once the new origin was ready").isFalse();
    }

    @Test
    void aFullCacheKeepsItWithNoFailureEveryAnswerSaidAndTheManagerEvicting() {
        InjectedFault full = new InjectedFault(InjectedFault.Kind.CACHE_FULL, 0, 0);
        Check check = new Check(FaultPromise.text("faults/cache-full", full.kind()), "faults/cache-full", null, "==", 1);
        java.util.function.BiFunction<Long, FaultFigures.CacheFill, FaultFigures> run = (failed, fill) ->
                new FaultFigures(full, 1, null, failed, 0, null, 0, 0, 0, null, null, 0, null, null, null, fill);
        FaultFigures.CacheFill evicting = new FaultFigures.CacheFill(1500, 262144, 1_200_000, 300, 63, 6000L,
                java.util.Map.of("MISS", 235L));
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(0L, evicting))).passed()).isTrue();
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(2L, evicting))).passed()).as("two 502s").isFalse();
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(0L, new FaultFigures.CacheFill(1500, 262144,
                1_200_000, 300, 300, null, java.util.Map.of("MISS", 235L))))).passed()).as("never evicted").isFalse();
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(0L, new FaultFigures.CacheFill(1500, 262144,
                1_200_000, 300, 63, 6000L, java.util.Map.of("MISS", 234L, "none", 1L))))).passed())
                .as("an answer that did not say what the cache did").isFalse();
    }

    @Test
    void aRedisRestartKeepsItWithNothingFailedAndTheOriginBackOnTheNewRedis() {
        InjectedFault restart = new InjectedFault(InjectedFault.Kind.REDIS_RESTART, 2, 0);
        Check check = new Check(FaultPromise.text("faults/redis-restart", restart.kind()), "faults/redis-restart",
                null, "==", 1);
        java.util.function.BiFunction<Long, Long, FaultFigures> run = (failed, lookups) -> new FaultFigures(restart, 1,
                null, failed, 0, null, 0, 0, 0, null, 70L, 0, null, null, null, null, lookups, 8L);
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(0L, 66L))).passed()).isTrue();
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(1L, 66L))).passed()).as("one failed").isFalse();
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(0L, 0L))).passed()).as("never back on it").isFalse();
        assertThat(FaultPromise.evaluate(check, List.of(run.apply(0L, null))).passed()).as("not known").isFalse();
    }

    @Test
    void aFaultThatNeverFiredBreaksIt() {
        FaultFigures unfired = new FaultFigures(KILL, 0, "the traffic ended first", 0, 0, null, 0, 0, 0, null);
        assertThat(FaultPromise.evaluate(KILL_CHECK, List.of(unfired)).passed()).isFalse();
    }
}
