package dev.ratecache.suite.redis;

import dev.ratecache.suite.net.Ports;
import dev.ratecache.suite.proc.Executables;
import dev.ratecache.suite.proc.ManagedProcess;
import dev.ratecache.suite.proc.Poll;
import dev.ratecache.suite.proc.ProcCpu;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The app cache's Redis, as the suite runs it: Debian's {@code redis-server} in the foreground, on a
 * port of its own on 127.0.0.1, in a directory of its own in the run folder, with no persistence
 * (no RDB snapshots, no AOF: each run starts empty and leaves no dump behind), stopped by its PID
 * like the nginx tiers. Never the system's service. Spoken to over a plain socket (RESP inline
 * commands), so the suite reads Redis's own counters independently of the origin's client.
 */
public final class RedisServer implements AutoCloseable {
    /** Set to another redis-server binary (a build of one's own); also how tests make it missing. */
    public static final String BINARY_VARIABLE = "REDIS_SERVER_BIN";
    private static final Duration READY_WITHIN = Duration.ofSeconds(10);

    private final ManagedProcess process;
    private final int port;
    private final Path dir;

    private RedisServer(ManagedProcess process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
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
        int chosen = port > 0 ? port : Ports.free();
        Files.createDirectories(dir);
        Path log = dir.resolve("redis.log");
        List<String> command = List.of(binary(),
                "--port", String.valueOf(chosen), "--bind", Ports.LOOPBACK,
                "--dir", dir.toAbsolutePath().toString(),
                "--save", "", "--appendonly", "no",
                // In the foreground, so the PID the suite holds is the server's and stopping it stops Redis.
                "--daemonize", "no",
                // Logged to the run folder (its stdout goes to redis.log), not to syslog or /var/log.
                "--logfile", "");
        ManagedProcess process = ManagedProcess.start("redis-server", command, dir, log);
        RedisServer redis = new RedisServer(process, chosen, dir);
        Instant deadline = Instant.now().plus(READY_WITHIN);
        while (!redis.answersPing()) {
            if (!process.isAlive()) {
                process.close();
                throw new IOException("redis-server exited during start-up on port " + chosen + ": "
                        + process.logTail(5).strip().replaceAll("\\s*\\n\\s*", " | "));
            }
            if (Instant.now().isAfter(deadline)) {
                process.close();
                throw new IOException("redis-server did not answer PING on port " + chosen + " within "
                        + READY_WITHIN.toSeconds() + " s: " + process.logTail(5).strip().replaceAll("\\s*\\n\\s*", " | "));
            }
            Poll.pause(20);
        }
        return redis;
    }

    public int port() { return port; }
    public long pid() { return process.pid(); }
    public Path dir() { return dir; }
    public Path log() { return process.log(); }
    public boolean isRunning() { return process.isAlive(); }

    /** The Spring Boot arguments that point the origin's app cache here. */
    public List<String> originArgs() {
        return List.of("--origin.app-cache=redis", "--spring.data.redis.host=" + Ports.LOOPBACK,
                "--spring.data.redis.port=" + port);
    }

    public boolean answersPing() {
        try {
            return "+PONG".equals(call("PING"));
        } catch (IOException e) {
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
        String reply = call("INFO " + section);
        Map<String, String> values = new LinkedHashMap<>();
        if (reply == null) {
            return values;
        }
        reply.lines().filter(line -> line.contains(":") && !line.startsWith("#")).forEach(line -> {
            int colon = line.indexOf(':');
            values.put(line.substring(0, colon), line.substring(colon + 1).strip());
        });
        return values;
    }

    /** An empty cache with zeroed counters: each cell starts cold and counts only its own lookups. */
    public void reset() throws IOException {
        expectOk(call("FLUSHALL"));
        expectOk(call("CONFIG RESETSTAT"));
    }

    /** Zeroes the counters and keeps the keys: a warmed cache, counted from now. */
    public void resetStats() throws IOException {
        expectOk(call("CONFIG RESETSTAT"));
    }

    private static void expectOk(String reply) throws IOException {
        if (!"+OK".equals(reply)) {
            throw new IOException("redis-server answered " + reply);
        }
    }

    /** CPU seconds the server has used, from /proc; empty once it is gone. */
    public java.util.OptionalDouble cpuSeconds() {
        return ProcCpu.seconds(process.pid());
    }

    /**
     * One inline command (words without spaces or quotes) and its reply: a status or error line as
     * sent ({@code +OK}), an integer as its digits, a bulk string as its text ({@code null} for nil).
     * Short timeouts: a Redis that hangs must not hang the suite.
     */
    public String call(String inlineCommand) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(Ports.LOOPBACK, port), 1000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write((inlineCommand + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String first = line(in);
            if (first.isEmpty()) {
                throw new IOException("redis-server sent an empty reply");
            }
            return switch (first.charAt(0)) {
                case ':' -> first.substring(1);
                case '$' -> bulk(in, Integer.parseInt(first.substring(1)));
                default -> first;
            };
        }
    }

    /** Stops the server by its PID (SIGTERM, then SIGKILL) and waits until it is gone. */
    @Override
    public void close() {
        process.close();
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        int current;
        while ((current = in.read()) != -1) {
            if (previous == '\r' && current == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(current);
            previous = current;
        }
        throw new IOException("redis-server closed the connection mid-reply");
    }

    private static String bulk(InputStream in, int length) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] bytes = in.readNBytes(length + 2);
        if (bytes.length != length + 2) {
            throw new IOException("redis-server closed the connection mid-reply");
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
