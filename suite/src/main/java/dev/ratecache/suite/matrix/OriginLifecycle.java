package dev.ratecache.suite.matrix;

import dev.ratecache.proc.PostgresServer;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.origin.OriginDatabase;
import dev.ratecache.suite.origin.OriginServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The suite's own origin, the Redis of its app cache and its PostgreSQL (--origin-db postgres), over
 * a whole matrix run: one origin serves every cell and is restarted only when it died or a cell
 * needs the other app-cache mode.
 */
final class OriginLifecycle implements AutoCloseable, CellTrait.Restarts {
    private final MatrixRunner.Options options;
    private final PrintWriter out;
    /** Volatile: a fault cell's thread starts it again mid-cell ({@link #killAndStartAgain}). */
    private volatile OriginServer origin;
    /** Whether the running origin was started with the Redis app cache. */
    private boolean originAppCache;
    /** The running origin's database pool: a cell of its own pool ({@link Cell.Pool}) restarts it. */
    private int originPool;
    /**
     * One redis-server for the whole run, started by the first cell with the app cache and emptied
     * (FLUSHALL, CONFIG RESETSTAT) before each such cell: a cold cache with zeroed counters, as a
     * fresh server per cell would give, without restarting the origin that holds its connection.
     */
    private RedisServer redis;
    private int redisPort;
    /**
     * With --origin-db postgres, one PostgreSQL for the whole run, started before the origin. One
     * that died during a cell (a test kills it) is started again before the next, on its port and
     * from its data folder, which the origin's pool reconnects to by itself.
     */
    private PostgresServer postgres;
    private int postgresPort;
    /**
     * Origin instances beside the first, for a cell that spreads its requests over several app
     * hosts (seed 002's balancer over 2 and 5): started by the first cell that needs them, in its
     * app-cache mode, and kept for the next such cell.
     */
    private final List<OriginServer> more = new ArrayList<>();

    OriginLifecycle(MatrixRunner.Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    /**
     * Ready for {@code cell}: the origin running in its app-cache mode and with its pool, its
     * counters reset, Redis emptied.
     */
    void prepare(Cell cell) throws IOException {
        Cell.Pool pool = cell.trait(Cell.Pool.class);
        prepare(cell.appCache(), pool == null ? options.database().poolSize() : pool.size());
    }

    private void prepare(boolean appCache, int pool) throws IOException {
        if (appCache) {
            ensureRedis();
        }
        if (options.database().postgres()) {
            ensurePostgres();
        }
        ensureOrigin(appCache, pool);
        origin.reset();
        if (appCache) {
            redis.reset();
        }
    }

    /**
     * {@code count} running origin instances beside the first, as it was started (same arguments,
     * database and Redis), each on free ports: a cell's app hosts. Their counters are reset.
     */
    List<OriginServer> more(int count) throws IOException {
        while (more.size() > count) {
            more.remove(more.size() - 1).close();
        }
        for (int i = 0; i < more.size(); i++) {
            if (!more.get(i).isRunning() || !more.get(i).healthy()) {
                more.get(i).close();
                more.set(i, startMore(i));
            }
        }
        while (more.size() < count) {
            more.add(startMore(more.size()));
        }
        for (OriginServer o : more) {
            o.reset();
        }
        return List.copyOf(more);
    }

    private OriginServer startMore(int index) throws IOException {
        return OriginServer.start(dev.ratecache.proc.Ports.free(), dev.ratecache.proc.Ports.free(),
                options.originThreads(), options.runDir().resolve("origin-" + (index + 2) + ".log"),
                originArgs(originAppCache, originPool));
    }

    /** The running origin; null before the first cell. */
    OriginServer origin() {
        return origin;
    }

    /** The run's redis-server, while one runs. */
    RedisServer redis() {
        return redis;
    }

    /** The run's PostgreSQL, while one runs; null with H2. */
    PostgresServer postgres() {
        return postgres;
    }

    private void ensurePostgres() throws IOException {
        if (postgres != null && postgres.isRunning() && postgres.acceptsConnections()) {
            return;
        }
        if (postgres != null) {
            postgres.close();
            out.println("  (re)starting PostgreSQL: it stopped during an earlier cell");
        }
        postgres = PostgresServer.start(options.runDir().resolve("postgres"), postgresPort);
        postgresPort = postgres.port();
    }

    /** Starts the run's redis-server, or starts it again (on its port, which the origin connects to) if it stopped. */
    private void ensureRedis() throws IOException {
        if (redis != null && redis.isRunning() && redis.answersPing()) {
            return;
        }
        if (redis != null) {
            redis.close();
            out.println("  (re)starting redis-server: it stopped during an earlier cell");
        }
        redis = RedisServer.start(options.runDir().resolve("redis"), redisPort != 0 ? redisPort : options.redisPort());
        redisPort = redis.port();
    }

    private void ensureOrigin(boolean appCache, int pool) throws IOException {
        if (origin != null && origin.isRunning() && origin.healthy() && originAppCache == appCache
                && originPool == pool) {
            return;
        }
        if (origin != null) {
            origin.close();
            out.println(originAppCache != appCache ? "  restarting the origin with its app cache " + (appCache ? "on" : "off")
                    : originPool != pool ? "  restarting the origin with a pool of " + pool : "  (re)starting the origin");
        }
        // The instances beside it were started in its mode: they follow it.
        more.forEach(OriginServer::close);
        more.clear();
        originAppCache = appCache;
        originPool = pool;
        origin = OriginServer.start(options.ports().origin(), options.ports().management(), options.originThreads(),
                options.runDir().resolve("origin.log"), originArgs(appCache, pool));
    }

    /**
     * The origin killed with SIGKILL mid-cell (--matrix faults), then started again as it was, on its
     * ports, with its arguments: returns once the new one is ready. The kill's moment goes to
     * {@code killed} before the start.
     */
    OriginServer killAndStartAgain(java.util.function.LongConsumer killed) throws IOException {
        OriginServer dead = origin;
        ProcessHandle process = ProcessHandle.of(dead.pid()).orElseThrow(() -> new IOException("the origin is not running"));
        process.destroyForcibly();
        killed.accept(System.currentTimeMillis());
        process.onExit().join();
        dead.close();
        origin = OriginServer.start(options.ports().origin(), options.ports().management(), options.originThreads(),
                options.runDir().resolve("origin.log"), originArgs(originAppCache, originPool));
        return origin;
    }

    /**
     * The run's redis-server killed with SIGKILL mid-cell (--matrix faults), then started again as it
     * was, on its port (which the origin connects to), empty: returns once it answers PING. The kill's
     * moment goes to {@code killed} before the start.
     */
    RedisServer killRedisAndStartAgain(java.util.function.LongConsumer killed) throws IOException {
        RedisServer dead = redis;
        if (dead == null) {
            throw new IOException("the run has no redis-server to kill");
        }
        ProcessHandle process = ProcessHandle.of(dead.pid()).orElseThrow(() -> new IOException("redis-server is not running"));
        process.destroyForcibly();
        killed.accept(System.currentTimeMillis());
        process.onExit().join();
        dead.close();
        redis = RedisServer.start(dead.dir(), dead.port());
        return redis;
    }

    @Override
    public void restartOrigin(java.util.function.LongConsumer killed) throws IOException {
        killAndStartAgain(killed);
    }

    @Override
    public void restartRedis(java.util.function.LongConsumer killed) throws IOException {
        killRedisAndStartAgain(killed);
    }

    private List<String> originArgs(boolean appCache, int pool) {
        List<String> args = new ArrayList<>(options.profile().originArgs());
        args.addAll(options.originArgs());
        if (appCache) {
            args.addAll(redis.originArgs());
        }
        OriginDatabase database = options.database();
        args.addAll(new OriginDatabase(database.kind(), pool, database.acquireTimeout(), database.poolGiven())
                .originArgs());
        if (postgres != null) {
            args.addAll(postgres.originArgs());
        }
        return args;
    }

    @Override
    public void close() {
        more.forEach(OriginServer::close);
        if (origin != null) {
            origin.close();
        }
        if (redis != null) {
            redis.close();
        }
        // After the origin, whose pool then closes its connections first.
        if (postgres != null) {
            postgres.close();
        }
    }
}
