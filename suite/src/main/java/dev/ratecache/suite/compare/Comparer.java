package dev.ratecache.suite.compare;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares two run folders cell by cell, matching cells by name. Each metric's noise is measured
 * from the richest data both runs kept: their samples (JTLs), else their per-second series
 * (timeline.json), else the spread of their repeats when both repeated; else it is not judged.
 */
public final class Comparer {
    private Comparer() {}

    public static Comparison compare(RunFolder a, RunFolder b) throws IOException {
        Set<String> names = new LinkedHashSet<>(a.cells().keySet());
        names.addAll(b.cells().keySet());
        List<CellComparison> cells = new ArrayList<>();
        boolean switchesDiffer = !a.switches().equals(b.switches());
        for (String name : names) {
            RunFolder.CellSummary ofA = a.cells().get(name);
            RunFolder.CellSummary ofB = b.cells().get(name);
            RunFolder.CellSummary counterpart;
            if (ofA == null && switchesDiffer && (counterpart = counterpart(ofB, a)) != null) {
                cells.add(cell(a, b, counterpart, ofB, ofB.name()));
            } else if (ofB == null && switchesDiffer && (counterpart = counterpart(ofA, b)) != null) {
                cells.add(cell(a, b, ofA, counterpart, ofA.name()));
            } else if (ofA == null) {
                cells.add(new CellComparison(name, CellComparison.Presence.ADDED, "", List.of(), List.of()));
            } else if (ofB == null) {
                cells.add(new CellComparison(name, CellComparison.Presence.REMOVED, "", List.of(), List.of()));
            } else {
                cells.add(cell(a, b, ofA, ofB, name));
            }
        }
        return new Comparison(a.dir(), b.dir(), a.switches(), b.switches(), runDifferences(a, b), cells);
    }

    /** The runs' settings (profile, matrix, ...) and switches that differ, one clause each. */
    private static List<String> runDifferences(RunFolder a, RunFolder b) {
        List<String> differences = new ArrayList<>();
        for (String setting : RunFolder.SETTINGS) {
            String ofA = a.settings().get(setting);
            String ofB = b.settings().get(setting);
            if (ofA != null && ofB != null && !ofA.equals(ofB)) {
                differences.add(setting + " " + ofA + " -> " + ofB);
            }
        }
        differences.addAll(SwitchesDiff.of(a.switches(), b.switches()));
        return differences;
    }

    /**
     * The other run's cell that stands for {@code cell} when the other run's switches left it out:
     * {@code --no-cache} keeps only the cells without the edge cache, so B's stress/no-caching is
     * what A's stress/server-cache became. It is the one cell of the same plan whose description
     * differs in a single clause ("server cache on" against "off"); null when there is none, or
     * more than one.
     */
    static RunFolder.CellSummary counterpart(RunFolder.CellSummary cell, RunFolder other) {
        String plan = planOf(cell.name());
        List<RunFolder.CellSummary> found = other.cells().values().stream()
                .filter(c -> planOf(c.name()).equals(plan))
                .filter(c -> SwitchesDiff.of(cell.description(), c.description()).size() == 1)
                .toList();
        return found.size() == 1 ? found.get(0) : null;
    }

    private static String planOf(String cell) {
        int slash = cell.indexOf('/');
        return slash < 0 ? cell : cell.substring(0, slash);
    }

    /** A's cell {@code ofA} against B's {@code ofB}, shown as {@code name}: the same cell, or its counterpart. */
    private static CellComparison cell(RunFolder a, RunFolder b, RunFolder.CellSummary ofA, RunFolder.CellSummary ofB,
            String name) throws IOException {
        List<String> differences = new ArrayList<>(runDifferences(a, b));
        SwitchesDiff.of(ofA.description(), ofB.description()).stream().filter(d -> !differences.contains(d))
                .forEach(differences::add);
        if (!ofA.name().equals(ofB.name())) {
            differences.add(ofA.name() + " -> " + ofB.name() + " (" + (name.equals(ofA.name()) ? "B" : "A")
                    + "'s switches leave no " + name + ")");
        }
        if (!ofA.ok() || !ofB.ok()) {
            String note = (!ofA.ok() ? "A's " : "") + (!ofA.ok() && !ofB.ok() ? "and " : "") + (!ofB.ok() ? "B's " : "")
                    + "cell did not complete (" + (!ofA.ok() ? ofA.status() : ofB.status()) + "): not compared";
            return new CellComparison(name, CellComparison.Presence.BOTH, note, differences, List.of());
        }
        List<List<dev.ratecache.jtl.Sample>> rawA = a.samples(ofA.name());
        List<List<dev.ratecache.jtl.Sample>> rawB = b.samples(ofB.name());
        List<Noise.Samples> samplesA = rawA.stream().map(Noise.Samples::of).toList();
        List<Noise.Samples> samplesB = rawB.stream().map(Noise.Samples::of).toList();
        boolean repeatedSamples = rawA.size() >= Noise.REPEATS_FOR_WELCH && rawB.size() >= Noise.REPEATS_FOR_WELCH;
        boolean samples = !samplesA.isEmpty() && !samplesB.isEmpty();
        Map<CompareMetric, Noise.Interval> fromSamples = Map.of();
        double pValue = Double.NaN;
        if (samples) {
            fromSamples = Noise.ofSamples(samplesA, samplesB);
            pValue = Noise.mannWhitneyP(Noise.Samples.pooled(samplesA), Noise.Samples.pooled(samplesB));
        }
        List<MetricComparison> metrics = new ArrayList<>();
        for (CompareMetric m : CompareMetric.values()) {
            RunFolder.Spread sa = ofA.metrics().get(m.id());
            RunFolder.Spread sb = ofB.metrics().get(m.id());
            if (sa == null || sb == null) {
                continue;
            }
            Noise.Interval interval = Noise.Interval.NONE;
            PerSecond series;
            String method = "none: one repeat each and no samples or per-second series";
            double p = Double.NaN;
            if (m.source() == CompareMetric.Source.SAMPLES && samples) {
                interval = fromSamples.get(m);
                method = "bootstrap of " + Noise.describe(samplesA) + " and " + Noise.describe(samplesB);
                p = m == CompareMetric.REJECTED_PCT || m == CompareMetric.OTHER_ERRORS_PCT ? Double.NaN : pValue;
            } else if (m == CompareMetric.THROUGHPUT && repeatedSamples) {
                interval = Noise.ofRepeatFigures(Noise.throughputs(rawA), Noise.throughputs(rawB));
                method = "Welch's t over " + rawA.size() + " and " + rawB.size() + " repeats' throughput";
            } else if (m.source() != CompareMetric.Source.SAMPLES && (series = perSecond(a, ofA.name(), b, ofB.name(), m)) != null) {
                interval = series.interval(sa.median());
                method = series.byRepeats() ? "Welch's t over " + series.a().size() + " and " + series.b().size()
 + " repeats' counts" : "bootstrap of " + series.seconds() + " seconds";
            } else if (ofA.runs() > 1 && ofB.runs() > 1) {
                interval = Noise.ofRepeats(sa, sb);
                method = "spread of " + ofA.runs() + " and " + ofB.runs() + " repeats";
            }
            metrics.add(new MetricComparison(m, sa.median(), sb.median(), interval.low(), interval.high(), method, p,
                    MetricComparison.judge(m, sa.median(), sb.median(), interval.low(), interval.high())));
        }
        return new CellComparison(name, CellComparison.Presence.BOTH, "", differences, metrics, busier(ofA, ofB),
                ChangeWords.of(differences, metrics, ofA.predicted(), ofB.predicted()));
    }

    /**
     * Points of machine CPU by which one run's cell was busier than the other's before it is said:
     * the suite's own load is the same in both, so the rest is a neighbour's, which slows every
     * response of the run alike and no interval of its samples can see.
     */
    static final double BUSIER_POINTS = 15;

    private static List<String> busier(RunFolder.CellSummary a, RunFolder.CellSummary b) {
        RunFolder.Spread cpuA = a.metrics().get("machine_cpu_pct");
        RunFolder.Spread cpuB = b.metrics().get("machine_cpu_pct");
        if (cpuA == null || cpuB == null || Math.abs(cpuB.median() - cpuA.median()) < BUSIER_POINTS) {
            return List.of();
        }
        String which = cpuB.median() > cpuA.median() ? "B" : "A";
        return List.of(String.format(java.util.Locale.ROOT, "the machine was busier in %s's run of this cell (CPU %.0f %% in"
                + " A, %.0f %% in B): a latency or throughput change may be the machine's, not the config's", which,
                cpuA.median(), cpuB.median()));
    }

    /** Both runs' per-second series of a metric, and the interval they give. */
    private record PerSecond(List<List<Long>> a, List<List<Long>> b, boolean sum) {
        String seconds() {
            return a.stream().mapToInt(List::size).sum() + " and " + b.stream().mapToInt(List::size).sum();
        }

        /**
         * The interval in summary.json's unit: the series' figure (a mean rate, a sum of requests)
         * approaches summary.json's, so the interval is scaled by A's ratio of the two.
         */
        /**
         * Whether each repeat's count (the sum of its seconds) gives the interval: both sides repeated
         * enough. A rate's seconds do not: a repeat's mean of whole seconds is its count over a whole
         * number of seconds, so its repeats tie; throughput takes each repeat's samples instead.
         */
        boolean byRepeats() {
            return sum && a.size() >= Noise.REPEATS_FOR_WELCH && b.size() >= Noise.REPEATS_FOR_WELCH;
        }

        Noise.Interval interval(double summaryA) {
            Noise.Interval raw = byRepeats() ? Noise.ofRepeatFigures(Noise.perRepeat(a, sum), Noise.perRepeat(b, sum))
                    : Noise.ofSeconds(a, b, sum);
            double own = Noise.statistic(a, sum);
            double scale = own > 0 && summaryA > 0 ? summaryA / own : 1;
            return new Noise.Interval(raw.low() * scale, raw.high() * scale);
        }
    }

    /** The series of throughput (every response a second) or of origin requests; null when a side has none. */
    private static PerSecond perSecond(RunFolder a, String cellA, RunFolder b, String cellB, CompareMetric m)
            throws IOException {
        List<List<Long>> ofA = m == CompareMetric.THROUGHPUT ? responses(a, cellA) : a.perSecond(cellA, "origin");
        List<List<Long>> ofB = m == CompareMetric.THROUGHPUT ? responses(b, cellB) : b.perSecond(cellB, "origin");
        if (ofA.isEmpty() || ofB.isEmpty()) {
            return null;
        }
        return new PerSecond(ofA, ofB, m.source() == CompareMetric.Source.PER_SECOND_COUNT);
    }

    /** Responses a second, each repeat's: answered, rejected and failed, as throughput counts them. */
    private static List<List<Long>> responses(RunFolder run, String cell) throws IOException {
        List<List<Long>> answered = run.perSecond(cell, "answered_2xx");
        List<List<Long>> rejected = run.perSecond(cell, "rejected");
        List<List<Long>> other = run.perSecond(cell, "other_errors");
        if (answered.size() != rejected.size() || answered.size() != other.size()) {
            return List.of();
        }
        List<List<Long>> responses = new ArrayList<>();
        for (int k = 0; k < answered.size(); k++) {
            List<Long> second = new ArrayList<>();
            for (int i = 0; i < answered.get(k).size(); i++) {
                second.add(answered.get(k).get(i) + at(rejected.get(k), i) + at(other.get(k), i));
            }
            responses.add(second);
        }
        return responses;
    }

    private static long at(List<Long> series, int i) {
        return i < series.size() ? series.get(i) : 0;
    }
}
