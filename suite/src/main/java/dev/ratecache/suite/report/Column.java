package dev.ratecache.suite.report;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.matrix.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * One column of the report's tables: the figures it shows, its heading and unit, how many
 * decimals, and the reference experiment's figure beside it where there is one. Every view
 * (report.md, index.html, the terminal, the charts) takes its columns from {@link #ALL}, so a
 * new metric is one line there.
 *
 * @param metrics   usually one; several share a cell of the table, joined by " / " (CPU per process)
 * @param reference the reference experiment's figure for this column, or null where it published none
 * @param whenMeasured shown in a plan's table only when one of its cells measured the caches behind
 *                  the edge (the origin's database, its Redis app cache, stale reads): those apply to
 *                  /items plans and app-cache cells only, and would be a column of n/a in every other table
 * @param whenAny   shown only when one of the table's cells has a figure for it: the database pool's and
 *                  PostgreSQL's, which a run reports only when asked (--origin-db postgres, --db-pool)
 */
public record Column(String heading, String unit, int decimals, List<Metric> metrics,
        Function<Reference, Double> reference, boolean whenMeasured, boolean whenAny) {

    /** Every column report.md shows, in order. */
    public static final List<Column> ALL = List.of(
            of(Metric.THROUGHPUT, "throughput", "resp/s", 1).withReference(Reference::throughput),
            of(Metric.REJECTED_PCT, "rejected", "%", 1).withReference(Reference::rejectedPct),
            of(Metric.OTHER_ERRORS_PCT, "other errors", "%", 1),
            of(Metric.MEAN_MS, "mean", "ms", 0).withReference(Reference::meanMs),
            of(Metric.MIN_MS, "min", "ms", 0).withReference(Reference::minMs),
            of(Metric.MAX_MS, "max", "ms", 0).withReference(Reference::maxMs),
            of(Metric.P50_MS, "p50", "ms", 0),
            of(Metric.P90_MS, "p90", "ms", 0),
            of(Metric.P95_MS, "p95", "ms", 0),
            of(Metric.P99_MS, "p99", "ms", 0),
            of(Metric.ADMITTED_P95_MS, "admitted p95", "ms", 0),
            of(Metric.ORIGIN_REQUESTS, "origin requests", "", 0),
            of(Metric.ORIGIN_RATE, "origin", "req/s", 1),
            of(Metric.ORIGIN_PEAK_1S, "origin peak", "req in 1 s", 0),
            of(Metric.EDGE_HIT_PCT, "edge HIT", "%", 1),
            of(Metric.CLIENT_CACHE_HITS, "client-cache hits", "", 0),
            joined("Redis hits / misses", "", 0, Metric.REDIS_HITS, Metric.REDIS_MISSES).onlyWhenMeasured(),
            of(Metric.DATABASE_QUERIES, "database queries", "", 0).onlyWhenMeasured(),
            of(Metric.CACHE_ERRORS, "cache errors", "", 0).onlyWhenMeasured(),
            of(Metric.DB_504S, "504s", "", 0).onlyWhenAny(),
            of(Metric.DB_502S, "502s", "", 0).onlyWhenAny(),
            of(Metric.POOL_WAIT_MEAN_MS, "pool wait", "ms", 1).onlyWhenAny(),
            of(Metric.POOL_ACTIVE_PEAK, "pool active peak", "", 0).onlyWhenAny(),
            of(Metric.STALE_READS, "stale reads", "", 0).onlyWhenMeasured(),
            of(Metric.STALE_PCT, "stale share", "%", 2).onlyWhenMeasured(),
            of(Metric.STALE_OLDEST_MS, "oldest stale", "ms", 0).onlyWhenMeasured(),
            joined("CPU front / back / origin / JMeter", "%", 1,
                    Metric.CPU_FRONT_PCT, Metric.CPU_BACK_PCT, Metric.CPU_ORIGIN_PCT, Metric.CPU_JMETER_PCT),
            of(Metric.CPU_REDIS_PCT, "CPU Redis", "%", 1).onlyWhenMeasured(),
            of(Metric.CPU_POSTGRES_PCT, "CPU PostgreSQL", "%", 1).onlyWhenAny(),
            of(Metric.WALL_S, "wall", "s", 1));

    /** The columns the reference experiment published figures for: summary.json and summary.csv carry them. */
    public static final List<Column> REFERENCED = ALL.stream().filter(c -> c.reference != null).toList();

    /** index.html's tables: what a reader compares at a glance (report.md has the rest). */
    /**
     * The app against the edge, at a glance: origin and Redis CPU beside each other, in the narrow views'
     * tables of cells that measured the caches (report.md has every tier's CPU in one column).
     */
    static final Column CPU_APP = joined("CPU origin / Redis", "%", 1, Metric.CPU_ORIGIN_PCT, Metric.CPU_REDIS_PCT)
            .onlyWhenMeasured();

    /** The caches' columns of the narrow views: speed against staleness, database and Redis. */
    private static List<Column> cachesAtAGlance() {
        List<Column> columns = new ArrayList<>(pick(Metric.REDIS_HITS, Metric.DATABASE_QUERIES, Metric.CACHE_ERRORS,
                Metric.STALE_READS, Metric.STALE_PCT, Metric.STALE_OLDEST_MS));
        columns.add(CPU_APP);
        return columns;
    }

    /** The database's columns of the narrow views: the answers it could not give, the pool's waits, its CPU. */
    private static List<Column> databaseAtAGlance() {
        return pick(Metric.DB_504S, Metric.DB_502S, Metric.POOL_WAIT_MEAN_MS, Metric.POOL_ACTIVE_PEAK,
                Metric.CPU_POSTGRES_PCT);
    }

    private static List<Column> concat(List<Column> first, List<Column> second) {
        List<Column> all = new ArrayList<>(first);
        all.addAll(second);
        return List.copyOf(all);
    }

    public static final List<Column> HTML = concat(concat(pick(Metric.THROUGHPUT, Metric.REJECTED_PCT,
            Metric.OTHER_ERRORS_PCT, Metric.MEAN_MS, Metric.P95_MS, Metric.ORIGIN_REQUESTS, Metric.EDGE_HIT_PCT,
            Metric.CLIENT_CACHE_HITS), cachesAtAGlance()), databaseAtAGlance());

    /** The terminal's tables: narrow enough for a wide terminal, even with spreads over repeats. */
    public static final List<Column> TERMINAL = concat(pick(Metric.THROUGHPUT, Metric.REJECTED_PCT,
            Metric.OTHER_ERRORS_PCT, Metric.MEAN_MS, Metric.P95_MS, Metric.MAX_MS, Metric.ORIGIN_REQUESTS,
            Metric.EDGE_HIT_PCT, Metric.CLIENT_CACHE_HITS), concat(concat(cachesAtAGlance(), databaseAtAGlance()),
            pick(Metric.WALL_S)));

    /** The per-plan bar charts (index.html and charts/*.png). */
    public static final List<Column> CHARTED = pick(Metric.THROUGHPUT, Metric.REJECTED_PCT, Metric.P95_MS,
            Metric.ORIGIN_REQUESTS);

    static Column of(Metric metric, String heading, String unit, int decimals) {
        return new Column(heading, unit, decimals, List.of(metric), null, false, false);
    }

    static Column joined(String heading, String unit, int decimals, Metric... metrics) {
        return new Column(heading, unit, decimals, List.of(metrics), null, false, false);
    }

    Column withReference(Function<Reference, Double> figure) {
        return new Column(heading, unit, decimals, metrics, figure, whenMeasured, whenAny);
    }

    Column onlyWhenMeasured() {
        return new Column(heading, unit, decimals, metrics, reference, true, whenAny);
    }

    Column onlyWhenAny() {
        return new Column(heading, unit, decimals, metrics, reference, whenMeasured, true);
    }

    /** Whether a table of these cells shows this column: always, or for a caches column when a cell measured it. */
    public boolean shownFor(List<CellResult> cells) {
        if (whenAny) {
            return cells.stream().anyMatch(r -> r.runs().stream().anyMatch(m -> metric().of(m) != null));
        }
        return !whenMeasured || cells.stream().anyMatch(r -> r.runs().stream().anyMatch(m -> m.caches() != null));
    }

    /** The columns of {@link #ALL} that show these metrics (each column picked by its first metric), in this order. */
    public static List<Column> pick(Metric... metrics) {
        List<Column> picked = new ArrayList<>();
        for (Metric m : metrics) {
            picked.add(ALL.stream().filter(c -> c.metric() == m).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no column shows " + m.id())));
        }
        return List.copyOf(picked);
    }

    /** The metric the column stands for (the first of a joined column). */
    public Metric metric() {
        return metrics.get(0);
    }

    /** The heading with its unit, e.g. "throughput (resp/s)". */
    public String label() {
        return unit.isEmpty() ? heading : heading + " (" + unit + ")";
    }

    /** The reference's figure for this column, if the cell has a reference and it published one. */
    public Double referenceOf(Optional<Reference> ref) {
        return reference == null ? null : ref.map(reference).orElse(null);
    }

    /**
     * The cell's figure: the median, with the spread as [min-max] when it ran several times, and
     * the reference's figure in brackets where there is one.
     */
    public String format(CellResult r, Optional<Reference> ref) {
        String ours = String.join(" / ", metrics.stream().map(m -> median(r, m)).toList());
        Double theirs = referenceOf(ref);
        return theirs == null ? ours : ours + String.format(Locale.ROOT, " (%." + decimals + "f)", theirs);
    }

    private String median(CellResult r, Metric m) {
        Double v = r.median(m);
        if (v == null) {
            return "n/a";
        }
        String f = "%." + decimals + "f";
        String median = String.format(Locale.ROOT, f, v);
        return r.runs().size() < 2 ? median
                : median + String.format(Locale.ROOT, " [" + f + "-" + f + "]", r.min(m), r.max(m));
    }
}
