package dev.ratecache.suite.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bootstrap's intervals: repeats that drift apart widen them (a run's samples share its
 * machine's moment, so only repeats show run-to-run drift), and a seeded bootstrap gives one pair
 * of runs one interval every time.
 */
class CompareNoiseTest {
    /** Exponential latencies around {@code ms}, one repeat. */
    private static Noise.Samples repeat(Random random, double ms, int n) {
        double[] elapsed = new double[n];
        for (int i = 0; i < n; i++) {
            elapsed[i] = Math.round(-ms * Math.log(1 - random.nextDouble()));
        }
        return new Noise.Samples(elapsed, new boolean[n], new boolean[n]);
    }

    /** Three repeats, each run at its own moment of the machine: latency times its factor. */
    private static List<Noise.Samples> run(Random random, double... factors) {
        List<Noise.Samples> repeats = new ArrayList<>();
        for (double f : factors) {
            repeats.add(repeat(random, 300 * f, 4000));
        }
        return repeats;
    }

    @Test
    void repeatsThatDriftApartWidenTheIntervalSoAShiftWithinTheirDriftIsNoChange() {
        Random random = new Random(7);
        List<Noise.Samples> a = run(random, 0.8, 1.0, 1.2);
        List<Noise.Samples> b = run(random, 0.95, 1.15, 1.35);

        Noise.Interval clustered = Noise.ofSamples(a, b).get(CompareMetric.MEAN_MS);
        Noise.Interval pooled = Noise.ofSamples(List.of(Noise.Samples.pooled(a)), List.of(Noise.Samples.pooled(b)))
                .get(CompareMetric.MEAN_MS);

        assertThat(pooled.low()).as("the samples alone: every sample taken as independent").isPositive();
        assertThat(clustered.low()).as("with the repeats resampled too").isNegative();
        assertThat(clustered.high() - clustered.low()).isGreaterThan(2 * (pooled.high() - pooled.low()));
    }

    @Test
    void oneRepeatEachIsResampledBySampleAndTheSeedGivesOneIntervalEveryTime() {
        Random random = new Random(8);
        List<Noise.Samples> a = List.of(repeat(random, 300, 2000));
        List<Noise.Samples> b = List.of(repeat(random, 360, 2000));

        Noise.Interval first = Noise.ofSamples(a, b).get(CompareMetric.P95_MS);
        Noise.Interval again = Noise.ofSamples(a, b).get(CompareMetric.P95_MS);

        assertThat(first).isEqualTo(again);
        assertThat(first.low()).as("a 20 %% slower run, 2000 samples each").isPositive();
    }

    @Test
    void theNearestRankPercentileIsAMeasuredValueAsTheReportsIs() {
        Noise.Samples s = new Noise.Samples(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, new boolean[10], new boolean[10]);

        assertThat(Noise.statistics(s)).containsEntry(CompareMetric.P50_MS, 5.0).containsEntry(CompareMetric.P90_MS, 9.0)
                .containsEntry(CompareMetric.P95_MS, 10.0).containsEntry(CompareMetric.MEAN_MS, 5.5);
    }

    @Test
    void threeRepeatsASideGiveWelchsIntervalWorkedByHand() {
        // Means 2 and 5; each variance of the mean 1/3; Welch-Satterthwaite df 4; t(0.975, 4) = 2.7764.
        Noise.Interval i = Noise.ofRepeatFigures(new double[] {1, 2, 3}, new double[] {4, 5, 6});

        double half = 2.7764451 * Math.sqrt(2.0 / 3);
        assertThat(i.low()).isCloseTo(3 - half, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(i.high()).isCloseTo(3 + half, org.assertj.core.data.Offset.offset(1e-5));
    }

    @Test
    void aRepeatsThroughputIsItsSamplesOverTheirSpan() {
        List<dev.ratecache.jtl.Sample> samples = List.of(dev.ratecache.jtl.Sample.of(1_000, 100, "200", true),
                dev.ratecache.jtl.Sample.of(1_500, 200, "200", true), dev.ratecache.jtl.Sample.of(2_900, 100, "429", false));

        // Three answers from the first start (1.0 s) to the last end (3.0 s).
        assertThat(Noise.throughputs(List.of(samples))).containsExactly(1.5);
    }
}
