package dev.ratecache.suite.peak;

import java.util.List;
import java.util.Locale;

/**
 * One path's figures over the rounds, as every wrk-driven mode keeps them: each round's wrk result,
 * its requests/s over the reference run of the same round (the ceiling, or the bare cache), the CPU
 * the serving processes spent per request (microseconds), which a busy machine disturbs far less
 * than requests/s, and the reference's CPU per request over it.
 *
 * @param key what was measured: a path, a server, a step of the breakdown
 */
public record Figure<K>(K key, List<Wrk.Result> runs, List<Double> ratios, List<Double> cpuMicros,
        List<Double> cpuRatios, List<Double> predicted) {
    /** Without predictions: a figure no model is set beside. */
    public Figure(K key, List<Wrk.Result> runs, List<Double> ratios, List<Double> cpuMicros, List<Double> cpuRatios) {
        this(key, runs, ratios, cpuMicros, cpuRatios, List.of());
    }

    /**
     * The shared-CPU model's requests/s for the run's own demands, median over rounds (NaN when none
     * was predicted): see {@link PeakHarness#wrk}.
     */
    public double medianPredicted() {
        return predicted.isEmpty() ? Double.NaN : new Spread(predicted).median();
    }

    /** The model's two columns, 18 characters: its requests/s and the measured rate's distance from it, or dashes. */
    public static String modelColumns(Figure<?> f) {
        return modelColumns(f.medianRequestsPerSecond(), f.medianPredicted());
    }

    /** The same for a {@code measured} rate and its {@code predicted} one (NaN: not predicted). */
    public static String modelColumns(double measured, double predicted) {
        return Double.isNaN(predicted) ? String.format(Locale.ROOT, "%10s %7s", "-", "-")
                : String.format(Locale.ROOT, "%10.0f %+6.0f%%", predicted, error(measured, predicted) * 100);
    }

    /** The measured median over the predicted one, less 1: +0.05 is 5 % faster than predicted. */
    public double predictionError() {
        return error(medianRequestsPerSecond(), medianPredicted());
    }

    private static double error(double measured, double predicted) {
        return measured / predicted - 1;
    }

    public Spread requestsPerSecond() { return new Spread(runs.stream().map(Wrk.Result::requestsPerSecond).toList()); }
    public Spread ratio() { return new Spread(ratios); }
    public double medianRequestsPerSecond() { return requestsPerSecond().median(); }
    public double medianRatio() { return ratio().median(); }
    public double medianP50() { return new Spread(runs.stream().map(Wrk.Result::latencyP50).toList()).median(); }
    public double medianP99() { return new Spread(runs.stream().map(Wrk.Result::latencyP99).toList()).median(); }
    public double medianCpuMicros() { return new Spread(cpuMicros).median(); }
    /** The reference's CPU per request over this path's, per round: the ratio if the CPU were all that limits. */
    public double medianCpuRatio() { return new Spread(cpuRatios).median(); }
    public long non2xx() { return runs.stream().mapToLong(Wrk.Result::non2xx).sum(); }
    public long requests() { return runs.stream().mapToLong(Wrk.Result::requests).sum(); }
    public boolean socketErrors() { return runs.stream().anyMatch(r -> r.socketErrors() > 0); }
}
