package dev.ratecache.suite.peak;

import dev.ratecache.proc.Executables;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenSSL's {@code s_time} as a managed process: one connection after another, each with
 * its own TLS handshake (full with {@code -new}, resumed from the server's session cache with
 * {@code -reuse}) and one HTTP/1.0 request, read back into numbers.
 *
 * <pre>{@code
 * STime.Result r = STime.run("127.0.0.1", 8443, "/peak", STime.Handshake.FULL, Duration.ofSeconds(5), dir, "full-1");
 * }</pre>
 */
public final class STime {
    // "1459 connections in 3 real seconds, 153 bytes read per connection": the count, and what each read.
    private static final Pattern REAL = Pattern.compile(
            "(?m)^(\\d+) connections in (\\d+) real seconds, (\\d+) bytes read per connection");
    // The progress line: one mark per connection, 'r' when its session was resumed, '*' when it was new
    // (TLS 1.2 and 1.3 alike; 't' and '3' are TLS 1.0's and SSL 3's).
    private static final Pattern MARKS = Pattern.compile("(?m)^[*rt3]+$");

    /** Which handshake every connection makes. */
    public enum Handshake {
        FULL("-new"), RESUMED("-reuse");

        private final String flag;

        Handshake(String flag) {
            this.flag = flag;
        }

        public String flag() {
            return flag;
        }
    }

    /**
     * One s_time run.
     *
     * @param connections        connections made and answered, each with one request
     * @param resumed            those whose session was resumed
     * @param bytesPerConnection what each read: the response's headers and body
     * @param seconds            the run's wall time as the caller measured it (s_time prints whole seconds
     *                           only); NaN from {@link #parse} alone
     */
    public record Result(long connections, long resumed, long bytesPerConnection, double seconds) {
        public double connectionsPerSecond() {
            return seconds > 0 ? connections / seconds : Double.NaN;
        }

        Result timed(double wallSeconds) {
            return new Result(connections, resumed, bytesPerConnection, wallSeconds);
        }
    }

    private STime() {
    }

    /** The openssl binary: OPENSSL_BIN when set, else the one on PATH, else Debian's. */
    public static String binary() {
        return Executables.find("openssl", "OPENSSL_BIN", "/usr/bin/openssl");
    }

    public static boolean installed() {
        return Executables.runnable(binary());
    }

    /** The command line, for progress lines and the table. */
    public static String describe(Handshake handshake) {
        return "openssl s_time " + handshake.flag();
    }

    /**
     * Runs s_time against {@code host:port} for {@code time} (whole seconds), each connection asking
     * {@code path}; {@code dir} keeps {@code name}.out and {@code name}.log. The rate is over the
     * wall time measured here, s_time's own being whole seconds.
     */
    public static Result run(String host, int port, String path, Handshake handshake, Duration time, Path dir,
            String name) throws IOException, InterruptedException {
        return runCounted(host, port, path, handshake, time, dir, name).result();
    }

    /** {@link #run}, with s_time's own CPU. */
    public static Counted<Result> runCounted(String host, int port, String path, Handshake handshake, Duration time,
            Path dir, String name) throws IOException, InterruptedException {
        List<String> command = List.of(binary(), "s_time", "-connect", host + ":" + port, handshake.flag(),
                "-time", String.valueOf(time.toSeconds()), "-www", path);
        ClientProcess.Ran ran = ClientProcess.run("openssl s_time", name, command, dir, time.plusSeconds(30),
                host + ":" + port);
        return new Counted<>(parse(ran.output()).timed(ran.wallSeconds()), ran.cpuSeconds());
    }

    /**
     * Reads s_time's output (one of -new and -reuse); throws IllegalArgumentException, quoting its
     * first lines escaped, when it has no count of connections or one past a long.
     */
    public static Result parse(String output) {
        try {
            return read(output);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not openssl s_time's output (a count past a long): " + Wrk.firstLines(output));
        }
    }

    private static Result read(String output) {
        Matcher real = REAL.matcher(output);
        if (!real.find()) {
            throw new IllegalArgumentException("not openssl s_time's output (no \"connections in N real seconds\" line): "
                    + Wrk.firstLines(output));
        }
        long resumed = 0;
        Matcher marks = MARKS.matcher(output);
        while (marks.find()) {
            resumed += marks.group().chars().filter(c -> c == 'r').count();
        }
        return new Result(Long.parseLong(real.group(1)), resumed, Long.parseLong(real.group(3)), Double.NaN);
    }
}
