package dev.ratecache.appserver;

import static org.awaitility.Awaitility.await;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real {@code redis-server} of the test's own, as the suite runs one: Debian's binary, on a free
 * port of 127.0.0.1, in its own directory, with no persistence and in the foreground, stopped by its
 * PID. Never the system's service. Talks RESP over a plain socket, so the tests see Redis's own
 * counters independently of the client the origin uses.
 */
final class RedisServer implements AutoCloseable {

    private static final Duration READY_WITHIN = Duration.ofSeconds(10);

    private final Process process;
    private final int port;
    private final Path log;
    private final Thread killOnExit;

    private RedisServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
        // A test JVM that dies without running @AfterAll must not leave a Redis behind.
        this.killOnExit = new Thread(process::destroyForcibly, "stop redis-server " + process.pid());
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** The redis-server on the PATH, as Debian's package installs it (/usr/bin). */
    static Optional<Path> binary() {
        String path = System.getenv().getOrDefault("PATH", "");
        return Arrays.stream(path.split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, "redis-server"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    static String notInstalled() {
        return "redis-server is not installed (./run-tests.sh test installs Debian's redis-server)";
    }

    /** Starts one on a free port in {@code dir} and waits until it answers PING. */
    static RedisServer start(Path dir) {
        return start(dir, freePort());
    }

    /**
     * Starts one on {@code port}; a server that exits or does not answer in time is stopped and
     * reported with what it printed.
     */
    static RedisServer start(Path dir, int port) {
        Path binary = binary().orElseThrow(() -> new IllegalStateException(notInstalled()));
        Path log = dir.resolve("redis-" + port + ".log");
        List<String> command = List.of(binary.toString(),
                "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--dir", dir.toString(),
                // No persistence: a test's cache starts empty and leaves nothing on disk.
                "--save", "", "--appendonly", "no",
                // In the foreground, so that the PID we hold is the server's.
                "--daemonize", "no");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        RedisServer redis = new RedisServer(process, port, log);
        try {
            await().atMost(READY_WITHIN).pollInterval(Duration.ofMillis(20))
                    .until(() -> !process.isAlive() || redis.answersPing());
        }
        catch (ConditionTimeoutException ex) {
            redis.close();
            throw new IllegalStateException("redis-server did not answer PING on port " + port + " within "
                    + READY_WITHIN.toSeconds() + " s: " + redis.output());
        }
        if (!process.isAlive()) {
            redis.close();
            throw new IllegalStateException("redis-server exited with " + process.exitValue() + " on port " + port
                    + ": " + redis.output());
        }
        return redis;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    boolean answersPing() {
        try {
            return "+PONG".equals(call("PING"));
        }
        catch (IOException ex) {
            return false;
        }
    }

    /** {@code INFO <section>} as its {@code name:value} lines. */
    Map<String, String> info(String section) throws IOException {
        String reply = call("INFO " + section);
        Map<String, String> values = new LinkedHashMap<>();
        reply.lines().filter(line -> line.contains(":") && !line.startsWith("#")).forEach(line -> {
            int colon = line.indexOf(':');
            values.put(line.substring(0, colon), line.substring(colon + 1).strip());
        });
        return values;
    }

    long keyspaceHits() throws IOException {
        return Long.parseLong(info("stats").get("keyspace_hits"));
    }

    long keyspaceMisses() throws IOException {
        return Long.parseLong(info("stats").get("keyspace_misses"));
    }

    /**
     * One inline command (words without spaces or quotes) and its reply: a status or error line as
     * sent ({@code +PONG}), an integer as its digits, a bulk string as its text ({@code null} for nil).
     */
    String call(String inlineCommand) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write((inlineCommand + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String first = line(in);
            return switch (first.charAt(0)) {
                case ':' -> first.substring(1);
                case '$' -> bulk(in, Integer.parseInt(first.substring(1)));
                default -> first;
            };
        }
    }

    /** Freezes the server (SIGSTOP): its connections stay open but nothing is answered, as when Redis hangs. */
    void pause() {
        signal("STOP");
    }

    /** Lets a paused server go on (SIGCONT). */
    void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** Stops the server by its PID (SIGTERM, then SIGKILL if it lingers) and waits until it is gone. */
    void stop() {
        if (process.isAlive()) {
            // A paused server would not act on SIGTERM until it went on.
            signal("CONT");
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        }
        catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running or ran; the process is stopped either way.
        }
    }

    String output() {
        try {
            return Files.exists(log) ? Files.readString(log).strip().replaceAll("\\s*\\n\\s*", " | ") : "";
        }
        catch (IOException ex) {
            return "(output unreadable: " + ex.getMessage() + ")";
        }
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

    /** A port nothing listens on now; the tiny race with another process is what start() reports. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
