package dev.ratecache.suite.matrix;

import dev.ratecache.proc.PostgresServer;
import dev.ratecache.proc.ProcCpu;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.Stack;

/**
 * CPU seconds each process of a cell used over its load generator's run, from /proc: the origin,
 * Redis and PostgreSQL from a reading before the run (they outlive the cell), nginx's tiers whole
 * (they start with it), and the generator as it reported itself.
 */
final class TierCpu {
    private final OriginServer origin;
    private final RedisServer redis;
    private final PostgresServer postgres;
    private final double originBefore;
    private final double redisBefore;
    private final double postgresBefore;
    /** PostgreSQL's last reading during the run ({@link #sample}): what it had used, if it is killed before the end. */
    private volatile double postgresLast = Double.NaN;

    /**
     * @param origin   the suite's origin, or null for a user's (whose CPU the suite cannot see)
     * @param redis    the app cache's redis-server, or null for a cell without it
     * @param postgres the origin's PostgreSQL, or null with H2
     */
    private TierCpu(OriginServer origin, RedisServer redis, PostgresServer postgres) {
        this.origin = origin;
        this.redis = redis;
        this.postgres = postgres;
        this.originBefore = origin == null ? 0 : ProcCpu.seconds(origin.pid()).orElse(0);
        this.redisBefore = redis == null ? 0 : redis.cpuSeconds().orElse(0);
        this.postgresBefore = postgres == null ? 0 : postgres.cpuSeconds().orElse(0);
    }

    /** Read just before the generator starts. */
    static TierCpu before(OriginServer origin, RedisServer redis, PostgresServer postgres) {
        return new TierCpu(origin, redis, postgres);
    }

    /** Takes PostgreSQL's reading now, while it runs: called several times a second during the run. */
    void sample() {
        if (postgres != null) {
            postgres.cpuSeconds().ifPresent(seconds -> postgresLast = seconds);
        }
    }

    /**
     * What each process used since {@link #before}; read while the tiers still run, since nginx's CPU
     * goes with its processes.
     *
     * @param stack the tiers, or null for a cell straight to the origin
     */
    Used after(Stack stack, double generatorSeconds) {
        // Gone (killed, and another started by a fault cell): no one process's CPU covers the run.
        Double originCpu = origin == null || !origin.isRunning() ? null
                : ProcCpu.seconds(origin.pid()).orElse(0) - originBefore;
        // Gone (stopped during the run): its CPU went with it.
        Double redisCpu = redis != null && redis.isRunning() ? redis.cpuSeconds().orElse(redisBefore) - redisBefore : null;
        Double front = stack == null ? null : stack.frontCpuSeconds();
        Double back = stack == null ? null : stack.backCpuSeconds();
        // Killed during the run: what it used until its last reading, rather than nothing.
        Double database = postgres == null ? null
                : postgres.cpuSeconds().orElse(Double.isNaN(postgresLast) ? postgresBefore : postgresLast) - postgresBefore;
        return new Used(new CellMeasurement.Cpu(front, back, originCpu, generatorSeconds, database), redisCpu);
    }

    /** The processes' CPU seconds; Redis's apart, as it belongs with the app cache's figures. */
    record Used(CellMeasurement.Cpu cpu, Double redis) {}
}
