package dev.ratecache.suite.kinds.db;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.DatabaseFigures;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Metric;
import dev.ratecache.suite.predict.CellPrediction;
import dev.ratecache.suite.report.ReportSection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section of --matrix db: the database endpoint behind each cache, and the pool sweep
 * with the model's throughput and 504 share beside the measured, then where the sweep's optimum
 * lies on this machine against HikariCP's pool-sizing note (about cores x 2 connections).
 */
public final class DbSection {
    static final List<String> HEADINGS = List.of("cell", "pool", "throughput (measured / model)", "p99 (ms)",
            "pool wait (ms)", "504 % (measured / model)", "database queries", "PostgreSQL CPU %", "origin CPU %");

    private DbSection() {}

    /** The section, when any cell is --matrix db's; {@code cores} is this machine's. */
    public static List<ReportSection> of(List<CellResult> cells, Map<String, CellPrediction> predictions) {
        return of(cells, predictions, Runtime.getRuntime().availableProcessors());
    }

    static List<ReportSection> of(List<CellResult> cells, Map<String, CellPrediction> predictions, int cores) {
        List<ReportSection.Row> rows = new ArrayList<>();
        List<CellResult> sweep = new ArrayList<>();
        for (CellResult r : cells) {
            if (!r.cell().name().startsWith(DbCells.DB + "/") || r.failed() || r.runs().isEmpty()) {
                continue;
            }
            Cell.Pool pool = r.cell().trait(Cell.Pool.class);
            if (pool != null) {
                sweep.add(r);
            }
            CellPrediction p = predictions.get(r.cell().name());
            rows.add(new ReportSection.Row(r.cell().name(), List.of(pool == null ? "as run" : String.valueOf(pool.size()),
                    beside(r, p, Metric.THROUGHPUT, 1), median(r, Metric.P99_MS, 0), median(r, Metric.POOL_WAIT_MEAN_MS, 1),
                    beside(r, p, Metric.OTHER_ERRORS_PCT, 2), queries(r),
                    median(r, Metric.CPU_POSTGRES_PCT, 0), median(r, Metric.CPU_ORIGIN_PCT, 0))));
        }
        if (rows.isEmpty()) {
            return List.of();
        }
        String intro = "The small query (" + Matrix.DB_PATH + ", 5 rows) on PostgreSQL under the stress plan straight to"
                + " the origin, behind the edge cache, behind the origin's Redis app cache and behind both (rate limits"
                + " off); then the flood plan's open arrivals straight to the origin with each pool size, the origin"
                + " restarted with it. Database queries: what reached PostgreSQL, the rest a cache answered. Model:"
                + " the pool as c servers, each holding a connection for the time the origin's pool measured per query"
                + " (pool_hold_mean_ms: the query's service time), 504 once a request waits out the acquire timeout;"
                + " it has no CPU.";
        List<String> lines = new ArrayList<>();
        optimum(sweep, cores).ifPresent(lines::add);
        return List.of(new ReportSection("Database: caches in front of PostgreSQL, and the pool", intro,
                List.of(new ReportSection.Table(HEADINGS, rows)), lines, Map.of()).definedIn("app-cache-and-database.md"));
    }

    /**
     * Which pool did best, and whether pools past cores x 2 were slower, in one sentence. Best: of the
     * pools that answered within 5 % of the most (at an offered rate every pool keeps up with, that is
     * all of them), the one with the lowest mean latency; the p99 is the first second's, when each
     * cell's origin, restarted with its pool, still compiles its request path.
     */
    static java.util.Optional<String> optimum(List<CellResult> sweep, int cores) {
        List<CellResult> measured = sweep.stream().filter(r -> r.median(Metric.THROUGHPUT) != null).toList();
        if (measured.size() < 2) {
            return java.util.Optional.empty();
        }
        double most = measured.stream().mapToDouble(DbSection::served).max().orElseThrow();
        List<CellResult> keptUp = measured.stream().filter(r -> served(r) >= most * 0.95).toList();
        CellResult best = keptUp.stream().min(Comparator.comparingDouble(r -> orZero(r, Metric.MEAN_MS))).orElseThrow();
        int knee = cores * 2;
        List<CellResult> past = measured.stream().filter(r -> size(r) > Math.max(knee, size(best))).toList();
        CellResult largest = measured.stream().max(Comparator.comparingInt(DbSection::size)).orElseThrow();
        String head = String.format(Locale.ROOT, "On this machine (%d cores) the pool of %d did best: %.1f requests/s"
                + " with rows at a mean of %.0f ms (%s). HikariCP's pool-sizing note puts the optimum near cores x 2 = %d"
                + " connections", cores, size(best), served(best), orZero(best, Metric.MEAN_MS),
                keptUp.size() == measured.size() ? "every pool answered within 5 % of the most, so the fastest of them"
                        : "the fastest of those within 5 % of the most answered", knee);
        if (past.isEmpty() || largest == best) {
            return java.util.Optional.of(head + "; this run does not show a larger pool being slower (the largest, "
                    + size(largest) + ", was the best or none was past " + knee + ").");
        }
        boolean slower = served(largest) < served(best) * 0.95 || orZero(largest, Metric.MEAN_MS) > orZero(best,
                Metric.MEAN_MS) * 1.2;
        String tail = String.format(Locale.ROOT, "the pool of %d answered %.1f/s at a mean of %.0f ms, PostgreSQL %.0f"
                + " %% CPU against %.0f %%", size(largest), served(largest), orZero(largest, Metric.MEAN_MS),
                orZero(largest, Metric.CPU_POSTGRES_PCT), orZero(best, Metric.CPU_POSTGRES_PCT));
        return java.util.Optional.of(head + (slower ? "; this machine shows it: " + tail + ", more backends contending"
                + " for its " + cores + " cores." : "; this machine does not show a bigger pool slower: " + tail
                + ", within 5 % and 20 % of the best (the cores saturate first, so the extra connections only wait)."));
    }

    /** Statements sent to PostgreSQL, /places' included (the caches matrix's column counts /items'). */
    private static String queries(CellResult r) {
        DatabaseFigures d = r.firstBreakdowns().figure(DatabaseFigures.class);
        return d == null ? "n/a" : String.valueOf(d.queries());
    }

    private static int size(CellResult r) {
        return r.cell().trait(Cell.Pool.class).size();
    }

    private static double served(CellResult r) {
        return orZero(r, Metric.THROUGHPUT) * (1 - orZero(r, Metric.OTHER_ERRORS_PCT) / 100);
    }

    private static double orZero(CellResult r, Metric m) {
        Double v = r.median(m);
        return v == null ? 0 : v;
    }

    private static String beside(CellResult r, CellPrediction p, Metric m, int decimals) {
        Double model = p == null ? null : p.prediction().value(m);
        return median(r, m, decimals) + " / " + (model == null ? "n/a" : String.format(Locale.ROOT, "%." + decimals
                + "f", model));
    }

    private static String median(CellResult r, Metric m, int decimals) {
        Double v = r.median(m);
        return v == null ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
