package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.suite.kinds.db.DbCells;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --matrix db's model: the pool as servers for the query's service time, 504 past the acquire timeout. */
class DbPredictionTest {

    private static Cell cell(String name) {
        return DbCells.of().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** With the pool's measured hold per query (its service time), and a fastest sample of 0 ms, as on an idle machine. */
    private static Prediction predict(Cell cell, Double holdMs, Map<String, String> extra) {
        Map<String, String> props = new LinkedHashMap<>(cell.plan().sizes(Profile.DEFAULT));
        props.putAll(cell.properties());
        props.putAll(extra);
        return Predictor.predict(new Predictor.Input(cell, cell.apply(new StackSwitches()).spec(new StackPorts()), props,
                Profile.DEFAULT, 200, null, 0, 0, null, holdMs), DbPrediction.MODEL);
    }

    @Test
    void aPoolWithRoomAnswersTheOfferedRateWithoutA504() {
        // 20 connections of 2 ms each answer 10,000 a second: the flood's rate passes.
        Prediction p = predict(cell("db/pool-20"), 2.0, Map.of());

        assertThat(p.predicted()).isTrue();
        assertThat(p.value(Metric.THROUGHPUT)).isEqualTo(DbCells.SWEEP_RATE);
        assertThat(p.value(Metric.OTHER_ERRORS_PCT)).isZero();
    }

    @Test
    void aSaturatedPoolQueuesUntilTheAcquireTimeoutThenAnswers504() {
        // 2 connections of 20 ms: 100 a second against 1000 offered for 60 s. The queue holds the
        // 10 s timeout's 1000 answers after 1000 / 900 s; from then the 900 a second over are 504s.
        DbPrediction p = new DbPrediction(2, 20, 1000, 60, Duration.ofSeconds(10));

        assertThat(p.capacity()).isEqualTo(100);
        assertThat(p.timedOutPct()).isCloseTo(100 * (60 - 1000 / 900.0) / 60 * 0.9, within(1e-9));
        // 60,000 responses over the hold and the 10 s it takes to drain the queue.
        assertThat(p.throughput()).isCloseTo(60_000 / 70.0, within(1e-9));
    }

    @Test
    void aQueueShorterThanTheTimeoutIsSlowButAnswersEveryRequest() {
        DbPrediction p = new DbPrediction(5, 10, 600, 10, Duration.ofSeconds(10));

        assertThat(p.timedOutPct()).isZero();
        assertThat(p.throughput()).isLessThan(600);
    }

    @Test
    void theCachesCellsCarryTheReasonTheyAreNotModelled() {
        Prediction p = predict(cell("db/edge"), 2.0, Map.of());

        assertThat(p.predicted()).isFalse();
        assertThat(p.gap()).contains("predicts the pool sweep");
    }

    @Test
    void theServiceTimeIsThePoolsMeasuredHoldNotTheFastestSample() {
        // 5 connections held 20 ms each answer 250 a second: under the sweep's offered rate.
        Prediction p = predict(cell("db/pool-5"), 20.0, Map.of());

        assertThat(p.predicted()).isTrue();
        assertThat(p.value(Metric.THROUGHPUT)).isLessThan(DbCells.SWEEP_RATE);
    }

    @Test
    void withoutThePoolsMeasuredHoldThereIsNoServiceTime() {
        assertThat(predict(cell("db/pool-5"), null, Map.of()).gap()).contains("hikaricp.connections.usage");
    }
}
