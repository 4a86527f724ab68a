package dev.ratecache.suite.peak;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * wrk (Debian's package) as a {@link ManagedProcess}, and its text output read back into numbers.
 *
 * <pre>{@code
 * Wrk.Result r = new Wrk(new Wrk.Load(Duration.ofSeconds(5), 50, 1)).run(URI.create("http://127.0.0.1:8080/"), null, dir, "hit");
 * }</pre>
 */
public final class Wrk {
    private static final Pattern REQUESTS_PER_SECOND = Pattern.compile("(?m)^Requests/sec:\\s+([0-9.]+)");
    private static final Pattern TOTAL = Pattern.compile("(?m)^\\s*(\\d+) requests in ([0-9.]+)(us|ms|s|m|h)");
    private static final Pattern LATENCY_AVG = Pattern.compile("(?m)^\\s*Latency\\s+([0-9.]+)(us|ms|s|m|h)");
    private static final Pattern PERCENTILE = Pattern.compile("(?m)^\\s*(50|99)(?:\\.000)?%\\s+([0-9.]+)(us|ms|s|m|h)");
    private static final Pattern NON_2XX = Pattern.compile("(?m)^\\s*Non-2xx or 3xx responses:\\s+(\\d+)");
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "(?m)^\\s*Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

    /** How hard to push: wrk's -d, -c and -t. */
    public record Load(Duration duration, int connections, int threads) {
        public String describe() {
            return "wrk -t" + threads + " -c" + connections + " -d" + duration.toSeconds() + "s";
        }
    }

    /**
     * One wrk run, as wrk printed it.
     *
     * @param requestsPerSecond wrk's "Requests/sec"
     * @param requests          every response wrk read
     * @param non2xx            responses with a status outside 2xx and 3xx (rejections, errors)
     * @param socketErrors      connect, read, write and timeout errors together
     * @param latencyAvg        mean latency, in milliseconds
     * @param latencyP50        median latency, in milliseconds
     * @param latencyP99        99th percentile latency, in milliseconds
     */
    public record Result(double requestsPerSecond, long requests, double seconds, long non2xx, long socketErrors,
            double latencyAvg, double latencyP50, double latencyP99) {
        /** The share of responses that were not 2xx or 3xx. */
        public double non2xxShare() {
            return requests == 0 ? 0 : (double) non2xx / requests;
        }
    }

    private final Load load;

    public Wrk(Load load) {
        this.load = load;
    }

    /** The command line, for progress lines. */
    public String describe(URI url) {
        return load.describe() + " " + url;
    }

    /** The wrk binary: WRK_BIN when set, else the one on PATH, else Debian's. */
    public static String binary() {
        return Executables.find("wrk", "WRK_BIN", "/usr/bin/wrk");
    }

    public static boolean installed() {
        return Executables.runnable(binary());
    }

    /**
     * Runs wrk against {@code url} (with {@code script}, a Lua file, when not null) and reads its
     * output; {@code dir} keeps {@code name}.out and {@code name}.log.
     */
    public Result run(URI url, Path script, Path dir, String name) throws IOException, InterruptedException {
        return runCounted(url, script, dir, name).result();
    }

    /** {@link #run}, with wrk's own CPU. */
    public Counted<Result> runCounted(URI url, Path script, Path dir, String name) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary(), "--latency",
                "-t", String.valueOf(load.threads()), "-c", String.valueOf(load.connections()),
                "-d", load.duration().toSeconds() + "s", "--timeout", "5s"));
        if (script != null) {
            command.addAll(List.of("-s", script.toAbsolutePath().toString()));
        }
        command.add(url.toString());
        ClientProcess.Ran ran = ClientProcess.run("wrk", name, command, dir, load.duration().plusSeconds(30), url);
        return new Counted<>(parse(ran.output()), ran.cpuSeconds());
    }

    /**
     * Reads wrk's text output (as printed with --latency); throws IllegalArgumentException, quoting
     * its first lines escaped, when it holds no Requests/sec or a figure that is no number.
     */
    public static Result parse(String output) {
        try {
            return read(output);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not wrk's output (a figure that is no number, or past a long): "
                    + firstLines(output));
        }
    }

    private static Result read(String output) {
        Matcher rps = REQUESTS_PER_SECOND.matcher(output);
        Matcher total = TOTAL.matcher(output);
        if (!rps.find() || !total.find()) {
            throw new IllegalArgumentException("not wrk's output (no Requests/sec line): " + firstLines(output));
        }
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        Matcher pct = PERCENTILE.matcher(output);
        while (pct.find()) {
            double ms = millis(pct.group(2), pct.group(3));
            if (pct.group(1).equals("50")) {
                p50 = ms;
            } else {
                p99 = ms;
            }
        }
        Matcher avg = LATENCY_AVG.matcher(output);
        Matcher errors = SOCKET_ERRORS.matcher(output);
        long socketErrors = 0;
        if (errors.find()) {
            for (int i = 1; i <= 4; i++) {
                socketErrors += Long.parseLong(errors.group(i));
            }
        }
        return new Result(Double.parseDouble(rps.group(1)), Long.parseLong(total.group(1)),
                millis(total.group(2), total.group(3)) / 1000,
                first(NON_2XX, output).map(Long::parseLong).orElse(0L), socketErrors,
                avg.find() ? millis(avg.group(1), avg.group(2)) : Double.NaN, p50, p99);
    }

    /**
     * The first three lines that are not blank, fit for a one-line message: a client's output may
     * hold escape sequences (colour, a progress bar) or, from a crash, anything.
     */
    static List<String> firstLines(String output) {
        return output.lines().filter(l -> !l.isBlank()).limit(3).map(l -> Printable.escape(l, 120)).toList();
    }

    private static Optional<String> first(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** wrk's durations (e.g. "255.30us", "1.20ms", "5.00s", "1.00m") in milliseconds. */
    static double millis(String number, String unit) {
        double value = Double.parseDouble(number);
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "us" -> value / 1000;
            case "ms" -> value;
            case "s" -> value * 1000;
            case "m" -> value * 60_000;
            case "h" -> value * 3_600_000;
            default -> throw new IllegalArgumentException("unknown time unit " + unit);
        };
    }
}
