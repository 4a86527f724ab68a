package dev.ratecache.suite.reproduce;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.WrkGenerator;
import dev.ratecache.suite.report.ReportSection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An experiment's section of the report: its published table beside our cells row by row, why
 * ours differs where it does, and what it found then beside what this run finds.
 */
public final class ReproductionSection {
    /** Ours further than this share of theirs from the published throughput differs, as the reference's rows do. */
    static final double SAME_WITHIN = 0.25;

    private ReproductionSection() {}

    public static ReportSection of(Experiment e, List<CellResult> cells) {
        Measured measured = new Measured(cells);
        List<Metric> metrics = metrics(e);
        List<String> headings = new ArrayList<>(List.of("published row", "here"));
        metrics.forEach(m -> headings.add(PublishedFigure.heading(m) + ": published / here"));
        headings.add("here / published req/s");
        headings.add("why ours differs");
        List<ReportSection.Row> rows = new ArrayList<>();
        for (PublishedRow p : e.published()) {
            List<String> row = new ArrayList<>(List.of(p.row(), p.cell() == null ? "no cell" : p.cell()));
            for (Metric m : metrics) {
                String ours = p.cell() == null ? "" : " / " + PublishedFigure.format(m, measured.median(p.cell(), m).orElse(null));
                row.add(p.figure(m).map(PublishedFigure::printed).orElse("n/a") + ours);
            }
            Optional<Double> ratio = p.cell() == null ? Optional.empty()
                    : measured.median(p.cell(), Metric.THROUGHPUT).map(t -> t / p.throughput());
            row.add(ratio.map(r -> String.format(Locale.ROOT, "%.2f", r)).orElse("n/a"));
            row.add(why(p, measured));
            rows.add(ReportSection.Row.of(row));
        }
        List<String> lines = new ArrayList<>();
        lines.add("Then: " + e.foundThen());
        List<String> here = e.foundHere(measured);
        lines.add("Here: " + here.get(0));
        lines.addAll(here.subList(1, here.size()));
        lines.addAll(latencyNotes(e, measured));
        return new ReportSection("Seed " + e.seed() + " reproduced (" + e.name() + "): " + e.title(),
                "Published: " + e.source() + ", " + e.writeUp().link() + "; " + e.tool() + ". Here: " + e.here() + ", under the same tool and"
                        + " parameters. Each published row stands beside the cell of ours with its shape; where our"
                        + " throughput is more than a quarter off theirs, the last column says why.",
                List.of(new ReportSection.Table(headings, rows)), lines, Map.of()).definedIn("reproductions.md");
    }

    /**
     * A line for each wrk cell whose mean latency is more than its connections allow at its rate
     * (each waits for one answer at a time, so at most connections / rate: Little's law). wrk 4
     * adds to its latency, for every answer that took more than twice a connection's average
     * interval, the answers that connection would have sent meanwhile (stats_correct, its
     * correction for coordinated omission): stalls of its threads count many times over.
     */
    static List<String> latencyNotes(Experiment e, Measured measured) {
        List<String> notes = new ArrayList<>();
        for (Cell c : e.cells()) {
            String connections = c.properties().get(WrkGenerator.CONNECTIONS);
            Optional<Double> rate = measured.median(c.name(), Metric.THROUGHPUT).filter(r -> r > 0);
            Optional<Double> mean = measured.median(c.name(), Metric.MEAN_MS);
            if (c.generator() != Generator.WRK || connections == null || rate.isEmpty() || mean.isEmpty()) {
                continue;
            }
            double bound = 1000 * Integer.parseInt(connections) / rate.get();
            if (mean.get() > (1 + SAME_WITHIN) * bound) {
                notes.add(String.format(Locale.ROOT, "Read %s's latency with care: wrk's mean, %.2f ms, is more than"
                        + " its %s connections allow at %.2f requests/s (%.2f ms, each waiting on one answer at a"
                        + " time). wrk adds to its latency, for every answer that took over twice a connection's"
                        + " average interval, the answers it would have sent meanwhile (its correction for coordinated"
                        + " omission), so the stalls of its threads on cores it shares with the servers count many"
                        + " times over; its requests and rate are as they came. The published latency went through"
                        + " the same correction.", c.name(), mean.get(), connections, rate.get(), bound));
            }
        }
        return notes;
    }

    /** The metrics any row of {@code e} published, in the order they first appear. */
    static List<Metric> metrics(Experiment e) {
        List<Metric> metrics = new ArrayList<>();
        for (PublishedRow p : e.published()) {
            p.figures().stream().map(PublishedFigure::metric).filter(m -> !metrics.contains(m)).forEach(metrics::add);
        }
        return metrics;
    }

    /** Why the row's figures and ours differ: its reason when they do, or that they agree, or that ours failed. */
    static String why(PublishedRow p, Measured measured) {
        if (p.cell() == null) {
            return p.whyOursDiffers();
        }
        Optional<Double> ours = measured.median(p.cell(), Metric.THROUGHPUT);
        if (ours.isEmpty()) {
            return "not measured: " + measured.missing(p.cell());
        }
        return differs(p.throughput(), ours.get()) ? p.whyOursDiffers()
                : "within a quarter of theirs: nothing to explain";
    }

    static boolean differs(double published, double ours) {
        return Math.abs(ours - published) > SAME_WITHIN * published;
    }
}
