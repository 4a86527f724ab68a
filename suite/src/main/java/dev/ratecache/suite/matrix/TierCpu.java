package dev.ratecache.suite.matrix;

import dev.ratecache.proc.PostgresServer;
import dev.ratecache.proc.ProcCpu;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.Stack;
import java.util.List;

/**
 * CPU seconds each process of a cell used over its load generator's run, from /proc: the origin,
 * Redis and PostgreSQL from a reading before the run (they outlive the cell), nginx's tiers whole
 * (they start with it), and the generator as it reported itself.
 */
final class TierCpu {
    private final List<OriginServer> origins;
    private final RedisServer redis;
    private final PostgresServer postgres;
    private final double[] originBefore;
    private final double redisBefore;
    private final double postgresBefore;
    /** PostgreSQL's last reading during the run ({@link #sample}): what it had used, if it is killed before the end. */
    private volatile double postgresLast = Double.NaN;

    /**
     * @param origins  the suite's origin and any instances beside it (a cell of several app hosts),
     *                 none for a user's (whose CPU the suite cannot see)
     * @param redis    the app cache's redis-server, or null for a cell without it
     * @param postgres the origin's PostgreSQL, or null with H2
     */
    private TierCpu(List<OriginServer> origins, RedisServer redis, PostgresServer postgres) {
        this.origins = List.copyOf(origins);
        this.redis = redis;
        this.postgres = postgres;
        this.originBefore = this.origins.stream().mapToDouble(o -> ProcCpu.seconds(o.pid()).orElse(0)).toArray();
        this.redisBefore = redis == null ? 0 : redis.cpuSeconds().orElse(0);
        this.postgresBefore = postgres == null ? 0 : postgres.cpuSeconds().orElse(0);
    }

    /** Read just before the generator starts. */
    static TierCpu before(List<OriginServer> origins, RedisServer redis, PostgresServer postgres) {
        return new TierCpu(origins, redis, postgres);
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
        Double originCpu = origins.isEmpty() || origins.stream().anyMatch(o -> !o.isRunning()) ? null : 0.0;
        for (int i = 0; originCpu != null && i < origins.size(); i++) {
            originCpu += ProcCpu.seconds(origins.get(i).pid()).orElse(0) - originBefore[i];
        }
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
