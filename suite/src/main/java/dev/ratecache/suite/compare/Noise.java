package dev.ratecache.suite.compare;

import dev.ratecache.jtl.Sample;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

/**
 * The noise of a change, measured with Apache Commons Math: a percentile bootstrap of B - A (each
 * side resampled with replacement, the metric computed again, 95 % of the differences between the
 * 2.5th and 97.5th percentiles), and the Mann-Whitney U test of the latencies. The generator is
 * seeded, so that one pair of runs is always judged alike.
 */
final class Noise {
    /** Resamples per interval: enough that the interval's ends move by well under its width between seeds. */
    static final int RESAMPLES = 1000;
    private static final long SEED = 51;

    private Noise() {}

    /** A 95 % interval of B - A. */
    record Interval(double low, double high) {
        static final Interval NONE = new Interval(Double.NaN, Double.NaN);
    }

    /** What the metrics of {@link CompareMetric.Source#SAMPLES} are computed from: one cell's samples, pooled. */
    record Samples(double[] elapsed, boolean[] rejected, boolean[] otherError) {
        static Samples of(List<Sample> samples) {
            int n = samples.size();
            double[] elapsed = new double[n];
            boolean[] rejected = new boolean[n];
            boolean[] other = new boolean[n];
            for (int i = 0; i < n; i++) {
                Sample s = samples.get(i);
                elapsed[i] = s.elapsed();
                rejected[i] = s.rejected();
                other[i] = !s.success() && !s.rejected();
            }
            return new Samples(elapsed, rejected, other);
        }

        int size() {
            return elapsed.length;
        }

        /** The repeats' samples as one. */
        static Samples pooled(List<Samples> repeats) {
            int n = repeats.stream().mapToInt(Samples::size).sum();
            double[] elapsed = new double[n];
            boolean[] rejected = new boolean[n];
            boolean[] other = new boolean[n];
            int at = 0;
            for (Samples r : repeats) {
                System.arraycopy(r.elapsed, 0, elapsed, at, r.size());
                System.arraycopy(r.rejected, 0, rejected, at, r.size());
                System.arraycopy(r.otherError, 0, other, at, r.size());
                at += r.size();
            }
            return new Samples(elapsed, rejected, other);
        }
    }

    /** "1000 samples", or "3 repeats' 3000 samples" when the repeats are resampled too. */
    static String describe(List<Samples> repeats) {
        int n = repeats.stream().mapToInt(Samples::size).sum();
        return repeats.size() > 1 ? repeats.size() + " repeats' " + n + " samples" : n + " samples";
    }

    /**
     * The intervals of B - A of every sample metric, from one bootstrap (each resample serves every
     * metric). A side with several repeats is resampled at both levels, its repeats and then each
     * chosen repeat's samples: the samples of one run share its machine's moment (a busy neighbour
     * slows them all), so only the repeats show how far two runs of one config drift apart.
     */
    static Map<CompareMetric, Interval> ofSamples(List<Samples> a, List<Samples> b) {
        List<CompareMetric> metrics = List.of(CompareMetric.values()).stream()
                .filter(m -> m.source() == CompareMetric.Source.SAMPLES).toList();
        Map<CompareMetric, double[]> diffs = new EnumMap<>(CompareMetric.class);
        metrics.forEach(m -> diffs.put(m, new double[RESAMPLES]));
        RandomGenerator random = new Well19937c(SEED);
        for (int r = 0; r < RESAMPLES; r++) {
            Map<CompareMetric, Double> ofA = statistics(resample(a, random));
            Map<CompareMetric, Double> ofB = statistics(resample(b, random));
            for (CompareMetric m : metrics) {
                diffs.get(m)[r] = ofB.get(m) - ofA.get(m);
            }
        }
        Map<CompareMetric, Interval> intervals = new EnumMap<>(CompareMetric.class);
        diffs.forEach((m, d) -> intervals.put(m, interval(d)));
        return intervals;
    }

    /** Every sample metric of one set of samples: latencies' mean and percentiles (nearest rank, as the report's), shares. */
    static Map<CompareMetric, Double> statistics(Samples s) {
        Map<CompareMetric, Double> figures = new EnumMap<>(CompareMetric.class);
        // R_1 is the inverse of the empirical distribution: the nearest-rank percentile the report uses.
        Percentile percentile = new Percentile().withEstimationType(Percentile.EstimationType.R_1);
        percentile.setData(s.elapsed());
        for (CompareMetric m : CompareMetric.PERCENTILES) {
            figures.put(m, percentile.evaluate(m.percentile()));
        }
        double sum = 0;
        int rejected = 0;
        int other = 0;
        for (int i = 0; i < s.size(); i++) {
            sum += s.elapsed()[i];
            rejected += s.rejected()[i] ? 1 : 0;
            other += s.otherError()[i] ? 1 : 0;
        }
        figures.put(CompareMetric.MEAN_MS, sum / s.size());
        figures.put(CompareMetric.REJECTED_PCT, 100.0 * rejected / s.size());
        figures.put(CompareMetric.OTHER_ERRORS_PCT, 100.0 * other / s.size());
        return figures;
    }

    /** One resample of a side: of its only repeat, or of its repeats and each chosen repeat's samples. */
    private static Samples resample(List<Samples> repeats, RandomGenerator random) {
        if (repeats.size() == 1) {
            return resample(repeats.get(0), random);
        }
        List<Samples> chosen = new java.util.ArrayList<>();
        for (int k = 0; k < repeats.size(); k++) {
            chosen.add(resample(repeats.get(random.nextInt(repeats.size())), random));
        }
        return Samples.pooled(chosen);
    }

    private static Samples resample(Samples s, RandomGenerator random) {
        int n = s.size();
        double[] elapsed = new double[n];
        boolean[] rejected = new boolean[n];
        boolean[] other = new boolean[n];
        for (int i = 0; i < n; i++) {
            int j = random.nextInt(n);
            elapsed[i] = s.elapsed()[j];
            rejected[i] = s.rejected()[j];
            other[i] = s.otherError()[j];
        }
        return new Samples(elapsed, rejected, other);
    }

    /**
     * The interval of B - A of a per-second series: each second resampled with replacement within
     * its repeat, the statistic the mean (a rate) or the sum (a count, so that a longer run counts
     * more), the median over repeats; in the series' own unit.
     */
    static Interval ofSeconds(List<List<Long>> a, List<List<Long>> b, boolean sum) {
        RandomGenerator random = new Well19937c(SEED);
        double[] diffs = new double[RESAMPLES];
        for (int r = 0; r < RESAMPLES; r++) {
            diffs[r] = statistic(b, sum, random) - statistic(a, sum, random);
        }
        return interval(diffs);
    }

    /** Repeats each side needs before {@link #ofRepeatFigures} takes over from the seconds' bootstrap. */
    static final int REPEATS_FOR_WELCH = 3;

    /**
     * The 95 % interval of B - A from each repeat's own figure (its rate, or its count), by Welch's t
     * (unequal variances, Welch-Satterthwaite degrees of freedom). A run's seconds swing with its plan
     * (the stress plan's burst, then the queue draining), so resampling them measures that swing, not
     * how far one run's rate lies from another's; the repeats measure the latter directly.
     */
    static Interval ofRepeatFigures(double[] a, double[] b) {
        double va = new org.apache.commons.math3.stat.descriptive.moment.Variance().evaluate(a) / a.length;
        double vb = new org.apache.commons.math3.stat.descriptive.moment.Variance().evaluate(b) / b.length;
        double diff = new org.apache.commons.math3.stat.descriptive.moment.Mean().evaluate(b)
                - new org.apache.commons.math3.stat.descriptive.moment.Mean().evaluate(a);
        double se = Math.sqrt(va + vb);
        if (se == 0) {
            return new Interval(diff, diff);
        }
        double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
        double t = new org.apache.commons.math3.distribution.TDistribution(null, df).inverseCumulativeProbability(0.975);
        return new Interval(diff - t * se, diff + t * se);
    }

    /**
     * Each repeat's throughput as the report measures it: its samples over the time from the first
     * request's start to the last response's end.
     */
    static double[] throughputs(List<List<Sample>> repeats) {
        return repeats.stream().mapToDouble(samples -> {
            long first = samples.stream().mapToLong(Sample::timeStamp).min().orElse(0);
            long last = samples.stream().mapToLong(x -> x.timeStamp() + x.elapsed()).max().orElse(0);
            return last > first ? 1000.0 * samples.size() / (last - first) : 0;
        }).toArray();
    }

    /** Each repeat's own figure of its series: the mean of its seconds (a rate), or their sum (a count). */
    static double[] perRepeat(List<List<Long>> repeats, boolean sum) {
        return repeats.stream().mapToDouble(seconds -> statistic(List.of(seconds), sum)).toArray();
    }

    /** The series' own figure, not resampled: what {@link #ofSeconds}'s interval is scaled against. */
    static double statistic(List<List<Long>> repeats, boolean sum) {
        return statistic(repeats, sum, null);
    }

    private static double statistic(List<List<Long>> repeats, boolean sum, RandomGenerator random) {
        double[] perRepeat = new double[repeats.size()];
        for (int k = 0; k < repeats.size(); k++) {
            List<Long> seconds = repeats.get(k);
            double total = 0;
            for (int i = 0; i < seconds.size(); i++) {
                total += seconds.get(random == null ? i : random.nextInt(seconds.size()));
            }
            perRepeat[k] = sum ? total : total / seconds.size();
        }
        return new Percentile().evaluate(perRepeat, 50);
    }

    /**
     * The interval of B - A from each side's repeats alone (no samples, no seconds): from A's
     * greatest to B's least up to A's least to B's greatest, so that overlapping spreads are the same.
     */
    static Interval ofRepeats(RunFolder.Spread a, RunFolder.Spread b) {
        return new Interval(b.min() - a.max(), b.max() - a.min());
    }

    /** The Mann-Whitney U test's two-sided p that A's and B's latencies come from one distribution. */
    static double mannWhitneyP(Samples a, Samples b) {
        return new MannWhitneyUTest().mannWhitneyUTest(a.elapsed(), b.elapsed());
    }

    private static Interval interval(double[] diffs) {
        Percentile percentile = new Percentile();
        percentile.setData(diffs);
        return new Interval(percentile.evaluate(2.5), percentile.evaluate(97.5));
    }
}
