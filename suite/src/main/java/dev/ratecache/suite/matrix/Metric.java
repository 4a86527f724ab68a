package dev.ratecache.suite.matrix;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Every figure a cell reports: one name (for --assert, summary.json and summary.csv), one unit,
 * what it means and how it is measured. docs/methodology.md's table of metrics is generated from
 * this list ({@code MetricGlossaryTest}), so a metric is defined once, here.
 */
public enum Metric {
    SAMPLES("samples", "count", "requests the client made; a library retry is part of its request",
            "rows of the cell's JTL, one sample per request", m -> (double) m.jtl().samples()),
    THROUGHPUT("throughput", "responses/s", "answers per second, rejections included",
            "samples divided by the time from the first request's start to the last response's end, from the JTL",
            m -> m.jtl().throughput()),
    REJECTED_PCT("rejected_pct", "%", "share of the samples a rate limit refused",
            "samples answered 429 or 503 in the JTL, over all samples", m -> m.jtl().rejectedPct()),
    OTHER_ERRORS_PCT("other_errors_pct", "%", "share of the samples that failed for another reason than a rate limit",
            "samples the JTL marks failed, less those answered 429 or 503, over all samples",
            m -> m.jtl().otherErrorsPct()),
    MEAN_MS("mean_ms", "ms", "mean latency", "the mean of the JTL's elapsed times (request sent to response read)",
            m -> m.jtl().meanMs()),
    MIN_MS("min_ms", "ms", "fastest sample", "the least elapsed time in the JTL", m -> (double) m.jtl().minMs()),
    MAX_MS("max_ms", "ms", "slowest sample", "the greatest elapsed time in the JTL", m -> (double) m.jtl().maxMs()),
    P50_MS("p50_ms", "ms", "median latency", "the nearest-rank 50th percentile of the JTL's elapsed times",
            m -> (double) m.jtl().p50Ms()),
    P90_MS("p90_ms", "ms", "90th percentile latency", "the nearest-rank 90th percentile of the JTL's elapsed times",
            m -> (double) m.jtl().p90Ms()),
    P95_MS("p95_ms", "ms", "95th percentile latency", "the nearest-rank 95th percentile of the JTL's elapsed times",
            m -> (double) m.jtl().p95Ms()),
    P99_MS("p99_ms", "ms", "99th percentile latency", "the nearest-rank 99th percentile of the JTL's elapsed times",
            m -> (double) m.jtl().p99Ms()),
    ADMITTED_P50_MS("admitted_p50_ms", "ms", "median latency of the requests the limits let through",
            "the nearest-rank 50th percentile of the JTL's elapsed times, rejected samples left out",
            m -> m.admitted() == null ? null : (double) m.admitted().p50Ms()),
    ADMITTED_P95_MS("admitted_p95_ms", "ms", "95th percentile latency of the requests the limits let through: a fast"
            + " rejection is not a fast answer", "the nearest-rank 95th percentile of the JTL's elapsed times, rejected"
            + " samples left out", m -> m.admitted() == null ? null : (double) m.admitted().p95Ms()),
    ORIGIN_REQUESTS("origin_requests", "count", "requests that reached the origin",
            "the origin's own request counter, reset before the cell and read after it", m -> m.originRequests()),
    ORIGIN_RATE("origin_rate", "requests/s", "requests that reached the origin per second of the load",
            "origin_requests divided by the samples' time span (first request's start to last response's end)",
            m -> m.originRate()),
    ORIGIN_PEAK_1S("origin_peak_1s", "requests", "the most requests that reached the origin in any one second: what"
            + " the back limit promises to keep at or under its rate plus burst",
            "a sliding one-second window over the arrival times in the back end's access log", m -> m.originPeak()),
    EFFECTIVE_LIMIT("effective_limit", "x", "--matrix fleet: what the heavy key was admitted in its busiest second,"
            + " divided by its tier's rate plus burst: 1 is the per-client promise kept, N is N times the limit",
            "a sliding one-second window over the JTL's start times of the heavy key's admitted samples",
            kind(FleetFigures.class, FleetFigures::effectiveLimit)),
    FLEET_FALLBACKS("fleet_fallbacks", "count", "--fleet-limit shared: requests an edge counted with its own split"
            + " limit because Redis failed or passed --fleet-redis-timeout",
            "lines marked \"fleet\":\"FALLBACK\" in the edges' access logs",
            kind(FleetFallbacks.class, f -> (double) f.fallbacks())),
    EDGE_HIT_PCT("edge_hit_pct", "%", "share of the front end's answers that came from its edge cache",
            "responses whose cache outcome is HIT in the front end's access log, over all its responses (STALE,"
            + " UPDATING and REVALIDATED answers are not counted)", m -> m.edgeHitPct()),
    CLIENT_CACHE_HITS("client_cache_hits", "count", "samples the client's own cache answered (JMeter's HTTP Cache"
            + " Manager or the library's cache) without reaching the front end",
            "samples whose responseMessage in the JTL is \"(ex cache)\", as JMeter's cache and the library's"
            + " driver mark a fresh hit", m -> (double) m.jtl().clientCacheHits()),
    REDIS_HITS("redis_hits", "count", "app-cache lookups Redis answered; n/a with the app cache off",
            "keyspace_hits of Redis's INFO stats, zeroed before the cell", m -> m.redisHits()),
    REDIS_MISSES("redis_misses", "count", "app-cache lookups Redis did not have",
            "keyspace_misses of Redis's INFO stats, zeroed before the cell", m -> m.redisMisses()),
    DATABASE_QUERIES("database_queries", "count", "statements the origin sent to its database for /items (reads and"
            + " writes)", "the origin's own statement counter", m -> m.databaseQueries()),
    CACHE_ERRORS("cache_errors", "count", "app-cache operations that failed at the origin (Redis down, stopped or"
            + " hung); each such read was answered from the database", "the origin's own counter of failed Redis calls",
            m -> m.cacheErrors()),
    DB_504S("db_504s", "count", "requests the origin answered 504 because no database connection freed up within"
            + " --db-acquire-timeout (the pool exhausted, as PostgREST answers); n/a unless the run reports the pool"
            + " (--origin-db postgres, --db-pool, --db-acquire-timeout)", "the origin's own counter of such answers",
            kind(DatabaseFigures.class, d -> (double) d.timeouts())),
    DB_502S("db_502s", "count", "requests the origin answered 502 because the database failed or could not be reached",
            "the origin's own counter of such answers", kind(DatabaseFigures.class, d -> (double) d.failures())),
    POOL_WAIT_MEAN_MS("pool_wait_mean_ms", "ms", "the mean wait of a request for a pooled database connection",
            "Micrometer's hikaricp.connections.acquire timer at the origin",
            kind(DatabaseFigures.class, DatabaseFigures::acquireMeanMs)),
    POOL_HOLD_MEAN_MS("pool_hold_mean_ms", "ms", "the mean time a request held its pooled database connection: the"
            + " query's service time as the pool saw it", "Micrometer's hikaricp.connections.usage timer at the origin",
            kind(DatabaseFigures.class, DatabaseFigures::holdMeanMs)),
    POOL_ACTIVE_PEAK("pool_active_peak", "connections", "the most database connections lent to requests at once",
            "the origin's pool read once a second; the highest reading",
            kind(DatabaseFigures.class, d -> d.activePeak() == null ? null : (double) d.activePeak())),
    STALE_READS("stale_reads", "count", "reads that returned an item older than a write acknowledged before the read"
            + " started", "reads with a staleMs in the JTL, which hotset.jmx writes for a read whose item predates a"
            + " write acknowledged before the read started", m -> m.staleReads()),
    STALE_PCT("stale_pct", "%", "stale reads as a share of the answered reads", "stale_reads over the JTL's answered"
            + " reads", m -> m.stalePct()),
    STALE_OLDEST_MS("stale_oldest_ms", "ms", "the oldest stale read: how long after the write it missed was"
            + " acknowledged", "the greatest staleMs in the JTL", m -> m.staleOldestMs()),
    CPU_FRONT_S("cpu_front_s", "s", "CPU time of the front end (master and workers) during the cell",
            "utime + stime of its processes in /proc/PID/stat, read before and after", m -> m.cpu().front()),
    CPU_BACK_S("cpu_back_s", "s", "CPU time of the back end during the cell",
            "utime + stime of its processes in /proc/PID/stat, read before and after", m -> m.cpu().back()),
    CPU_ORIGIN_S("cpu_origin_s", "s", "CPU time of the origin JVM during the cell (every instance's, in a cell of several"
            + " app hosts)", "utime + stime of its process in /proc/PID/stat, read before and after", m -> m.cpu().origin()),
    CPU_REDIS_S("cpu_redis_s", "s", "CPU time of redis-server during the cell; n/a with the app cache off",
            "utime + stime of its process in /proc/PID/stat, read before and after", m -> m.redisCpu()),
    CPU_POSTGRES_S("cpu_postgres_s", "s", "CPU time of PostgreSQL during the cell; n/a with H2, which runs in the"
            + " origin's JVM", "utime + stime in /proc of the postmaster and every backend it forked, ended ones"
            + " included (their children's times)", m -> m.cpu().database()),
    CPU_JMETER_S("cpu_jmeter_s", "s", "CPU time of the load generator: JMeter's JVM, the library's driver in library"
            + " rows, wrk in wrk rows", "utime + stime in /proc of its process, over its whole run, start-up included",
            m -> m.cpu().jmeter()),
    CPU_FRONT_PCT("cpu_front_pct", "%", "front end CPU as a share of one core", "cpu_front_s over wall_s",
            m -> m.cpuPct(m.cpu().front())),
    CPU_BACK_PCT("cpu_back_pct", "%", "back end CPU as a share of one core", "cpu_back_s over wall_s",
            m -> m.cpuPct(m.cpu().back())),
    CPU_ORIGIN_PCT("cpu_origin_pct", "%", "origin CPU as a share of one core", "cpu_origin_s over wall_s",
            m -> m.cpuPct(m.cpu().origin())),
    CPU_REDIS_PCT("cpu_redis_pct", "%", "redis-server CPU as a share of one core", "cpu_redis_s over wall_s",
            m -> m.cpuPct(m.redisCpu())),
    CPU_POSTGRES_PCT("cpu_postgres_pct", "%", "PostgreSQL CPU as a share of one core", "cpu_postgres_s over wall_s",
            m -> m.cpuPct(m.cpu().database())),
    CPU_JMETER_PCT("cpu_jmeter_pct", "%", "load generator CPU as a share of one core", "cpu_jmeter_s over wall_s",
            m -> m.cpuPct(m.cpu().jmeter())),
    WALL_S("wall_s", "s", "how long the load generator ran, start-up included",
            "the clock from its process's start to its exit; the CPU shares of one core are over it", m -> m.wallSeconds()),
    MACHINE_CPU_PCT("machine_cpu_pct", "%", "how busy the whole machine was while requests were in flight, as a share"
            + " of all its cores (100 = every core busy throughout). From " + (int) Saturation.MACHINE_BUSY_PCT
            + " % the figures measure the machine, not the tiers", "/proc/stat read every 50 ms from the first"
            + " request's start to the last response's end; niced work, such as the dashboards drawn meanwhile, counts"
            + " as idle", m -> m.machineCpuPct()),
    GENERATOR_CPU_PCT("generator_cpu_pct", "%", "how busy the load generator was while requests were in flight, as a"
            + " share of one core (cpu_jmeter_pct is over its whole run, start-up included). From "
            + (int) Saturation.GENERATOR_PCT_OF_A_CORE + " % the figures measure the generator, not the tiers",
            "its process's CPU in /proc from the first request's start to the last response's end",
            m -> m.generatorCpuPct());

    /** Where every metric is defined, for the messages and the help that name metrics. */
    public static final String GLOSSARY = "docs/methodology.md#metrics";

    private final String id;
    private final String unit;
    private final String meaning;
    private final String measured;
    private final Function<CellMeasurement, Double> read;

    Metric(String id, String unit, String meaning, String measured, Function<CellMeasurement, Double> read) {
        this.id = id;
        this.unit = unit;
        this.meaning = meaning;
        this.measured = measured;
        this.read = read;
    }

    public String id() { return id; }
    public String unit() { return unit; }
    public String meaning() { return meaning; }

    /** How and where the figure is taken: the file or counter it is read from, and what is done to it. */
    public String measured() { return measured; }

    /**
     * Its anchor in the glossary (docs/methodology.md's generated table), which the report's column
     * headings and --assert's help link to.
     */
    public String anchor() { return "metric-" + id; }

    /**
     * A metric only one kind of cell has: its figures answer it, and a cell that collected none has
     * no value, so that the measurement keeps no nullable accessor per kind.
     */
    private static <F extends KindFigures> Function<CellMeasurement, Double> kind(Class<F> type,
            Function<F, Double> read) {
        return m -> {
            F figures = m.breakdowns().figure(type);
            return figures == null ? null : read.apply(figures);
        };
    }

    /** The value, or null where it does not apply (e.g. the edge hit ratio with the edge cache off). */
    public Double of(CellMeasurement m) {
        return read.apply(m);
    }

    public static Metric byId(String id) {
        return Arrays.stream(values()).filter(m -> m.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no such metric '"
                        + dev.ratecache.accesslog.Printable.shown(id) + "'; metrics: " + String.join(", ", ids()) + " (each defined in " + GLOSSARY + ")"));
    }

    public static List<String> ids() {
        return Arrays.stream(values()).map(Metric::id).toList();
    }
}
