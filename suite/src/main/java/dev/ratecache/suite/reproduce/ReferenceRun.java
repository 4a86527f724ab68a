package dev.ratecache.suite.reproduce;

import static dev.ratecache.suite.matrix.Metric.MAX_MS;
import static dev.ratecache.suite.matrix.Metric.MEAN_MS;
import static dev.ratecache.suite.matrix.Metric.MIN_MS;
import static dev.ratecache.suite.matrix.Metric.REJECTED_PCT;
import static dev.ratecache.suite.matrix.Metric.THROUGHPUT;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Source;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Seed 004, the reference experiment: the default run's matrix as it is, its published figures
 * those its plans hold ({@link Plan#references()}), so that the default run and this one show the
 * same table.
 */
final class ReferenceRun implements Experiment {
    /** The write-up's words for each row, by the plans' reference rows. */
    private static final Map<String, String> STRESS_ROWS = Map.of(Cell.NO_CACHING, "No caching",
            Cell.SERVER_CACHE, "Server-side caching only", Cell.CLIENT_CACHE, "Client-side caching only",
            Cell.BOTH, "Client and server caching", Cell.DIRECT, "Direct to application server (no rate limiting)");
    private static final Map<String, String> LOAD_ROWS = Map.of(Cell.NO_CACHING, "No caching",
            Cell.SERVER_CACHE, "With server-side caching only", Cell.CLIENT_CACHE, "With client-side caching only",
            Cell.BOTH, "With client-side and server-side caching");
    private static final List<String> ORDER = List.of(Cell.NO_CACHING, Cell.SERVER_CACHE, Cell.CLIENT_CACHE, Cell.BOTH,
            Cell.DIRECT);

    private static final About ABOUT = new About("reference", "004",
            "the reference experiment: rate limiting and caching in two nginx tiers",
            "the reference experiment, " + Source.REFERENCE.cite() + ": JMeter against two nginx tiers in front of an app server, client"
                + " and servers on one machine",
            "JMeter: the stress plan (100 users x 10 loops on /hare) and the load plan (10 users x 10 loops over"
                + " /tortoise, /hare and /snail in random order)",
            "the default run's matrix (./run-tests.sh with no flags): the same plans through the suite's two nginx"
                + " tiers and its origin, plus the client library's rows",
            "Server-side caching took the stress plan from 23 to 99.3 responses/s and its 503s from 54 % to none"
                + " (the write-up's \"5x\"), and the load plan from 1.4 to 20 responses/s (its \"12x\").",
            publishedRows(), List.of(), false);

    @Override
    public About about() {
        return ABOUT;
    }

    @Override
    public List<Cell> cells() {
        return Matrix.reference(Plan.REFERENCE);
    }

    /** The reference experiment's published figures, the plans' own, as rows. */
    private static List<PublishedRow> publishedRows() {
        List<PublishedRow> rows = new ArrayList<>();
        for (Plan plan : Plan.REFERENCE) {
            Map<String, String> words = plan == Plan.STRESS ? STRESS_ROWS : LOAD_ROWS;
            for (String row : ORDER) {
                Reference r = plan.references().get(row);
                if (r != null) {
                    rows.add(row(plan.name() + ": " + words.get(row), plan.name() + "/" + row, r));
                }
            }
        }
        return rows;
    }

    private static PublishedRow row(String words, String cell, Reference r) {
        List<PublishedFigure> figures = new ArrayList<>(List.of(PublishedFigure.of(THROUGHPUT, r.throughput()),
                PublishedFigure.of(REJECTED_PCT, r.rejectedPct())));
        if (r.meanMs() != null) {
            figures.add(PublishedFigure.of(MEAN_MS, r.meanMs()));
            figures.add(PublishedFigure.of(MIN_MS, r.minMs()));
            figures.add(PublishedFigure.of(MAX_MS, r.maxMs()));
        }
        return new PublishedRow(words, cell, figures, r.whyOursDiffers());
    }

    @Override
    public List<String> foundHere(Measured m) {
        Optional<String> stress = gain(m, "stress", true);
        Optional<String> load = gain(m, "load", false);
        if (stress.isEmpty() || load.isEmpty()) {
            return List.of("Not measured: " + m.missing(stress.isEmpty() ? "stress/" + Cell.SERVER_CACHE
                    : "load/" + Cell.SERVER_CACHE) + " (or its no-caching cell).");
        }
        return List.of("Server-side caching took the stress plan " + stress.get() + ", and the load plan " + load.get()
                + ". Each row's difference from the published one, and why, is under the plans' tables.");
    }

    /** "from A to B responses/s (N times)", with "and its rejections from X % to Y %", for a plan whose cells both ran. */
    private static Optional<String> gain(Measured m, String plan, boolean rejections) {
        String none = plan + "/" + Cell.NO_CACHING;
        String cached = plan + "/" + Cell.SERVER_CACHE;
        Optional<Double> from = m.median(none, THROUGHPUT);
        Optional<Double> to = m.median(cached, THROUGHPUT);
        if (from.isEmpty() || to.isEmpty()) {
            return Optional.empty();
        }
        String gain = String.format(Locale.ROOT, "from %.1f to %.1f responses/s (%.1f times)", from.get(), to.get(),
                to.get() / from.get());
        return Optional.of(!rejections ? gain : gain + String.format(Locale.ROOT, " and its rejections from %.1f %% to"
                + " %.1f %%", m.median(none, Metric.REJECTED_PCT).orElse(Double.NaN),
                m.median(cached, Metric.REJECTED_PCT).orElse(Double.NaN)));
    }
}
