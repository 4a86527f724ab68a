package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.JtlSummary;
import java.util.List;
import java.util.Map;

/**
 * What one run of one cell measured.
 *
 * @param originRequests requests the origin counted during the run
 * @param edgeHitPct     HITs among the front end's responses; null when the edge cache is off or there is no front end
 * @param wallSeconds    the JMeter run, from its start to its exit
 * @param originPeak     the most requests that reached the origin in one second (any window); null
 *                       without a back end
 * @param admitted       the summary of the samples a limit let through (answered, not rejected); null
 *                       when none was
 * @param caches         what the caches behind the edge did (database, Redis, stale reads); null when
 *                       the cell had none of it to measure (another origin, or a plan without /items)
 * @param windowCpu      how busy the machine and the generator were over the samples' window
 * @param breakdowns     the samples by load host and by replayed path and client, as the run's folder has them
 */
public record CellMeasurement(JtlSummary jtl, Double originRequests, Double edgeHitPct, Cpu cpu, double wallSeconds,
        Double originPeak, JtlSummary admitted, Caches caches, WindowCpu windowCpu, Breakdowns breakdowns) {

    public CellMeasurement(JtlSummary jtl, Double originRequests, Double edgeHitPct, Cpu cpu, double wallSeconds,
            Double originPeak, JtlSummary admitted, Caches caches) {
        this(jtl, originRequests, edgeHitPct, cpu, wallSeconds, originPeak, admitted, caches, WindowCpu.UNKNOWN,
                Breakdowns.NONE);
    }

    public CellMeasurement(JtlSummary jtl, Double originRequests, Double edgeHitPct, Cpu cpu, double wallSeconds,
            Double originPeak, JtlSummary admitted) {
        this(jtl, originRequests, edgeHitPct, cpu, wallSeconds, originPeak, admitted, null);
    }

    public CellMeasurement(JtlSummary jtl, Double originRequests, Double edgeHitPct, Cpu cpu, double wallSeconds) {
        this(jtl, originRequests, edgeHitPct, cpu, wallSeconds, null, null);
    }

    /**
     * A run's samples broken down beyond the figures, for the report's own sections; what the run
     * folder holds as load-hosts.json and timeline.json, and what a kind of run collected.
     *
     * @param samplesPerLoadHost the samples each load host sent, in --load-hosts order; null when JMeter ran here
     * @param timeline           the run second by second, for the report's over-time charts; null when the
     *                           run did not get that far
     * @param figures            what the cell's kind collected, one of each type ({@link KindFigures} lists them)
     */
    public record Breakdowns(Map<String, Long> samplesPerLoadHost, Timeline timeline, List<KindFigures> figures) {
        public static final Breakdowns NONE = new Breakdowns(null, null, List.of());

        public Breakdowns {
            figures = figures.stream().filter(java.util.Objects::nonNull).toList();
        }

        /** The figures given, those that are null left out. */
        public static Breakdowns of(Map<String, Long> samplesPerLoadHost, Timeline timeline, KindFigures... figures) {
            return new Breakdowns(samplesPerLoadHost, timeline, java.util.Arrays.asList(figures));
        }

        /** The figure of {@code type} the cell's kind collected; null when it collected none. */
        public <T extends KindFigures> T figure(Class<T> type) {
            return figures.stream().filter(type::isInstance).map(type::cast).findFirst().orElse(null);
        }
    }

    /**
     * CPU over the samples' window (first request's start to last response's end, as throughput's),
     * where a busy generator or machine makes requests wait; the load generator's start-up is outside it.
     *
     * @param machinePct   the whole machine's busy share of all its cores ({@link dev.ratecache.proc.MachineCpu});
     *                     null where /proc/stat could not be read
     * @param generatorPct the load generator's CPU, 100 = one core; null when it could not be read
     */
    public record WindowCpu(Double machinePct, Double generatorPct) {
        public static final WindowCpu UNKNOWN = new WindowCpu(null, null);
    }

    /**
     * CPU seconds per process; null for a process the cell did not run (no Nginx when direct, no
     * PostgreSQL with H2, which runs inside the origin's JVM and counts as the origin's).
     *
     * @param database PostgreSQL: its postmaster and every backend it forked during the run
     */
    public record Cpu(Double front, Double back, Double origin, Double jmeter, Double database) {
        public Cpu(Double front, Double back, Double origin, Double jmeter) {
            this(front, back, origin, jmeter, null);
        }
    }

    /**
     * The caches behind the edge, for cells on the origin's /items. Each figure is null where it does
     * not apply: Redis's with the app cache off, the stale reads for a plan that does not detect them.
     *
     * @param redisHits       keyspace_hits of Redis's INFO stats over the cell (null when Redis was gone at its end)
     * @param redisMisses     keyspace_misses likewise
     * @param databaseQueries statements the origin sent to its database (reads and writes)
     * @param cacheErrors     app-cache operations that failed at the origin (Redis down, stopped or hung)
     * @param lastCacheError  the last of them, in the origin's words; null when none
     * @param redisCpu        CPU seconds of redis-server over the cell
     * @param stale           reads older than an acknowledged write (hotset.jmx's staleMs)
     */
    public record Caches(Double redisHits, Double redisMisses, Double databaseQueries, Double cacheErrors,
            String lastCacheError, Double redisCpu, dev.ratecache.jtl.StaleReads stale) {
        /** Whether the origin saw its app cache fail during the cell. */
        public boolean cacheFailed() {
            return cacheErrors != null && cacheErrors > 0;
        }

        /** The report's and the terminal's words for a cell whose app cache failed. */
        public String describeFailure() {
            return String.format(java.util.Locale.ROOT, "the app cache failed %.0f times during the run (Redis down,"
                    + " stopped or hung): the origin answered those reads from the database%s", cacheErrors,
                    lastCacheError == null ? "" : "; last error: " + lastCacheError);
        }
    }

    private Double cachesFigure(java.util.function.Function<Caches, Double> figure) {
        return caches == null ? null : figure.apply(caches);
    }

    public Double machineCpuPct() { return windowCpu.machinePct(); }
    public Double generatorCpuPct() { return windowCpu.generatorPct(); }
    public Double redisHits() { return cachesFigure(Caches::redisHits); }
    public Double redisMisses() { return cachesFigure(Caches::redisMisses); }
    public Double databaseQueries() { return cachesFigure(Caches::databaseQueries); }
    public Double cacheErrors() { return cachesFigure(Caches::cacheErrors); }
    public Double redisCpu() { return cachesFigure(Caches::redisCpu); }
    public Double staleReads() { return cachesFigure(c -> c.stale() == null ? null : (double) c.stale().stale()); }
    public Double stalePct() { return cachesFigure(c -> c.stale() == null ? null : c.stale().stalePct()); }
    public Double staleOldestMs() { return cachesFigure(c -> c.stale() == null ? null : (double) c.stale().oldestMs()); }

    /** Origin requests per second over the measured window (first request's start to last response's end). */
    public Double originRate() {
        return originRequests == null ? null : originRequests / Math.max(jtl.wallMs() / 1000.0, 0.001);
    }

    public Double cpuPct(Double seconds) {
        return seconds == null ? null : 100.0 * seconds / Math.max(wallSeconds, 0.001);
    }
}
