package dev.ratecache.suite.edge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Poll;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Varnish tier's requests as events. varnishd logs into a ring in shared memory in its working
 * directory (the VSL), which goes when it stops; {@link #save} writes what it holds of the
 * client requests to a file with varnishncsa while the tier still runs, {@link #read} reads that
 * file. The key is the client's address: at the front varnishncsa's own (%h, the address the
 * request came from, client.ip), at the back the VCL's std.log line (snippets/back/log-key.vcl, from
 * X-Forwarded-For); the limit's outcome is the limits' std.log lines, the cache's its X-Cache-Status.
 */
final class VarnishLog {
    /**
     * One JSON object per client request (varnishncsa -j escapes the values). start: Timestamp
     * Start, epoch seconds with microseconds; us: from then to the response's end; fetch: the time
     * the fetch took, from the step before it (Timestamp Fetch, its third field).
     */
    static final String FORMAT = "{\"start\":\"%{VSL:Timestamp:Start[1]}x\",\"us\":%D,\"key\":\"%{VCL_Log:key}x\","
            + "\"host\":\"%h\","
            + "\"method\":\"%m\",\"uri\":\"%U%q\",\"status\":%s,\"bytes\":%b,\"handling\":\"%{Varnish:handling}x\","
            + "\"cache\":\"%{X-Cache-Status}o\",\"limit\":\"%{VCL_Log:limit}x\","
            + "\"fetch\":\"%{VSL:Timestamp:Fetch[3]}x\"}";
    /**
     * How long the tier may take to show every request once the traffic ended: each worker adds
     * its counts to the totals once it is idle, after the connection's linger (50 ms).
     */
    private static final Duration SETTLE = Duration.ofSeconds(10);
    private static final long SETTLE_POLL_MS = 200;

    private VarnishLog() {}

    static String ncsa() {
        return Executables.find("varnishncsa", "VARNISHNCSA_BIN", "/usr/bin/varnishncsa");
    }

    static String stat() {
        return Executables.find("varnishstat", "VARNISHSTAT_BIN", "/usr/bin/varnishstat");
    }

    /**
     * Writes every client request varnishd {@code instance} (its -n directory) logged to {@code file}.
     * Complete or it throws: a worker writes a request's records out before it adds the request to
     * the tier's counters, so once the count of requests has held still for longer than a worker
     * lingers and the file has as many, none is missing. The ring (vsl_space, 80 MB by default)
     * holds about 30,000 requests that each missed the cache (2.6 kB each with their fetch,
     * measured), 65,000 hits or 75,000 rejections; a tier whose ring went round lost its oldest
     * records, and this says so instead of saving what is left.
     */
    static void save(Path instance, Path file) throws IOException {
        Instant deadline = Instant.now().plus(SETTLE);
        long before = -1;
        long saved = -1;
        while (true) {
            Map<String, Long> counters = counters(instance,
                    List.of("MAIN.client_req", "MAIN.client_req_400", "MAIN.shm_cycles"));
            if (counters.getOrDefault("MAIN.shm_cycles", 0L) > 0) {
                throw new IOException("Varnish's log of " + instance + " went round its ring (vsl_space) and lost"
                        + " its oldest requests: more than it holds in one run");
            }
            // A request refused as malformed (400) is logged but not counted as a good one.
            long requests = counters.getOrDefault("MAIN.client_req", 0L) + counters.getOrDefault("MAIN.client_req_400", 0L);
            if (requests == before) {
                run(List.of(ncsa(), "-n", instance.toString(), "-d", "-j", "-F", FORMAT, "-w", file.toString()));
                try (Stream<String> lines = Files.lines(file)) {
                    saved = lines.count();
                }
                if (saved >= requests || everySessionClosed(instance)) {
                    return;
                }
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IOException("Varnish's log of " + instance + " shows " + Math.max(saved, 0) + " of its "
                        + requests + " requests " + SETTLE.toSeconds() + " s after the traffic");
            }
            before = requests;
            Poll.pause(SETTLE_POLL_MS);
        }
    }

    /**
     * Whether every client connection the tier accepted has closed: then every request on them has
     * ended and is in the log. The count of requests alone is not enough: varnishd counts a request
     * it reads from a connection the client then drops before it is handled (measured: 3 in 59,503
     * under wrk, 42 in 842 under JMeter's flood), and never logs it.
     */
    private static boolean everySessionClosed(Path instance) throws IOException {
        String out = run(List.of(log(), "-n", instance.toString(), "-d", "-g", "raw", "-i", "SessOpen", "-i",
                "SessClose"));
        long opened = out.lines().filter(l -> l.contains("SessOpen")).count();
        long closed = out.lines().filter(l -> l.contains("SessClose")).count();
        return opened > 0 && opened == closed;
    }

    static String log() {
        return Executables.find("varnishlog", "VARNISHLOG_BIN", "/usr/bin/varnishlog");
    }

    /** The counters {@code names} of the tier whose working directory is {@code instance}, by name. */
    static Map<String, Long> counters(Path instance, List<String> names) throws IOException {
        List<String> command = new ArrayList<>(List.of(stat(), "-1", "-n", instance.toString()));
        names.forEach(n -> command.addAll(List.of("-f", n)));
        String out = run(command);
        return out.lines().map(l -> l.trim().split("\\s+")).filter(f -> f.length >= 2 && f[1].matches("\\d+"))
                .collect(Collectors.toMap(f -> f[0], f -> Long.parseLong(f[1])));
    }

    private static String run(List<String> command) throws IOException {
        try {
            return ManagedProcess.run(command, Duration.ofSeconds(60)).stdoutIfSucceeded();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0), e);
        }
    }

    static List<EdgeEvent> read(Path file) throws IOException {
        return JsonLog.read(file, VarnishLog::event);
    }

    static EdgeEvent event(JsonNode line) {
        long start = new BigDecimal(JsonLog.text(line, "start")).movePointRight(6).setScale(0, RoundingMode.FLOOR)
                .longValueExact();
        long end = start + JsonLog.number(line, "us");
        int status = (int) JsonLog.number(line, "status");
        // A miss or a pass asked the next tier; a hit (in grace too: its refresh is a fetch of its own),
        // a synthetic answer (a rejection, a purge) asked none.
        String handling = JsonLog.text(line, "handling");
        boolean upstream = handling.equals("miss") || handling.equals("pass");
        String fetch = JsonLog.text(line, "fetch");
        // The back tier logs the address the front passed; the front logs none, the peer is the client.
        String key = JsonLog.text(line, "key").isEmpty() ? JsonLog.text(line, "host") : JsonLog.text(line, "key");
        return new EdgeEvent(start / 1000, end / 1000, key, JsonLog.text(line, "method"),
                JsonLog.text(line, "uri"), status, line.path("bytes").asLong(0), limit(JsonLog.text(line, "limit")),
                cache(JsonLog.text(line, "cache")), upstream ? String.valueOf(status) : "",
                // Whole milliseconds down, as the times above: the fetch then never starts before the arrival.
                upstream && !fetch.isEmpty() ? new BigDecimal(fetch).movePointRight(3).longValue() : 0, "");
    }

    private static EdgeEvent.Limit limit(String value) {
        return value.isEmpty() ? EdgeEvent.Limit.NONE : EdgeEvent.Limit.valueOf(value);
    }

    private static EdgeEvent.Cache cache(String value) {
        return value.isEmpty() ? EdgeEvent.Cache.NONE : EdgeEvent.Cache.valueOf(value);
    }
}
