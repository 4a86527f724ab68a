package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.replay.ReplayCellReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A flagged figure of a cell whose generator or machine was saturated says so, before any symptom of it. */
class SaturationReasonTest {
    private static final Cell CELL = Cell.of(Plan.STRESS, Cell.NO_CACHING).build();
    // The quick profile's cells without limits: p95 about 515 ms where the model predicts none.
    private static final Prediction P95_OF_NONE = new Prediction(Map.of(Metric.P95_MS, 0.0), null, 3);

    private static CellResult measured() {
        JtlSummary jtl = new JtlSummary(100, 0, 0, 0, 10, 50, 1, 600, 40, 300, 515, 580, 10_000);
        CellMeasurement m = new CellMeasurement(jtl, 100.0, null, new CellMeasurement.Cpu(null, null, null, null), 10);
        return new CellResult(CELL, List.of(m), null, Path.of("."), Path.of("."));
    }

    private static Predictions.Evidence evidence(double jmeterCpuPct, Double machineCpuPct, Long rampOffMs) {
        return new Predictions.Evidence(null, 40.0, jmeterCpuPct, 2, rampOffMs, ReplayCellReport.DEFAULT_MAX_LATENESS_MS,
                machineCpuPct);
    }

    @Test
    void aGeneratorAtNinetyFivePercentOfACoreIsTheReasonNotItsLateRampUp() {
        CellPrediction p = Predictions.compare(measured(), P95_OF_NONE, evidence(95, 70.0, 400L));

        assertThat(p.reasons()).containsExactly(
                "the load generator was saturated (95 % of one core): the figures measure that, not the tiers");
        assertThat(p.explained()).isTrue();
    }

    @Test
    void aSaturatedMachineIsTheReasonWhenTheGeneratorHadRoom() {
        CellPrediction p = Predictions.compare(measured(), P95_OF_NONE, evidence(40, 97.0, null));

        assertThat(p.reasons()).containsExactly(
                "the machine was saturated (97 % of all cores busy): the figures measure that, not the tiers");
    }

    @Test
    void aFrontThatAnsweredAsQuicklyAsTheModelSaysPutsTheRestOnTheClientsSideBeforeAnySaturation() {
        Predictions.Evidence e = new Predictions.Evidence(null, 40.0, 95.0, 2, null,
                ReplayCellReport.DEFAULT_MAX_LATENESS_MS, 70.0, null, null, Map.of(Metric.P95_MS, 1L));

        CellPrediction p = Predictions.compare(measured(), P95_OF_NONE, e);

        assertThat(p.reasons()).containsExactly("the front itself answered its p95 in 1 ms, as the model says; the rest"
                + " was the client's side (connecting, waiting for the edge to take the connection, the generator's"
                + " threads), which the model does not include");
        assertThat(p.explained()).isTrue();
    }

    @Test
    void aFrontSlowerThanTheModelSaysIsNoClientSideReason() {
        Predictions.Evidence e = new Predictions.Evidence(null, 40.0, 95.0, 2, null,
                ReplayCellReport.DEFAULT_MAX_LATENESS_MS, 70.0, null, null, Map.of(Metric.P95_MS, 500L));

        assertThat(Predictions.compare(measured(), P95_OF_NONE, e).reasons()).containsExactly(
                "the load generator was saturated (95 % of one core): the figures measure that, not the tiers");
    }

    @Test
    void withRoomOnBothTheLateRampUpIsTheReason() {
        CellPrediction p = Predictions.compare(measured(), P95_OF_NONE, evidence(40, 60.0, 400L));

        assertThat(p.reasons()).containsExactly(
                "the generator fell behind its schedule (users started up to 400 ms off their ramp-up)");
    }

    @Test
    void aKeysPlanThatSentItsArrivalsInAClumpFellBehindItsSchedule() {
        // 80 r/s in all: 20 requests due over 250 ms; the last ten sent at once, 120 ms late.
        List<dev.ratecache.jtl.Sample> samples = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long start = i < 10 ? i * 12 : 250;
            samples.add(new dev.ratecache.jtl.Sample(1_000_000 + start, 5, "free/k", "200", "", "t", true, 100, 1, "/hare",
                    "HIT", ""));
        }
        Long off = Predictions.arrivalsOffMs(samples, Map.of("keys", "free:40:k1;pro:40:k2", "hold", "4"));
        CellPrediction p = Predictions.compare(measured(), P95_OF_NONE,
                new Predictions.Evidence(null, 40.0, 40.0, 2, null, ReplayCellReport.DEFAULT_MAX_LATENESS_MS, 60.0, off));

        assertThat(off).isEqualTo(250 - 10 * 1000 / 80);
        assertThat(p.reasons()).containsExactly(
                "the generator fell behind its schedule (requests started up to 125 ms off their even arrivals)");
        assertThat(Predictions.arrivalsOffMs(samples, Map.of("users", "5"))).isNull();
    }

    @Test
    void aUserHeldBetweenAnAnswerAndItsNextRequestIsTheGeneratorFallingBehind() {
        // Two users; the second's next request came 233 ms after its answer (JMeter held its threads).
        List<dev.ratecache.jtl.Sample> samples = List.of(
                new dev.ratecache.jtl.Sample(1_000_002, 360, "/tortoise", "200", "", "Users 1-2", true, 100, 2, "/tortoise", "MISS", ""),
                new dev.ratecache.jtl.Sample(1_000_595, 15, "/hare", "200", "", "Users 1-2", true, 100, 2, "/hare", "MISS", ""),
                new dev.ratecache.jtl.Sample(1_000_000, 524, "/snail", "200", "", "Users 1-1", true, 100, 2, "/snail", "MISS", ""),
                new dev.ratecache.jtl.Sample(1_000_527, 11, "/hare", "200", "", "Users 1-1", true, 100, 2, "/hare", "HIT", ""));
        Long pause = Predictions.pauseMs(samples, Map.of("users", "2", "loops", "1", "rampup", "0"));
        CellPrediction p = Predictions.compare(measured(), P95_OF_NONE,
                new Predictions.Evidence(null, 40.0, 40.0, 2, 0L, ReplayCellReport.DEFAULT_MAX_LATENESS_MS, 60.0, null, pause));

        assertThat(pause).isEqualTo(233);
        assertThat(p.reasons()).containsExactly(
                "the generator fell behind its schedule (a user waited up to 233 ms between an answer and its next request)");
        assertThat(Predictions.pauseMs(samples, Map.of("users", "2", "think_time", "50"))).isNull();
    }
}
