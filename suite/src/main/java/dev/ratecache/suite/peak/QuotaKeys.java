package dev.ratecache.suite.peak;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.proc.Poll;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.spec.Quota;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@code ./run-tests.sh peak --quota-keys N}: what the quota's counters cost Redis, and that they go
 * away. N clients each send one request through the edge's own script (nginx/lua/quota_window.lua,
 * by EVALSHA, as nginx/lua/redis_script.lua runs it) into the suite's own redis-server; Redis's
 * used_memory and DBSIZE are read before, once all are in, and after the window, when every counter
 * must have expired. The promise: memory bounded by the active keys.
 */
public final class QuotaKeys {
    /** The script the edge runs, from the checkout: the same file, not a copy of it. */
    public static final String SCRIPT = "nginx/lua/quota_window.lua";
    /** The edge's prefix (nginx/lua/quota.lua); the script adds ":START" for each window. */
    static final String PREFIX = "ratecache:quota:";
    /**
     * EVALSHAs sent and not yet answered, at most: enough that Redis never waits for the next (about
     * 1 MB of commands), few enough that its buffers for the connection stay small.
     */
    static final int IN_FLIGHT = 10_000;
    /** How long Redis may leave the loading without an answer before it counts as hung. */
    static final Duration SILENCE = Duration.ofSeconds(10);
    /**
     * How long Redis may take, past the last counter's expiry time, to have deleted them all: it
     * deletes expired keys in a background cycle (at most a quarter of its time by default) and when
     * they are read, and the counters are never read again. A million took under 3 s here.
     */
    static final Duration RECLAIM = Duration.ofSeconds(30);

    /** @param quota whose window and mode the counters have; each key's one request is within any N */
    public record Options(long keys, Quota quota, Path dir) {}

    /** Redis at one moment: used_memory (bytes), DBSIZE, and how many of the keys have a TTL. */
    public record Reading(long usedMemory, long keys, long expiring) {}

    /**
     * @param admitted   the EVALSHAs the script admitted (one per key; each key's first request)
     * @param loading    from the first EVALSHA sent to the last answered
     * @param redisCpu   the CPU seconds redis-server spent meanwhile
     * @param lifetime   how long after its first request each counter expires, at most (the script's PEXPIRE)
     * @param untilGone  from the last answer until DBSIZE read 0; the wait's length when it did not
     * @param after      the reading that found DBSIZE 0, or the last of the wait when none did
     */
    public record Outcome(String redisVersion, Quota quota, long keys, long admitted, Duration loading, double redisCpu,
            Reading before, Reading loaded, Duration lifetime, Duration untilGone, Reading after, List<String> warnings) {
        /** The counters' share of used_memory, per counter: what the keys added over the keys there. */
        public double bytesPerKey() {
            return loaded.keys() == 0 ? Double.NaN : (double) (loaded.usedMemory() - before.usedMemory()) / loaded.keys();
        }

        /** Whether every counter went away within the wait. */
        public boolean expired() {
            return after.keys() == 0;
        }

        /** What used_memory kept after the wait over the start, as a share of what the keys took. */
        public double leftShare() {
            long took = loaded.usedMemory() - before.usedMemory();
            return took <= 0 ? Double.NaN : (double) (after.usedMemory() - before.usedMemory()) / took;
        }
    }

    private QuotaKeys() {}

    /** The key of client {@code i}: an address of 10.0.0.0/8, as the edge keys a client by address. */
    public static String key(long i) {
        return PREFIX + "10." + ((i >> 16) & 255) + "." + ((i >> 8) & 255) + "." + (i & 255);
    }

    /**
     * How long a counter lives after the request that made it, at most: two windows and a second in a
     * sliding window (the next window still weighs it), the rest of its window and a second in the
     * others (quota_window.lua's PEXPIREs).
     */
    public static Duration lifetime(Quota quota) {
        long windowMs = quota.windowSeconds() * 1000;
        return Duration.ofMillis((quota.window() == Quota.Window.SLIDING ? 2 * windowMs : windowMs) + 1000);
    }

    /** Starts redis-server in {@code dir}, loads the keys, waits for them to expire, and stops it. */
    public static Outcome run(Options options, PrintWriter progress) throws IOException {
        String script = Files.readString(Repo.root().resolve(SCRIPT));
        List<String> warnings = new ArrayList<>();
        try (RedisServer redis = RedisServer.start(options.dir().resolve("redis"), 0)) {
            String sha;
            try (Jedis jedis = redis.client()) {
                sha = jedis.scriptLoad(script);
            } catch (JedisException e) {
                throw new IOException("redis-server did not load " + SCRIPT + ": " + e.getMessage(), e);
            }
            String version = "Redis " + redis.info("server").getOrDefault("redis_version", "?");
            // Read with no other client connected, before and after: a connection's buffers count in used_memory.
            Reading before = read(redis);
            Quota quota = options.quota();
            String[] args = {String.valueOf(quota.limit()), String.valueOf(quota.windowSeconds() * 1000),
                    String.valueOf(quota.window().code())};
            progress.printf(Locale.ROOT, "loading %,d keys into redis-server on port %d%n", options.keys(), redis.port());
            progress.flush();
            double cpuBefore = redis.cpuSeconds().orElse(Double.NaN);
            long started = System.nanoTime();
            long admitted = load(redis, sha, args, options.keys());
            long lastAnswer = System.nanoTime();
            Duration loading = Duration.ofNanos(lastAnswer - started);
            double redisCpu = redis.cpuSeconds().orElse(Double.NaN) - cpuBefore;
            if (admitted < options.keys()) {
                warnings.add((options.keys() - admitted) + " of " + options.keys() + " first requests were not admitted:"
                        + " each key's first request should be");
            }
            Reading loaded = read(redis);
            Duration lifetime = lifetime(quota);
            if (loading.compareTo(lifetime) >= 0) {
                warnings.add("loading took " + seconds(loading) + ", past a counter's lifetime of " + seconds(lifetime)
                        + ": the first keys had expired before the last were written, so fewer than all are counted");
            }
            progress.printf(Locale.ROOT, "loaded in %s; waiting until every counter has expired (each %s after its"
                    + " request, at most)%n", seconds(loading), seconds(lifetime));
            progress.flush();
            long deadline = lastAnswer + lifetime.plus(RECLAIM).toNanos();
            Reading after = loaded;
            while (after.keys() > 0 && System.nanoTime() < deadline) {
                Poll.pause(100);
                after = read(redis);
            }
            Duration untilGone = Duration.ofNanos(System.nanoTime() - lastAnswer);
            if (after.keys() > 0) {
                warnings.add(after.keys() + " keys were still there " + seconds(untilGone) + " after the last was"
                        + " written, past their lifetime of " + seconds(lifetime) + " and " + seconds(RECLAIM)
                        + " for Redis to delete them");
            }
            return new Outcome(version, quota, options.keys(), admitted, loading, redisCpu, before, loaded, lifetime,
                    untilGone, after, warnings);
        }
    }

    /**
     * Sends one EVALSHA per key on one connection, in RESP as Redis reads it, while another thread reads
     * the answers: at most {@link #IN_FLIGHT} unanswered, so neither side's buffer grows without bound.
     * Hand-written rather than through Jedis's pipeline, whose objects per command cost the client about
     * as much CPU as the script costs Redis: on two cores, a million took 18 s through Jedis, 11 s so.
     * Returns how many the script admitted.
     */
    private static long load(RedisServer redis, String sha, String[] args, long keys) throws IOException {
        Semaphore room = new Semaphore(IN_FLIGHT);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try (Socket socket = new Socket(redis.host(), redis.port())) {
            socket.setSoTimeout((int) SILENCE.toMillis());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            Future<Long> admitted = reader.submit(() -> answers(in, keys, room));
            byte[] head = ("*" + (3 + 1 + args.length) + "\r\n" + bulk("EVALSHA") + bulk(sha) + bulk("1"))
                    .getBytes(StandardCharsets.US_ASCII);
            StringBuilder rest = new StringBuilder();
            for (String arg : args) {
                rest.append(bulk(arg));
            }
            byte[] tail = rest.toString().getBytes(StandardCharsets.US_ASCII);
            for (long i = 0; i < keys; i++) {
                if (!room.tryAcquire()) {
                    // What is buffered must reach Redis before its answers can make room.
                    out.flush();
                    awaitRoom(room, admitted);
                }
                out.write(head);
                out.write(bulk(key(i)).getBytes(StandardCharsets.US_ASCII));
                out.write(tail);
            }
            out.flush();
            return admitted.get();
        } catch (ExecutionException e) {
            throw new IOException("redis-server failed while loading the keys: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while loading the keys", e);
        } finally {
            reader.shutdownNow();
        }
    }

    /**
     * Waits for a place among those in flight; a reader that stopped (an error answer, a closed
     * connection) ends the wait with its own reason, not a timeout's.
     */
    private static void awaitRoom(Semaphore room, Future<Long> reader)
            throws IOException, InterruptedException, ExecutionException {
        long until = System.nanoTime() + SILENCE.toNanos();
        while (!room.tryAcquire(100, TimeUnit.MILLISECONDS)) {
            if (reader.isDone()) {
                reader.get();
                throw new IOException("redis-server's answers ended before the last EVALSHA was sent");
            }
            if (System.nanoTime() > until) {
                throw new IOException("redis-server answered nothing for " + seconds(SILENCE) + " while loading");
            }
        }
    }

    private static String bulk(String s) {
        return "$" + s.length() + "\r\n" + s + "\r\n";
    }

    /**
     * Reads {@code n} answers of the script, each an array of integers (admitted, remaining, reset,
     * retry, Redis's clock: nginx/lua/quota_window.lua), freeing a place in {@code room} for each;
     * returns how many admitted (the first integer 1). An error answer (e.g. NOSCRIPT) ends the
     * loading with Redis's own words.
     */
    static long answers(InputStream in, long n, Semaphore room) throws IOException {
        long admitted = 0;
        for (long read = 0; read < n; read++) {
            String head = line(in);
            if (!head.matches("\\*[1-9]")) {
                throw new IOException("answer " + (read + 1) + " is not the script's array of integers: "
                        + Printable.escape(head));
            }
            String first = line(in);
            for (int i = 1; i < Integer.parseInt(head.substring(1)); i++) {
                line(in);
            }
            if (first.equals(":1")) {
                admitted++;
            }
            // A hundred at a time: a release per answer woke the writer for every one, at a cost to both.
            if ((read + 1) % 100 == 0) {
                room.release(100);
            }
        }
        room.release((int) (n % 100));
        return admitted;
    }

    /** One RESP line without its CRLF; fails at the end of the stream or past a line's sane length. */
    private static String line(InputStream in) throws IOException {
        StringBuilder s = new StringBuilder(16);
        for (int c = in.read(); c != '\r'; c = in.read()) {
            if (c < 0 || s.length() > 512) {
                throw new IOException(c < 0 ? "redis-server closed the connection while loading"
                        : "redis-server sent a line past 512 bytes: " + Printable.escape(s.toString()));
            }
            s.append((char) c);
        }
        if (in.read() != '\n') {
            throw new IOException("redis-server sent a CR without LF after " + Printable.escape(s.toString()));
        }
        return s.toString();
    }

    private static Reading read(RedisServer redis) throws IOException {
        long keys;
        try (Jedis jedis = redis.client()) {
            keys = jedis.dbSize();
        } catch (JedisException e) {
            throw new IOException("redis-server did not answer DBSIZE: " + e.getMessage(), e);
        }
        Map<String, String> memory = redis.info("memory");
        Map<String, String> keyspace = redis.info("keyspace");
        // "db0:keys=1000,expires=1000,avg_ttl=20000"; no db0 line at all when it is empty.
        String db0 = keyspace.getOrDefault("db0", "keys=0,expires=0");
        try {
            return new Reading(Long.parseLong(memory.get("used_memory")), keys, field(db0, "expires"));
        } catch (RuntimeException e) {
            throw new IOException("redis-server's INFO had no used_memory or db0 keys (" + memory.get("used_memory")
                    + ", " + db0 + ")", e);
        }
    }

    private static long field(String db, String name) {
        for (String part : db.split(",")) {
            if (part.startsWith(name + "=")) {
                return Long.parseLong(part.substring(name.length() + 1));
            }
        }
        throw new IllegalArgumentException("no " + name + " in " + db);
    }

    static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    /** The figures as the command prints them. */
    public static String table(Outcome o) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%-14s %12s %12s %14s%n", "", "DBSIZE", "with a TTL", "used_memory"));
        for (Object[] row : new Object[][] {{"before", o.before()}, {"loaded", o.loaded()}, {"after expiry", o.after()}}) {
            Reading r = (Reading) row[1];
            s.append(String.format(Locale.ROOT, "%-14s %,12d %,12d %,14d%n", row[0], r.keys(), r.expiring(), r.usedMemory()));
        }
        s.append(String.format(Locale.ROOT, "bytes per active key: %.0f (used_memory loaded minus before, over the"
                + " keys loaded)%n", o.bytesPerKey()));
        s.append(String.format(Locale.ROOT, "loading: %,d EVALSHAs in %s (%,.0f a second), up to %,d in"
                        + " flight; %,d admitted; Redis's CPU %.1f us per EVALSHA%n", o.keys(), seconds(o.loading()),
                o.keys() / Math.max(1e-9, o.loading().toNanos() / 1e9), IN_FLIGHT, o.admitted(), o.redisCpu() * 1e6 / o.keys()));
        if (o.expired()) {
            s.append(String.format(Locale.ROOT, "expiry: every key gone %s after the last was written (each lives"
                            + " %s at most); used_memory back to %,d bytes over the start, %.1f %% of what the keys"
                            + " took%n", seconds(o.untilGone()), seconds(o.lifetime()),
                    o.after().usedMemory() - o.before().usedMemory(), 100 * o.leftShare()));
        } else {
            s.append(String.format(Locale.ROOT, "expiry: %,d keys still there %s after the last was written (each"
                    + " lives %s at most)%n", o.after().keys(), seconds(o.untilGone()), seconds(o.lifetime())));
        }
        return s.toString();
    }
}
