package dev.ratecache.suite.matrix;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Every figure a cell reports: one name (for --assert, summary.json and summary.csv), one unit,
 * and where it comes from.
 */
public enum Metric {
    SAMPLES("samples", "count", "requests the client made (one sample each; a library retry is part of its request)", m -> (double) m.jtl().samples()),
    THROUGHPUT("throughput", "responses/s", "samples per second, first request's start to last response's end", m -> m.jtl().throughput()),
    REJECTED_PCT("rejected_pct", "%", "samples answered 429 or 503 by a rate limit", m -> m.jtl().rejectedPct()),
    OTHER_ERRORS_PCT("other_errors_pct", "%", "failed samples other than rate-limit rejections", m -> m.jtl().otherErrorsPct()),
    MEAN_MS("mean_ms", "ms", "mean latency", m -> m.jtl().meanMs()),
    MIN_MS("min_ms", "ms", "fastest sample", m -> (double) m.jtl().minMs()),
    MAX_MS("max_ms", "ms", "slowest sample", m -> (double) m.jtl().maxMs()),
    P50_MS("p50_ms", "ms", "median latency", m -> (double) m.jtl().p50Ms()),
    P90_MS("p90_ms", "ms", "90th percentile latency", m -> (double) m.jtl().p90Ms()),
    P95_MS("p95_ms", "ms", "95th percentile latency", m -> (double) m.jtl().p95Ms()),
    P99_MS("p99_ms", "ms", "99th percentile latency", m -> (double) m.jtl().p99Ms()),
    ADMITTED_P50_MS("admitted_p50_ms", "ms", "median latency of the requests the limits let through (not rejected)",
            m -> m.admitted() == null ? null : (double) m.admitted().p50Ms()),
    ADMITTED_P95_MS("admitted_p95_ms", "ms", "95th percentile latency of the requests the limits let through",
            m -> m.admitted() == null ? null : (double) m.admitted().p95Ms()),
    ORIGIN_REQUESTS("origin_requests", "count", "requests that reached the origin (its own counter)", m -> m.originRequests()),
    ORIGIN_RATE("origin_rate", "requests/s", "origin requests per second of the JMeter run", m -> m.originRate()),
    ORIGIN_PEAK_1S("origin_peak_1s", "requests", "the most requests that reached the origin in any one second (a sliding"
            + " window over the back end's access log): what the back limit promises to keep at or under its rate plus burst",
            m -> m.originPeak()),
    EFFECTIVE_LIMIT("effective_limit", "x", "--matrix fleet: what the heavy key was admitted in its busiest second"
            + " (a sliding window over the client's start times), divided by its tier's rate plus burst: 1 is the"
            + " per-client promise kept, N is N times the limit", m -> m.effectiveLimit()),
    FLEET_FALLBACKS("fleet_fallbacks", "count", "--fleet-limit shared: requests an edge counted with its own split"
            + " limit because Redis failed or passed --fleet-redis-timeout (\"fleet\":\"FALLBACK\" in the edges' logs)",
            m -> m.fleetFallbacks()),
    EDGE_HIT_PCT("edge_hit_pct", "%", "front end responses answered from the edge cache (HIT), from its access log", m -> m.edgeHitPct()),
    CLIENT_CACHE_HITS("client_cache_hits", "count", "samples answered by the client's own cache (JMeter's or the library's)", m -> (double) m.jtl().clientCacheHits()),
    REDIS_HITS("redis_hits", "count", "app-cache lookups Redis answered (keyspace_hits of its INFO stats); n/a with the app cache off", m -> m.redisHits()),
    REDIS_MISSES("redis_misses", "count", "app-cache lookups Redis did not have (keyspace_misses of its INFO stats)", m -> m.redisMisses()),
    DATABASE_QUERIES("database_queries", "count", "statements the origin sent to its database for /items (reads and writes)", m -> m.databaseQueries()),
    CACHE_ERRORS("cache_errors", "count", "app-cache operations that failed at the origin (Redis down, stopped or hung); each such read was answered from the database", m -> m.cacheErrors()),
    DB_504S("db_504s", "count", "requests the origin answered 504 because no database connection freed up within"
            + " --db-acquire-timeout (the pool exhausted, as PostgREST answers); n/a unless the run reports the pool"
            + " (--origin-db postgres, --db-pool, --db-acquire-timeout)", m -> m.databaseTimeouts()),
    DB_502S("db_502s", "count", "requests the origin answered 502 because the database failed or could not be reached",
            m -> m.databaseFailures()),
    POOL_WAIT_MEAN_MS("pool_wait_mean_ms", "ms", "the mean wait of a request for a pooled database connection"
            + " (Micrometer's hikaricp.connections.acquire)", m -> m.poolWaitMeanMs()),
    POOL_HOLD_MEAN_MS("pool_hold_mean_ms", "ms", "the mean time a request held its pooled database connection:"
            + " the query's service time as the pool saw it (Micrometer's hikaricp.connections.usage)",
            m -> m.poolHoldMeanMs()),
    POOL_ACTIVE_PEAK("pool_active_peak", "connections", "the most database connections lent to requests at once, in"
            + " readings of the origin's pool once a second", m -> m.poolActivePeak()),
    STALE_READS("stale_reads", "count", "reads that returned an item older than a write acknowledged before the read started (hotset.jmx's staleMs)", m -> m.staleReads()),
    STALE_PCT("stale_pct", "%", "stale reads as a share of the answered reads", m -> m.stalePct()),
    STALE_OLDEST_MS("stale_oldest_ms", "ms", "the oldest stale read: how long after the write it missed was acknowledged", m -> m.staleOldestMs()),
    CPU_FRONT_S("cpu_front_s", "s", "CPU seconds of the front end nginx (master and workers), from /proc", m -> m.cpu().front()),
    CPU_BACK_S("cpu_back_s", "s", "CPU seconds of the back end nginx, from /proc", m -> m.cpu().back()),
    CPU_ORIGIN_S("cpu_origin_s", "s", "CPU seconds of the origin JVM during the run, from /proc", m -> m.cpu().origin()),
    CPU_REDIS_S("cpu_redis_s", "s", "CPU seconds of redis-server during the run, from /proc; n/a with the app cache off", m -> m.redisCpu()),
    CPU_POSTGRES_S("cpu_postgres_s", "s", "CPU seconds of PostgreSQL during the run, from /proc: the postmaster and"
            + " every backend it forked, ended ones included; n/a with H2, which runs in the origin's JVM",
            m -> m.cpu().database()),
    CPU_JMETER_S("cpu_jmeter_s", "s", "CPU seconds of the JMeter JVM (the library's driver in library rows, wrk in wrk rows), from /proc", m -> m.cpu().jmeter()),
    CPU_FRONT_PCT("cpu_front_pct", "%", "front end CPU as a share of one core over the run", m -> m.cpuPct(m.cpu().front())),
    CPU_BACK_PCT("cpu_back_pct", "%", "back end CPU as a share of one core", m -> m.cpuPct(m.cpu().back())),
    CPU_ORIGIN_PCT("cpu_origin_pct", "%", "origin CPU as a share of one core", m -> m.cpuPct(m.cpu().origin())),
    CPU_REDIS_PCT("cpu_redis_pct", "%", "redis-server CPU as a share of one core", m -> m.cpuPct(m.redisCpu())),
    CPU_POSTGRES_PCT("cpu_postgres_pct", "%", "PostgreSQL CPU as a share of one core", m -> m.cpuPct(m.cpu().database())),
    CPU_JMETER_PCT("cpu_jmeter_pct", "%", "JMeter CPU as a share of one core", m -> m.cpuPct(m.cpu().jmeter())),
    WALL_S("wall_s", "s", "wall time of the JMeter run", m -> m.wallSeconds()),
    MACHINE_CPU_PCT("machine_cpu_pct", "%", "the whole machine's CPU from the first request's start to the last"
            + " response's end, as a share of all its cores (100 = every core busy throughout), from /proc/stat; niced"
            + " work, such as the dashboards drawn meanwhile, counts as idle. From " + (int) Saturation.MACHINE_BUSY_PCT
            + " % the figures measure the machine, not the tiers", m -> m.machineCpuPct()),
    GENERATOR_CPU_PCT("generator_cpu_pct", "%", "the load generator's CPU from the first request's start to the last"
            + " response's end, as a share of one core (cpu_jmeter_pct is over its whole run, start-up included). From "
            + (int) Saturation.GENERATOR_PCT_OF_A_CORE + " % the figures measure the generator, not the tiers",
            m -> m.generatorCpuPct());

    private final String id;
    private final String unit;
    private final String meaning;
    private final Function<CellMeasurement, Double> read;

    Metric(String id, String unit, String meaning, Function<CellMeasurement, Double> read) {
        this.id = id;
        this.unit = unit;
        this.meaning = meaning;
        this.read = read;
    }

    public String id() { return id; }
    public String unit() { return unit; }
    public String meaning() { return meaning; }

    /** The value, or null where it does not apply (e.g. the edge hit ratio with the edge cache off). */
    public Double of(CellMeasurement m) {
        return read.apply(m);
    }

    public static Metric byId(String id) {
        return Arrays.stream(values()).filter(m -> m.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no such metric '" + id + "'; metrics: " + String.join(", ", ids())));
    }

    public static List<String> ids() {
        return Arrays.stream(values()).map(Metric::id).toList();
    }
}
