package dev.ratecache.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The app cache's Redis, as the suite runs it: Debian's {@code redis-server} in the foreground, on a
 * port of its own on 127.0.0.1, in a directory of its own in the run folder, with no persistence
 * (no RDB snapshots, no AOF: each run starts empty and leaves no dump behind), stopped by its PID
 * like the nginx tiers. Never the system's service. Spoken to with Jedis, apart from the origin's
 * own client, so the suite reads Redis's own counters independently of what the origin reports.
 */
public final class RedisServer implements AutoCloseable {
    /** Set to another redis-server binary (a build of one's own); also how tests make it missing. */
    public static final String BINARY_VARIABLE = "REDIS_SERVER_BIN";
    private static final Duration READY_WITHIN = Duration.ofSeconds(10);
    // Short: a Redis that hangs (a test pauses one) must not hang the suite.
    private static final JedisClientConfig CLIENT = DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(1000).socketTimeoutMillis(2000).build();

    private final ManagedProcess process;
    private final int port;
    private final Path dir;
    /** The address it listens on, and where its clients reach it. */
    private final String host;
    private boolean paused;

    private RedisServer(ManagedProcess process, int port, Path dir, String host) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.host = host;
    }

    /** The binary the suite would run. */
    public static String binary() {
        return Executables.find("redis-server", BINARY_VARIABLE, "/usr/bin/redis-server");
    }

    /** One line saying why Redis can't be started, or empty when the binary is there. */
    public static Optional<String> notInstalled() {
        String binary = binary();
        if (Executables.runnable(binary)) {
            return Optional.empty();
        }
        return Optional.of("the app cache needs redis-server, and " + binary + " is not there: run ./run-tests.sh as root"
                + " to install it, or: sudo apt-get install -y redis-server"
                + (System.getenv(BINARY_VARIABLE) != null ? " (or fix " + BINARY_VARIABLE + ")" : ""));
    }

    /**
     * Starts redis-server on {@code port} (0: a free one) in {@code dir} and waits until it answers
     * PING. A server that exits or stays silent is stopped and reported with the end of its log, so a
     * failed start leaves nothing running.
     */
    public static RedisServer start(Path dir, int port) throws IOException {
        return start(dir, port, Ports.LOOPBACK);
    }

    /**
     * As {@link #start(Path, int)}, listening on {@code bind}: for hosts of a test's own (network
     * namespaces) that reach it on a bridge. Redis's protected mode, which refuses every address
     * but loopback without a password, is off there.
     */
    public static RedisServer start(Path dir, int port, String bind) throws IOException {
        int chosen = port > 0 ? port : Ports.free();
        Files.createDirectories(dir);
        Path log = dir.resolve("redis.log");
        List<String> command = List.of(binary(),
                "--port", String.valueOf(chosen), "--bind", bind,
                "--protected-mode", bind.equals(Ports.LOOPBACK) ? "yes" : "no",
                "--dir", dir.toAbsolutePath().toString(),
                "--save", "", "--appendonly", "no",
                // In the foreground, so the PID the suite holds is the server's and stopping it stops Redis.
                "--daemonize", "no",
                // Logged to the run folder (its stdout goes to redis.log), not to syslog or /var/log.
                "--logfile", "");
        ManagedProcess process = ManagedProcess.start("redis-server", command, dir, log);
        RedisServer redis = new RedisServer(process, chosen, dir, bind);
        process.awaitReady("answer PING", chosen, READY_WITHIN, redis::answersPing, redis::output, process);
        return redis;
    }

    public int port() { return port; }
    public String host() { return host; }
    public long pid() { return process.pid(); }
    public Path dir() { return dir; }
    public Path log() { return process.log(); }
    public boolean isRunning() { return process.isAlive(); }

    /** What it printed, on one line: for error messages. */
    public String output() {
        return process.lastWords();
    }

    /** The Spring Boot arguments that point the origin's app cache here. */
    public List<String> originArgs() {
        return List.of("--origin.app-cache=redis", "--spring.data.redis.host=" + host,
                "--spring.data.redis.port=" + port);
    }

    /**
     * A new connection, for a test to look at keys: close it after use. Its timeouts are short, so
     * a paused or dead server fails the call rather than hanging it.
     */
    public Jedis client() {
        return new Jedis(new HostAndPort(host, port), CLIENT);
    }

    public boolean answersPing() {
        try (Jedis jedis = client()) {
            return "PONG".equals(jedis.ping());
        } catch (JedisException e) {
            return false;
        }
    }

    /** Redis's counters since the last {@link #reset()}: lookups that found a key, and that did not. */
    public record Stats(long keyspaceHits, long keyspaceMisses) {}

    /** {@code INFO stats}: keyspace_hits and keyspace_misses. */
    public Stats stats() throws IOException {
        Map<String, String> info = info("stats");
        try {
            return new Stats(Long.parseLong(info.get("keyspace_hits")), Long.parseLong(info.get("keyspace_misses")));
        } catch (RuntimeException e) {
            throw new IOException("INFO stats had no keyspace_hits/keyspace_misses: " + info, e);
        }
    }

    /** {@code INFO <section>} as its {@code name:value} lines. */
    public Map<String, String> info(String section) throws IOException {
        String reply = call(jedis -> jedis.info(section));
        Map<String, String> values = new LinkedHashMap<>();
        reply.lines().filter(line -> line.contains(":") && !line.startsWith("#")).forEach(line -> {
            int colon = line.indexOf(':');
            values.put(line.substring(0, colon), line.substring(colon + 1).strip());
        });
        return values;
    }

    /** An empty cache with zeroed counters: each cell starts cold and counts only its own lookups. */
    public void reset() throws IOException {
        expectOk(call(Jedis::flushAll));
        expectOk(call(Jedis::configResetStat));
    }

    /** Zeroes the counters and keeps the keys: a warmed cache, counted from now. */
    public void resetStats() throws IOException {
        expectOk(call(Jedis::configResetStat));
    }

    /** Freezes the server (SIGSTOP): its connections stay open but nothing is answered, as when Redis hangs. */
    public void pause() throws IOException {
        process.signal("STOP");
        paused = true;
    }

    /** Lets a paused server go on (SIGCONT). */
    public void resume() throws IOException {
        process.signal("CONT");
        paused = false;
    }

    /** CPU seconds the server has used, from /proc; empty once it is gone. */
    public OptionalDouble cpuSeconds() {
        return ProcCpu.seconds(process.pid());
    }

    /** Stops the server by its PID (SIGTERM, then SIGKILL) and waits until it is gone. */
    @Override
    public void close() {
        if (paused && process.isAlive()) {
            try {
                // A stopped process acts on SIGTERM only once it runs again.
                resume();
            } catch (IOException e) {
                // Then the SIGKILL after the grace period stops it.
            }
        }
        process.close();
    }

    private interface Command<T> {
        T on(Jedis jedis);
    }

    private <T> T call(Command<T> command) throws IOException {
        try (Jedis jedis = client()) {
            return command.on(jedis);
        } catch (JedisException e) {
            throw new IOException("redis-server on port " + port + " did not answer: " + e.getMessage(), e);
        }
    }

    private static void expectOk(String reply) throws IOException {
        if (!"OK".equals(reply)) {
            throw new IOException("redis-server answered " + reply);
        }
    }
}
