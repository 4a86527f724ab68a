package dev.ratecache.suite.compare;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * compare's own error rates, over comparisons whose truth is known (docs/compare.md, "Its own error
 * rates"). Two runs of one config: every metric judged better or worse is a false alarm. A known
 * change: it should be found, with its direction, in the metrics it moves, and be the same within
 * noise in every other.
 */
final class ErrorRates {
    private ErrorRates() {}

    /** A metric of a cell, as judged. */
    public record Flag(String cell, MetricComparison metric) {
        public String text() {
            return cell + "." + metric.metric().id() + " " + MetricComparison.figure(metric.a()) + " -> "
                    + MetricComparison.figure(metric.b()) + " (" + metric.changeText() + ", " + metric.verdict()
                    .name().toLowerCase(Locale.ROOT) + ")";
        }
    }

    /**
     * Two runs of one config.
     *
     * @param judged  the metrics judged (not those without a noise measure)
     * @param flagged those judged better or worse: every one a false alarm
     */
    public record SameConfig(int judged, List<Flag> flagged) {
        public double falseAlarmPct() {
            return judged == 0 ? Double.NaN : 100.0 * flagged.size() / judged;
        }
    }

    /**
     * A known change.
     *
     * @param expected  the metrics the model says the change moves, with the way it moves them
     * @param found     of those, the ones judged to have moved that way
     * @param wrongWay  of those, the ones judged to have moved the other way
     * @param others    the metrics judged that the model says the change does not move
     * @param stray     of those, the ones judged better or worse anyway
     */
    public record KnownChange(List<String> expected, List<Flag> found, List<Flag> wrongWay, int others,
            List<Flag> stray) {
        public double detectedPct() {
            return expected.isEmpty() ? Double.NaN : 100.0 * found.size() / expected.size();
        }

        public double strayPct() {
            return others == 0 ? Double.NaN : 100.0 * stray.size() / others;
        }
    }

    public static SameConfig sameConfig(Comparison c) {
        int judged = 0;
        List<Flag> flagged = new ArrayList<>();
        for (CellComparison cell : c.cells()) {
            for (MetricComparison m : cell.metrics()) {
                if (m.verdict() == Verdict.UNJUDGED) {
                    continue;
                }
                judged++;
                if (m.verdict() != Verdict.SAME) {
                    flagged.add(new Flag(cell.name(), m));
                }
            }
        }
        return new SameConfig(judged, flagged);
    }

    /**
     * A known change, judged against what should move: per cell, the metrics the change moves, each
     * with whether up ({@link #moves}); every other metric judged should be the same within noise.
     */
    public static KnownChange knownChange(Comparison c, Map<String, Map<CompareMetric, Boolean>> shouldMove) {
        List<String> expected = new ArrayList<>();
        List<Flag> found = new ArrayList<>();
        List<Flag> wrongWay = new ArrayList<>();
        List<Flag> stray = new ArrayList<>();
        int others = 0;
        for (CellComparison cell : c.cells()) {
            if (cell.presence() != CellComparison.Presence.BOTH || cell.metrics().isEmpty()) {
                continue;
            }
            Map<CompareMetric, Boolean> moves = shouldMove.getOrDefault(cell.name(), Map.of());
            for (MetricComparison m : cell.metrics()) {
                if (m.verdict() == Verdict.UNJUDGED) {
                    continue;
                }
                Boolean up = moves.get(m.metric());
                Flag flag = new Flag(cell.name(), m);
                if (up == null) {
                    others++;
                    if (m.verdict() != Verdict.SAME) {
                        stray.add(flag);
                    }
                    continue;
                }
                expected.add(cell.name() + "." + m.metric().id() + (up ? " up" : " down"));
                if (m.verdict() != Verdict.SAME) {
                    (m.b() > m.a() == up ? found : wrongWay).add(flag);
                }
            }
        }
        return new KnownChange(expected, found, wrongWay, others, stray);
    }

    /**
     * The metrics a change moves, by the model's predictions of a cell before and after it (by
     * metric id), each with whether up: those whose two figures differ by more than compare's
     * floor. The model predicts throughput, rejections, origin requests, p50 and p95; the mean, p90
     * and p99 move as its p95 does (else its p50), and other errors never.
     */
    public static Map<CompareMetric, Boolean> moves(Map<String, Double> predictedA, Map<String, Double> predictedB) {
        Map<CompareMetric, Boolean> moves = new EnumMap<>(CompareMetric.class);
        for (CompareMetric m : CompareMetric.values()) {
            moved(m, predictedA, predictedB).ifPresent(up -> moves.put(m, up));
        }
        Optional<Boolean> tail = Optional.ofNullable(moves.get(CompareMetric.P95_MS))
                .or(() -> Optional.ofNullable(moves.get(CompareMetric.P50_MS)));
        tail.ifPresent(up -> List.of(CompareMetric.MEAN_MS, CompareMetric.P90_MS, CompareMetric.P99_MS)
                .forEach(m -> moves.putIfAbsent(m, up)));
        moves.remove(CompareMetric.OTHER_ERRORS_PCT);
        return moves;
    }

    private static Optional<Boolean> moved(CompareMetric m, Map<String, Double> predictedA, Map<String, Double> predictedB) {
        Double pa = predictedA.get(m.id());
        Double pb = predictedB.get(m.id());
        if (pa == null || pb == null || Math.abs(pb - pa) <= m.floor(pa)) {
            return Optional.empty();
        }
        return Optional.of(pb > pa);
    }

    /**
     * Per metric, how far runs of one config drifted apart: the median and the largest change, in per
     * cent of A, over the pairs' cells where A is not 0.
     */
    public record Drift(int cells, double medianPct, double largestPct) {}


    public static Map<CompareMetric, Drift> drift(List<Comparison> sameConfig) {
        Map<CompareMetric, Drift> drift = new EnumMap<>(CompareMetric.class);
        for (CompareMetric metric : CompareMetric.values()) {
            double[] changes = sameConfig.stream().flatMap(x -> x.cells().stream()).flatMap(c -> c.metrics().stream())
                    .filter(m -> m.metric() == metric && m.a() != 0).mapToDouble(m -> Math.abs(m.changePct()))
                    .sorted().toArray();
            if (changes.length > 0) {
                double median = changes.length % 2 == 1 ? changes[changes.length / 2]
                        : (changes[changes.length / 2 - 1] + changes[changes.length / 2]) / 2;
                drift.put(metric, new Drift(changes.length, median, changes[changes.length - 1]));
            }
        }
        return drift;
    }
}
