package dev.ratecache.suite.predict;

import dev.ratecache.suite.matrix.Metric;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the model says one cell should measure, or why it says nothing.
 *
 * @param values     predicted figures by metric (those of {@link Predictor#METRICS} that apply); empty with a gap
 * @param gap        null when predicted; otherwise the sentence naming what the model lacks for this
 *                   cell, e.g. "the model does not include JMeter's client cache"
 * @param overheadMs the round-trip overhead per request the prediction used (the client's and the
 *                   network's cost, which the model has no other way to know)
 * @param ranges     per metric, the lowest and highest figure the model allows: over the {@link #orders}
 *                   it tried for a plan that shuffles its paths (the value is then their median), and
 *                   for a percentile over the ranks a sample of the run's size may put at it; a metric
 *                   without one has only its value
 * @param orders     how many path orders the model tried; 1 when the plan's order is fixed
 * @param tierRejectedPct for a keys cell, the rejected share the model predicts per tier (of the
 *                   plan's labels); empty otherwise
 * @param fleet      for a fleet cell, the heavy key's effective limit and admitted rate; null otherwise
 * @param revalidationRace for a library cell, whether the ranges also span the race the model cannot
 *                   know: a background revalidation started as its user's work ends may reach the
 *                   wire before the user's client closes, or not (the value is for "not")
 * @param slowOrigin  when the ranges also span the origin answering as slowly as the cell measured it
 *                   (for a cache that sends every concurrent miss on), which paths and how slowly, e.g.
 *                   "/hare in 512 ms, not its 10 ms"; null otherwise
 * @param paceRange   whether the ranges also span the closed plan's users at their fastest (each a round
 *                   trip of the quickest sample after its answer) beside the pace the run measured, which the
 *                   values are for: that pace is read from the generator's samples matched to the front's
 *                   events, and a machine's scheduler moves it from run to run
 */
public record Prediction(Map<Metric, Double> values, String gap, long overheadMs, Map<Metric, Range> ranges,
        int orders, Map<String, Double> tierRejectedPct, FleetPrediction fleet, boolean revalidationRace,
        String slowOrigin, boolean paceRange) {

    /** The lowest and highest figure the model allows for one metric. */
    public record Range(double low, double high) {
        public boolean contains(double x) {
            return x >= low && x <= high;
        }

        Range union(Range other) {
            return new Range(Math.min(low, other.low), Math.max(high, other.high));
        }
    }

    public Prediction {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        ranges = Collections.unmodifiableMap(new LinkedHashMap<>(ranges));
        tierRejectedPct = Collections.unmodifiableMap(new LinkedHashMap<>(tierRejectedPct));
    }

    public Prediction(Map<Metric, Double> values, String gap, long overheadMs, Map<Metric, Range> ranges, int orders) {
        this(values, gap, overheadMs, ranges, orders, Map.of(), null, false, null, false);
    }

    /** The same prediction with a keys cell's rejected share per tier. */
    Prediction withTiers(Map<String, Double> rejectedPctByTier) {
        return new Prediction(values, gap, overheadMs, ranges, orders, rejectedPctByTier, fleet, revalidationRace,
                slowOrigin, paceRange);
    }

    /** The same prediction with a fleet cell's per-client figures. */
    Prediction withFleet(FleetPrediction f) {
        return new Prediction(values, gap, overheadMs, ranges, orders, tierRejectedPct, f, revalidationRace, slowOrigin,
                paceRange);
    }

    /** The same prediction with each range widened to take in {@code other}'s figures: the revalidation race's other side. */
    Prediction withRaceOf(Prediction other) {
        return new Prediction(values, gap, overheadMs, widened(other), orders, tierRejectedPct, fleet, true, slowOrigin,
                paceRange);
    }

    /**
     * The same prediction with each range widened to take in {@code other}'s figures, the same cell
     * with the origin answering as slowly as {@code which} says it did.
     */
    Prediction withSlowOriginOf(Prediction other, String which) {
        return new Prediction(values, gap, overheadMs, widened(other), orders, tierRejectedPct, fleet, revalidationRace,
                which, paceRange);
    }

    /** The same prediction with each range widened to take in {@code other}'s figures, the same users at their fastest. */
    Prediction withFastestPaceOf(Prediction other) {
        return new Prediction(values, gap, overheadMs, widened(other), orders, tierRejectedPct, fleet, revalidationRace,
                slowOrigin, true);
    }

    private Map<Metric, Range> widened(Prediction other) {
        Map<Metric, Range> wider = new LinkedHashMap<>();
        values.forEach((m, v) -> {
            Range mine = ranges.containsKey(m) ? ranges.get(m) : new Range(v, v);
            Double o = other.value(m);
            Range theirs = other.range(m) != null ? other.range(m) : o == null ? mine : new Range(o, o);
            wider.put(m, mine.union(theirs));
        });
        return wider;
    }

    /** A prediction of one run: the plan sends its paths in a fixed order. */
    public Prediction(Map<Metric, Double> values, String gap, long overheadMs) {
        this(values, gap, overheadMs, Map.of(), 1);
    }

    static Prediction gap(String reason) {
        return new Prediction(Map.of(), reason, 0);
    }

    /** The figures the model allows for the metric, or null when it allows only its value. */
    public Range range(Metric metric) {
        return ranges.get(metric);
    }

    public boolean predicted() {
        return gap == null;
    }

    public Double value(Metric metric) {
        return values.get(metric);
    }
}
