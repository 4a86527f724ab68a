package dev.ratecache.suite.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What changed in a cell, in words, beside the figures: "front burst 200 -> 50: rejections rose from
 * 0.2 % to 31 %, as the model predicted (30.4 %)". A reader who changed one switch asks whether the
 * figures moved the way the change should move them; the model's prediction of both sides says which
 * way that is, so a change it did not foresee (or one it foresaw that did not come) stands out.
 */
final class ChangeWords {
    /**
     * A predicted change this large (a share of A's prediction) that did not happen is said too: a
     * smaller one is within what the model itself is sure of (its tolerance is 20 %).
     */
    static final double MISSED_SHARE = 0.10;

    private ChangeWords() {}

    /**
     * One line per metric judged better or worse, and per metric the model predicted to move that
     * stayed; one line saying nothing moved when that is so. None when nothing was judged.
     *
     * @param differences what differs between the two sides, as compare names it ("front burst 200 -> 50")
     * @param predictedA  the model's prediction of A's cell, by metric id; empty for none
     */
    static List<String> of(List<String> differences, List<MetricComparison> metrics, Map<String, Double> predictedA,
            Map<String, Double> predictedB) {
        String what = differences.isEmpty() ? "with the same switches" : String.join(", ", differences);
        List<String> words = new ArrayList<>();
        boolean judged = false;
        for (MetricComparison m : metrics) {
            if (m.verdict() == Verdict.UNJUDGED) {
                continue;
            }
            judged = true;
            Double pa = predictedA.get(m.metric().id());
            Double pb = predictedB.get(m.metric().id());
            if (m.verdict() == Verdict.BETTER || m.verdict() == Verdict.WORSE) {
                words.add(what + ": " + noun(m.metric()) + (m.b() > m.a() ? " rose" : " fell") + " from "
                        + figure(m.metric(), m.a()) + " to " + figure(m.metric(), m.b()) + model(m, pa, pb));
            } else if (pa != null && pb != null && foreseen(m.metric(), pa, pb)
                    && Math.abs(pb - pa) > MISSED_SHARE * Math.abs(pa)) {
                // The figures as measured, moved or not: a wide interval may hold a large move.
                String moved = m.b() == m.a() ? " stayed at " + figure(m.metric(), m.b())
                        : (m.b() > m.a() ? " rose" : " fell") + " from " + figure(m.metric(), m.a()) + " to "
                                + figure(m.metric(), m.b());
                words.add(what + ": " + noun(m.metric()) + moved + " (the same within noise), though the model"
                        + " predicted a " + (pb > pa ? "rise" : "fall") + " from " + figure(m.metric(), pa) + " to "
                        + figure(m.metric(), pb));
            }
        }
        if (judged && words.isEmpty()) {
            words.add(what + ": no metric moved beyond the noise");
        }
        return words;
    }

    /** The model's prediction of the change beside the measured one; empty when it predicts the metric on neither side. */
    private static String model(MetricComparison m, Double pa, Double pb) {
        if (pa == null || pb == null) {
            return "";
        }
        boolean up = m.b() > m.a();
        if (!foreseen(m.metric(), pa, pb)) {
            return ", though the model predicted no change (" + figure(m.metric(), pa) + " -> " + figure(m.metric(), pb) + ")";
        }
        if ((pb > pa) == up) {
            return ", as the model predicted (" + figure(m.metric(), pb) + ")";
        }
        return ", though the model predicted a " + (pb > pa ? "rise" : "fall") + " to " + figure(m.metric(), pb);
    }

    /** Whether the model's two figures differ by more than the least change compare counts. */
    private static boolean foreseen(CompareMetric metric, double pa, double pb) {
        return Math.abs(pb - pa) > metric.floor(pa);
    }

    static String noun(CompareMetric metric) {
        return switch (metric) {
            case THROUGHPUT -> "throughput";
            case REJECTED_PCT -> "rejections";
            case OTHER_ERRORS_PCT -> "other errors";
            case ORIGIN_REQUESTS -> "origin requests";
            case MEAN_MS -> "mean latency";
            case P50_MS -> "p50 latency";
            case P90_MS -> "p90 latency";
            case P95_MS -> "p95 latency";
            case P99_MS -> "p99 latency";
        };
    }

    /** "31 %", "120 ms", "27.6 responses/s", "368" (a count needs no unit). */
    static String figure(CompareMetric metric, double v) {
        String figure = MetricComparison.figure(v);
        return metric.unit().equals("count") ? figure : figure + " " + metric.unit();
    }
}
