package dev.ratecache.suite.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What changed, in words, with the model's prediction of the change beside the measured one. */
class CompareWordsTest {
    private static MetricComparison judged(CompareMetric metric, double a, double b) {
        double diff = b - a;
        return new MetricComparison(metric, a, b, diff * 0.8, diff * 1.2, "test", Double.NaN,
                MetricComparison.judge(metric, a, b, diff * 0.8, diff * 1.2));
    }

    @Test
    void aRiseTheModelForesawIsSaidWithTheChangeAndThePrediction() {
        List<String> words = ChangeWords.of(List.of("front burst 200 -> 50"),
                List.of(judged(CompareMetric.REJECTED_PCT, 0.2, 31)),
                Map.of("rejected_pct", 0.0), Map.of("rejected_pct", 30.4));

        assertThat(words).containsExactly(
                "front burst 200 -> 50: rejections rose from 0.20 % to 31.0 %, as the model predicted (30.4 %)");
    }

    @Test
    void aChangeAgainstThePredictedDirectionSaysWhichWayTheModelWent() {
        List<String> words = ChangeWords.of(List.of("server cache on -> off"),
                List.of(judged(CompareMetric.ORIGIN_REQUESTS, 400, 100)),
                Map.of("origin_requests", 400.0), Map.of("origin_requests", 900.0));

        assertThat(words).singleElement().asString()
                .startsWith("server cache on -> off: origin requests fell from 400 to 100")
                .endsWith("though the model predicted a rise to 900");
    }

    @Test
    void aPredictedChangeThatDidNotComeIsSaidToo() {
        MetricComparison same = new MetricComparison(CompareMetric.THROUGHPUT, 50, 50.5, -2, 3, "test", Double.NaN,
                Verdict.SAME);

        List<String> words = ChangeWords.of(List.of("front rate 100 -> 50"), List.of(same),
                Map.of("throughput", 50.0), Map.of("throughput", 25.0));

        assertThat(words).containsExactly("front rate 100 -> 50: throughput rose from 50.0 responses/s to 50.5"
                + " responses/s (the same within noise), though the model predicted a fall from 50.0 responses/s to"
                + " 25.0 responses/s");
        MetricComparison unmoved = new MetricComparison(CompareMetric.THROUGHPUT, 50, 50, -2, 2, "test", Double.NaN,
                Verdict.SAME);
        assertThat(ChangeWords.of(List.of("x"), List.of(unmoved), Map.of("throughput", 50.0), Map.of("throughput", 25.0)))
                .singleElement().asString().startsWith("x: throughput stayed at 50.0 responses/s (the same within noise)");
    }

    @Test
    void nothingMovedIsOneLineAndAMetricWithoutAPredictionHasNoClause() {
        MetricComparison same = new MetricComparison(CompareMetric.P95_MS, 100, 101, -3, 4, "test", Double.NaN,
                Verdict.SAME);

        assertThat(ChangeWords.of(List.of(), List.of(same), Map.of(), Map.of()))
                .containsExactly("with the same switches: no metric moved beyond the noise");
        assertThat(ChangeWords.of(List.of("a -> b"), List.of(judged(CompareMetric.P99_MS, 100, 300)), Map.of(), Map.of()))
                .containsExactly("a -> b: p99 latency rose from 100 ms to 300 ms");
    }

    @Test
    void metricsNotJudgedAreNotPutIntoWords() {
        MetricComparison unjudged = new MetricComparison(CompareMetric.P95_MS, 100, 300, Double.NaN, Double.NaN, "none",
                Double.NaN, Verdict.UNJUDGED);

        assertThat(ChangeWords.of(List.of("a -> b"), List.of(unjudged), Map.of(), Map.of())).isEmpty();
    }

    @Test
    void aBurstChangedAloneIsNamedByTheTierAndTheBurstAndBothChangedByTheLimitFirst() {
        String a = "front limit 100 r/s burst 200 queue, back limit 10 r/s burst 50 queue";

        assertThat(SwitchesDiff.of(a, a.replace("burst 200", "burst 5"))).containsExactly("front burst 200 -> 5");
        assertThat(SwitchesDiff.of(a, a.replace("100 r/s burst 200", "90 r/s burst 50")))
                .containsExactly("front limit 100 -> 90, burst 200 -> 50");
    }

    @Test
    void twoOfYourConfigsAreNamedByTheirFilesOnce() {
        String own = "front tier: your config (old.conf, server api.example.com (listen 8080) at old.conf:8, paths /api/"
                + " (server api.example.com, location /api/, answered as /hare)), its limits on and its cache on,"
                + " back limit 10 r/s burst 50 queue";

        assertThat(SwitchesDiff.of(own, own.replace("old.conf", "new.conf")))
                .containsExactly("front config old.conf -> new.conf");
    }
}
