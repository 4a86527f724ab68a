package dev.ratecache.suite.peak;

import dev.ratecache.proc.Executables;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * h2load (Debian's nghttp2-client) as a managed process: HTTP/2 over TLS, {@code streams}
 * requests in flight on each of {@code connections} connections, and its text output read back.
 *
 * <pre>{@code
 * H2load.Result r = new H2load(5, 10).run(URI.create("https://127.0.0.1:8443/peak"), Duration.ofSeconds(5), dir, "h2-1");
 * }</pre>
 */
public final class H2load {
    private static final Pattern FINISHED = Pattern.compile("(?m)^finished in ([0-9.]+)(us|ms|s|m|h), ([0-9.]+) req/s");
    private static final Pattern REQUESTS = Pattern.compile("(?m)^requests: (\\d+) total, (\\d+) started, (\\d+) done,"
            + " (\\d+) succeeded, (\\d+) failed, (\\d+) errored, (\\d+) timeout");
    private static final Pattern TLS = Pattern.compile("(?m)^TLS Protocol: (\\S+)\\s*\\RCipher: (\\S+)");
    private static final Pattern APPLICATION = Pattern.compile("(?m)^Application protocol: (\\S+)");
    private static final Pattern STATUS = Pattern.compile("(?m)^status codes: (\\d+) 2xx, (\\d+) 3xx, (\\d+) 4xx, (\\d+) 5xx");

    /**
     * Requests each connection makes in one h2load run. nginx ends an HTTP/2 connection after
     * keepalive_requests (10000, snippets/shared/basics.conf) and h2load 1.52 does not open another,
     * in -D mode either: its clients stop and the rate falls. So a measurement is a series of runs of
     * this many requests per connection, well under that limit, and each run opens its connections
     * anew, as a browser does after nginx's GOAWAY.
     */
    static final int REQUESTS_PER_CONNECTION = 5000;

    /**
     * One h2load run, or several added up.
     *
     * @param seconds   h2load's own "finished in", summed: the time its requests took, without its start
     * @param requests  requests it meant to send
     * @param succeeded responses with a 2xx or 3xx status
     * @param failed    requests that failed (errored or timed out among them), and 4xx and 5xx responses
     * @param tls         the TLS version and cipher h2load negotiated, e.g. "TLSv1.2 ECDHE-ECDSA-AES128-GCM-SHA256"
     * @param application what ALPN chose: "h2", or the HTTP/1.1 a server without HTTP/2 falls back to
     */
    public record Result(double seconds, long requests, long succeeded, long failed, String tls, String application) {
        public double requestsPerSecond() {
            return seconds > 0 ? succeeded / seconds : Double.NaN;
        }

        Result plus(Result other) {
            return new Result(seconds + other.seconds, requests + other.requests, succeeded + other.succeeded,
                    failed + other.failed, tls.isEmpty() ? other.tls : tls,
                    application.isEmpty() ? other.application : application);
        }
    }

    private final int connections;
    private final int streams;

    public H2load(int connections, int streams) {
        this.connections = connections;
        this.streams = streams;
    }

    /** h2load's -c for wrk's -c {@code inFlight} at -m {@code streams}: the same requests in flight, multiplexed. */
    public static int connectionsFor(int inFlight, int streams) {
        return Math.max(1, (inFlight + streams - 1) / streams);
    }

    /** The h2load binary: H2LOAD_BIN when set, else the one on PATH, else Debian's. */
    public static String binary() {
        return Executables.find("h2load", "H2LOAD_BIN", "/usr/bin/h2load");
    }

    public static boolean installed() {
        return Executables.runnable(binary());
    }

    /** The command line, for progress lines and the table. */
    public String describe() {
        return "h2load -c" + connections + " -m" + streams;
    }

    /**
     * Runs h2load against {@code url} (https: ALPN chooses h2) again and again until {@code duration}
     * has passed; {@code dir} keeps each run's {@code name}-N.out and .log.
     */
    public Result run(URI url, Duration duration, Path dir, String name) throws IOException, InterruptedException {
        return runCounted(url, duration, dir, name).result();
    }

    /** {@link #run}, with h2load's own CPU over all its runs. */
    public Counted<Result> runCounted(URI url, Duration duration, Path dir, String name)
            throws IOException, InterruptedException {
        long until = System.nanoTime() + duration.toNanos();
        Result total = new Result(0, 0, 0, 0, "", "");
        double cpu = 0;
        for (int i = 1; i == 1 || System.nanoTime() < until; i++) {
            Counted<Result> one = once(url, dir, name + "-" + i);
            total = total.plus(one.result());
            cpu += one.cpuSeconds();
        }
        return new Counted<>(total, cpu);
    }

    /** Requests in flight at once: the closed loop's population. */
    public int inFlight() {
        return connections * streams;
    }

    private Counted<Result> once(URI url, Path dir, String name) throws IOException, InterruptedException {
        List<String> command = List.of(binary(), "-c", String.valueOf(connections), "-m", String.valueOf(streams),
                "-n", String.valueOf((long) connections * REQUESTS_PER_CONNECTION), url.toString());
        ClientProcess.Ran ran = ClientProcess.run("h2load", name, command, dir, Duration.ofSeconds(120), url);
        return new Counted<>(parse(ran.output()), ran.cpuSeconds());
    }

    /**
     * Reads h2load's text output; throws IllegalArgumentException, quoting its first lines escaped,
     * when it has no "finished in", requests or status codes line, or a figure that is no number.
     */
    public static Result parse(String output) {
        try {
            return read(output);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not h2load's output (a figure that is no number, or past a long): "
                    + Wrk.firstLines(output));
        }
    }

    private static Result read(String output) {
        Matcher finished = FINISHED.matcher(output);
        Matcher requests = REQUESTS.matcher(output);
        Matcher status = STATUS.matcher(output);
        if (!finished.find() || !requests.find() || !status.find()) {
            throw new IllegalArgumentException("not h2load's output (no \"finished in\", requests or status codes line): "
                    + Wrk.firstLines(output));
        }
        long ok = Long.parseLong(status.group(1)) + Long.parseLong(status.group(2));
        long refused = Long.parseLong(status.group(3)) + Long.parseLong(status.group(4));
        // "failed" counts the errored and timed-out requests too.
        long failed = Long.parseLong(requests.group(5));
        Matcher tls = TLS.matcher(output);
        Matcher application = APPLICATION.matcher(output);
        return new Result(Wrk.millis(finished.group(1), finished.group(2)) / 1000, Long.parseLong(requests.group(1)),
                ok, failed + refused, tls.find() ? tls.group(1) + " " + tls.group(2) : "",
                application.find() ? application.group(1) : "");
    }
}
